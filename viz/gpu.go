package viz

import (
	"cmp"
	"fmt"
	"image"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/docs/gpu"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/train"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// The focus control of the gpu scene: every panel, or one of them large.
const (
	gpuAll       = "all"
	gpuGEMM      = "gemm"
	gpuBandwidth = "bandwidth"
	gpuAccum     = "accumulation"
	gpuLinear    = "linear"
)

// gpuScene shows measurements made on a real GPU and shipped with the
// program (docs/gpu): FP8 against BF16 products by shape, the kernels'
// bandwidth as a share of a copy, the error of fast accumulation against K
// beside the emulator fitted to it, and, for runs that timed it, one FP8
// linear layer under three plans. A run is a folder of data: a new one
// appears in the Run control without a change here.
type gpuScene struct {
	sceneBase
	key  string
	runs []*gpu.Run
	m    gpuModel
	err  error
}

// gpuModel is one run as the scene shows it.
type gpuModel struct {
	run      *gpu.Run
	products []gpu.Product // with an FP8 and a BF16 result, by work (2MNK)
	kernels  []gpu.BenchResult
	copy     gpu.BenchResult
	hasCopy  bool
	accum    []gpuAccumRow // by operands, then K
	emulated bool          // accum carries the current emulator's errors
	linear   *gpu.LinearShape
}

// gpuAccumRow is one (operands, K) of a run's accumulation study: the
// device's relative errors with fast accumulation on and off, and the
// current emulator's (FastAccumulator and PromotedAccumulator; NaN when
// the run has no emulated.json).
type gpuAccumRow struct {
	kind           string
	k              int
	on, off        float64
	fast, promoted float64
}

// gpuKinds are the operand kinds of an accumulation study.
var gpuKinds = []string{"positive", "signed"}

func newGPU() Scene {
	runs, err := gpu.Runs()
	return newGPUScene(runs, err)
}

// newGPUScene shows runs (err: why they could not be read).
func newGPUScene(runs []*gpu.Run, err error) *gpuScene {
	s := newScene(&gpuScene{sceneBase: sceneBase{name: "gpu", title: "GPU measurements"}, runs: runs, err: err})
	names := []string{"none"}
	focus := []string{gpuAll, gpuGEMM, gpuBandwidth, gpuAccum}
	if len(s.runs) > 0 {
		names = names[:0]
		for _, r := range s.runs {
			names = append(names, r.Name)
			if r.Linear != nil && !slices.Contains(focus, gpuLinear) {
				focus = append(focus, gpuLinear)
			}
		}
	}
	params := []Param{
		{Name: "run", Label: "Run", Kind: ParamChoice, Options: names, Default: names[len(names)-1],
			Help: "the measurements shown: one folder of docs/gpu, named by device and date"},
		{Name: "operands", Label: "Operands", Kind: ParamChoice, Options: []string{"both", "positive", "signed"}, Default: "both",
			Help: "the accumulation study's operands: |N(0,1)| (a sum that only grows), N(0,1) (mixed signs), or both"},
	}
	// The layer control appears once a shipped run has timed the layer.
	if layers := gpuLayerOptions(s.runs); len(layers) > 1 {
		params = append(params, Param{Name: "layer", Label: "Layer shape", Kind: ParamChoice, Options: layers, Default: "largest",
			Help: "the linear layer's shape (tokens×in×out) of the plans' timeline"})
	}
	// Show comes last: the controls above it each change one panel, and
	// every panel is on screen until Show picks one.
	params = append(params, Param{Name: "focus", Label: "Show", Kind: ParamChoice, Options: focus, Default: gpuAll,
		Help: "every panel, or one of them at full size"})
	s.ps = newParamSet(params...)
	return s
}

// gpuLayerOptions are "largest" and every layer shape any run timed.
func gpuLayerOptions(runs []*gpu.Run) []string {
	out := []string{"largest"}
	for _, r := range runs {
		if r.Linear == nil {
			continue
		}
		for _, sh := range r.Linear.Shapes {
			if name := layerName(sh); !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

// layerName names a linear layer's shape, tokens×in×out.
func layerName(sh gpu.LinearShape) string { return fmt.Sprintf("%dx%dx%d", sh.Tokens, sh.In, sh.Out) }

// Set implements Scene.
func (s *gpuScene) Set(name, value string) error { return s.ps.setAndApply(name, value, s.compute) }

// Click implements Scene: the panels take no clicks.
func (s *gpuScene) Click(x, y, w, h int) bool { return false }

func (s *gpuScene) compute() error {
	key := s.ps.key("run", "layer")
	layer := s.ps.str("layer")
	if layer == "" {
		layer = "largest"
	}
	if key == s.key {
		return nil
	}
	if s.err != nil {
		return s.err
	}
	i := slices.IndexFunc(s.runs, func(r *gpu.Run) bool { return r.Name == s.ps.str("run") })
	if i < 0 {
		return fmt.Errorf("no shipped GPU run")
	}
	m, err := newGPUModel(s.runs[i], layer)
	if err != nil {
		return err
	}
	s.m, s.key = m, key
	return nil
}

// newGPUModel gathers what the scene shows of run; layer picks the linear
// layer's shape ("largest", or tokens×in×out).
func newGPUModel(run *gpu.Run, layer string) (gpuModel, error) {
	m := gpuModel{run: run}
	if b := run.Bench; b != nil {
		for _, p := range b.Products() {
			if p.FP8() > 0 && p.BF16.TFLOPS > 0 {
				m.products = append(m.products, p)
			}
		}
		slices.SortStableFunc(m.products, func(a, b gpu.Product) int { return cmp.Compare(work(a), work(b)) })
		m.kernels = b.Kernels()
		m.copy, m.hasCopy = b.Copy()
	}
	if a := run.Accum; a != nil {
		m.emulated = run.Emulated != nil
		for _, kind := range gpuKinds {
			for _, r := range a.Rows {
				if r.Operands != kind {
					continue
				}
				row := gpuAccumRow{kind: kind, k: r.K, on: r.On.Rel, off: r.Off.Rel, fast: math.NaN(), promoted: math.NaN()}
				if m.emulated {
					if e := run.Emulated.Row(kind, r.K); e != nil {
						row.fast, row.promoted = e.Fast.Rel, e.Promoted.Rel
					}
				}
				m.accum = append(m.accum, row)
			}
		}
		slices.SortStableFunc(m.accum, func(a, b gpuAccumRow) int {
			if a.kind != b.kind {
				return slices.Index(gpuKinds, a.kind) - slices.Index(gpuKinds, b.kind)
			}
			return a.k - b.k
		})
	}
	if l := run.Linear; l != nil && len(l.Shapes) > 0 {
		best := -1
		for i, sh := range l.Shapes {
			switch {
			case layer == layerName(sh):
				best = i
			case layer == "largest" && (best < 0 || linearWork(sh) > linearWork(l.Shapes[best])):
				best = i
			}
		}
		if best < 0 {
			return m, fmt.Errorf("run %s timed no linear layer of shape %s", run.Name, layer)
		}
		m.linear = &l.Shapes[best]
	}
	return m, nil
}

// work is a product's floating-point operations, 2·M·N·K.
func work(p gpu.Product) float64 { return 2 * float64(p.M) * float64(p.N) * float64(p.K) }

// linearWork is a layer shape's size, tokens·in·out.
func linearWork(sh gpu.LinearShape) float64 {
	return float64(sh.Tokens) * float64(sh.In) * float64(sh.Out)
}

// kindRows returns the accumulation rows of one operand kind, by K.
func (m *gpuModel) kindRows(kind string) []gpuAccumRow {
	var out []gpuAccumRow
	for _, r := range m.accum {
		if r.kind == kind {
			out = append(out, r)
		}
	}
	return out
}

// Render implements Scene.
func (s *gpuScene) render(dst *image.RGBA, d Display) error {
	err := s.compute()
	title, sub := "GPU measurements", "no shipped run"
	if err == nil {
		r := s.m.run
		sub = fmt.Sprintf("%s · CUDA driver %s", r.Info.Name, r.Info.DriverVersion())
		if v := r.Info.CUBLASLtRelease(); v != "" {
			sub += " · cuBLASLt " + v
		}
		sub += " · " + r.Date
	}
	st, body, berr := begin(dst, d, title, sub)
	if berr != nil {
		return berr
	}
	if err != nil {
		errorPanel(dst, body, st, err.Error())
		return nil
	}
	return s.draw(dst, st, body)
}

// Facts implements Scene.
func (s *gpuScene) Facts() map[string]string {
	if err := s.compute(); err != nil {
		return map[string]string{"error": err.Error()}
	}
	m := &s.m
	r := m.run
	f := map[string]string{
		"run":                r.Name,
		"date":               r.Date,
		"device":             r.Info.Name,
		"compute_capability": r.Info.ComputeCapability,
		"sms":                strconv.Itoa(r.Info.SMs),
		"driver":             r.Info.DriverVersion(),
		"cublaslt":           r.Info.CUBLASLtRelease(),
		"focus":              s.ps.str("focus"),
		"operands":           s.ps.str("operands"),
	}
	m.gemmFacts(f)
	m.kernelFacts(f)
	m.accumFacts(f)
	m.linearFacts(f)
	return f
}

// gemmFacts: the products' count, the largest and smallest by work with
// their TFLOPS and FP8/BF16 speed-up, the best speed-up, and how many
// shapes FP8 ran faster, slower or as fast at.
func (m *gpuModel) gemmFacts(f map[string]string) {
	f["gemm_shapes"] = strconv.Itoa(len(m.products))
	if len(m.products) == 0 {
		return
	}
	put := func(prefix string, p gpu.Product) {
		f[prefix] = p.Shape
		f[prefix+"_fp8_tflops"] = fact(p.FP8())
		f[prefix+"_bf16_tflops"] = fact(p.BF16.TFLOPS)
		f[prefix+"_speedup"] = fact(p.Speedup())
		f[prefix+"_gflop"] = fact(work(p) / 1e9)
	}
	put("gemm_largest", m.products[len(m.products)-1])
	put("gemm_smallest", m.products[0])
	best := m.products[0]
	counts := map[string]int{}
	for _, p := range m.products {
		if p.Speedup() > best.Speedup() {
			best = p
		}
		counts[speedWord(p.Speedup())]++
	}
	put("gemm_best", best)
	f["gemm_faster"] = strconv.Itoa(counts["faster"])
	f["gemm_slower"] = strconv.Itoa(counts["slower"])
	f["gemm_even"] = strconv.Itoa(counts["as fast"])
}

// speedWord judges a speed-up: "faster" from 1.1×, "slower" below 1/1.1,
// "as fast" between, the spread the run's repeated small products showed
// (BENCHMARKS.md: 0.76–1.93× for the same shapes in two runs).
func speedWord(x float64) string {
	switch {
	case x >= 1.1:
		return "faster"
	case x <= 1/1.1:
		return "slower"
	}
	return "as fast"
}

// kernelFacts: the copy's bandwidth and the kernels' shares of it, the
// best and worst, and the goals met and missed.
func (m *gpuModel) kernelFacts(f map[string]string) {
	f["kernels"] = strconv.Itoa(len(m.kernels))
	if m.hasCopy {
		f["copy_gbps"] = fact(m.copy.GBps)
	}
	if p := m.run.Info.PeakGBps; p > 0 {
		f["peak_gbps"] = fact(p)
		if m.hasCopy {
			f["copy_of_peak"] = fact(m.copy.GBps / p)
		}
	}
	if len(m.kernels) == 0 {
		return
	}
	lo, hi := m.kernels[0], m.kernels[0]
	met, missed := 0, 0
	for _, k := range m.kernels {
		if k.OfCopy < lo.OfCopy {
			lo = k
		}
		if k.OfCopy > hi.OfCopy {
			hi = k
		}
		if k.Goal > 0 {
			if k.OfCopy >= k.Goal {
				met++
			} else {
				missed++
			}
		}
	}
	f["kernel_best"], f["kernel_best_of_copy"] = hi.Name, fact(hi.OfCopy)
	f["kernel_worst"], f["kernel_worst_of_copy"] = lo.Name, fact(lo.OfCopy)
	f["kernel_goals_met"], f["kernel_goals_missed"] = strconv.Itoa(met), strconv.Itoa(missed)
}

// accumFacts: per operand kind, the K measured, the device's largest error
// with fast accumulation on and its K, its error at the largest K (and
// whether it stopped growing there), its error off, and the emulator's
// largest factor from the device on either side.
func (m *gpuModel) accumFacts(f map[string]string) {
	f["accum_rows"] = strconv.Itoa(len(m.accum))
	if len(m.accum) == 0 {
		return
	}
	f["accum_emulated"] = strconv.FormatBool(m.emulated)
	if e := m.run.Emulated; e != nil {
		f["accum_fast_model"] = e.Fast.String()
		f["accum_promoted_model"] = e.Promoted.String()
		f["accum_fast_split_from"] = strconv.Itoa(e.Fast.SplitFrom)
		f["accum_recipes"] = strings.Join(recipesUsing(e.Fast, e.Promoted), ",")
		f["accum_promoted_every"] = strconv.Itoa(e.Promoted.PromoteEvery)
	}
	worstOn, worstOff := 1.0, 1.0
	for _, kind := range gpuKinds {
		rows := m.kindRows(kind)
		if len(rows) == 0 {
			continue
		}
		p := "accum_" + kind + "_"
		peak := rows[0]
		offLo, offHi := rows[0].off, rows[0].off
		for _, r := range rows {
			if r.on > peak.on {
				peak = r
			}
			offLo, offHi = min(offLo, r.off), max(offHi, r.off)
			worstOn = max(worstOn, factor(r.fast, r.on))
			worstOff = max(worstOff, factor(r.promoted, r.off))
		}
		last := rows[len(rows)-1]
		f[p+"k_min"], f[p+"k_max"] = strconv.Itoa(rows[0].k), strconv.Itoa(last.k)
		f[p+"on_min_k"] = fact(rows[0].on)
		f[p+"on_peak"], f[p+"on_peak_k"] = fact(peak.on), strconv.Itoa(peak.k)
		f[p+"on_max_k"] = fact(last.on)
		f[p+"stops_growing"] = strconv.FormatBool(peak.k < last.k)
		f[p+"off_lo"], f[p+"off_hi"] = fact(offLo), fact(offHi)
		if m.emulated {
			f[p+"fast_max_k"], f[p+"promoted_max_k"] = fact(last.fast), fact(last.promoted)
		}
	}
	if m.emulated {
		f["accum_fit_worst_on"], f["accum_fit_worst_off"] = fact(worstOn), fact(worstOff)
	}
}

// recipesUsing lists the training lab's named recipes with a product
// accumulated by one of accs.
func recipesUsing(accs ...scaling.Accumulator) []string {
	var out []string
	for _, name := range train.RecipeNames() {
		r, err := train.RecipeByName(name)
		if err != nil {
			continue
		}
		for _, p := range []train.Product{r.Forward, r.InputGrad, r.WeightGrad} {
			if p.Accumulator != nil && slices.Contains(accs, *p.Accumulator) {
				out = append(out, name)
				break
			}
		}
	}
	return out
}

// factor is the larger of a/b and b/a (1 when equal; +Inf when one is 0
// or NaN).
func factor(a, b float64) float64 {
	if !(a > 0) || !(b > 0) {
		return math.Inf(1)
	}
	return math.Max(a/b, b/a)
}

// linearFacts: the chosen layer shape, each plan's time, its GEMMs'
// share, and the transposes' share of the naive plan.
func (m *gpuModel) linearFacts(f map[string]string) {
	if m.linear == nil {
		return
	}
	sh := m.linear
	f["layer"] = layerName(*sh)
	for _, p := range sh.Plans {
		k := "layer_" + p.Plan
		total := p.StepMillis()
		f[k+"_ms"] = fact(total)
		if total > 0 {
			f[k+"_gemm_share"] = fact(p.RoleMillis(gpu.RoleGEMM) / total)
			f[k+"_transpose_share"] = fact(p.RoleMillis(gpu.RoleTranspose) / total)
		}
	}
}

// gpuPanels lists the panels of the focus: every panel the run has data
// for, or the one chosen.
func (s *gpuScene) gpuPanels() []string {
	all := []string{gpuGEMM, gpuBandwidth, gpuAccum}
	if s.m.linear != nil {
		all = append(all, gpuLinear)
	}
	if f := s.ps.str("focus"); f != gpuAll {
		return []string{f}
	}
	return all
}

// gpuColors of the scene: FP8 and BF16; the device and the emulator.
var (
	gpuFP8Color      = plot.Vermillion
	gpuBF16Color     = plot.Blue
	gpuOnColor       = plot.Vermillion
	gpuOffColor      = plot.Hex(0x666666)
	gpuFastColor     = plot.Blue
	gpuPromotedColor = plot.BluishGreen
)
