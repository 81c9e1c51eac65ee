package parity

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/native"
	"github.com/fp8lab/fp8lab/scaling"
)

// Config configures Run.
type Config struct {
	// Seed seeds every input tensor.
	Seed uint64
	// Short runs smaller tensors and fewer cases.
	Short bool
	// Codecs lists the device codecs to check; nil means software, plus
	// hardware when the device under test reports HardwareFP8.
	Codecs []native.Codec
	// Filter, when not empty, runs only the cases whose name contains it.
	Filter string
	// Log, when not nil, receives one line per case as it completes.
	Log io.Writer
}

// Result is the outcome of one case: Status is "ok", "FAIL" or "skip".
// A case is skipped only where the device under test answers
// native.ErrUnsupported and the case is one of the known limits of a GPU
// (see quantizeSkip and skipGEMMShape); any other ErrUnsupported fails the
// case.
type Result struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Detail string `json:"detail"`
}

// Report collects the results of Run.
type Report struct {
	Ref     native.Info `json:"reference"`
	DUT     native.Info `json:"device_under_test"`
	Results []Result    `json:"results"`
	OK      int         `json:"ok"`
	Failed  int         `json:"failed"`
	Skipped int         `json:"skipped"`
}

// Err returns an error naming the failed cases, or nil when none failed.
func (r *Report) Err() error {
	if r == nil || r.Failed == 0 {
		return nil
	}
	var names []string
	for _, c := range r.Results {
		if c.Status == "FAIL" && len(names) < 5 {
			names = append(names, c.Name)
		}
	}
	return fmt.Errorf("parity: %d of %d cases differ (%s ...)", r.Failed, len(r.Results), strings.Join(names, "; "))
}

// runState is the state of one Run.
type runState struct {
	ref, dut native.Backend
	cfg      Config
	rep      *Report
}

func (p *runState) wants(name string) bool {
	return p.cfg.Filter == "" || strings.Contains(name, p.cfg.Filter)
}

func (p *runState) record(name, status, detail string) {
	p.rep.Results = append(p.rep.Results, Result{Name: name, Status: status, Detail: detail})
	switch status {
	case "ok":
		p.rep.OK++
	case "FAIL":
		p.rep.Failed++
	default:
		p.rep.Skipped++
	}
	if p.cfg.Log != nil {
		fmt.Fprintf(p.cfg.Log, "%-4s  %s: %s\n", status, name, detail)
	}
}

// Reasons a device may answer ErrUnsupported without failing Run: the
// limits of the CUDA backend that native/README.md lists.
const skipGEMMShape = "the GPU's FP8 GEMM needs M, N and K multiples of 16"

// quantizeSkip returns why a device may leave quantizing with g
// unsupported (the kinds scaling's table says the GPU does not quantize),
// or "" when an ErrUnsupported answer must fail the case.
func quantizeSkip(g scaling.Granularity) string {
	if g.GPUQuantizes() {
		return ""
	}
	return "the GPU does not quantize " + g.Label() + " granularities"
}

// outcome records a case from the two backends' errors and, when both
// succeeded, the comparison's verdict (empty: identical). An ErrUnsupported
// from the device is a skip when expect names why, and a failure otherwise.
func (p *runState) outcome(name string, expect string, refErr, dutErr error, compare func() (string, string)) {
	switch {
	case dutErr != nil && errors.Is(dutErr, native.ErrUnsupported) && expect != "":
		p.record(name, "skip", expect+": "+dutErr.Error())
	case dutErr != nil && errors.Is(dutErr, native.ErrUnsupported):
		p.record(name, "FAIL", "unexpected skip: "+dutErr.Error())
	case refErr != nil && dutErr != nil:
		if s := commonSentinel(refErr, dutErr); s != nil {
			p.record(name, "ok", "both reject the input: "+s.Error())
		} else {
			p.record(name, "FAIL", fmt.Sprintf("different errors: reference %v; device %v", refErr, dutErr))
		}
	case refErr != nil:
		p.record(name, "FAIL", fmt.Sprintf("reference fails (%v), device succeeds", refErr))
	case dutErr != nil:
		p.record(name, "FAIL", fmt.Sprintf("device fails: %v", dutErr))
	default:
		if diff, summary := compare(); diff != "" {
			p.record(name, "FAIL", diff)
		} else {
			p.record(name, "ok", summary)
		}
	}
}

// commonSentinel returns the first sentinel error both errors wrap.
func commonSentinel(a, b error) error {
	for _, s := range []error{scaling.ErrNonFinite, scaling.ErrShape, scaling.ErrFormat, scaling.ErrGranularity,
		scaling.ErrOptions, scaling.ErrValue, native.ErrInvalidArgument, fp8.ErrNaN} {
		if errors.Is(a, s) && errors.Is(b, s) {
			return s
		}
	}
	return nil
}

// Run runs every native.Backend operation on ref (the CPU backend) and
// dut (the device under test) with the same seeded inputs — NaN, ±Inf,
// subnormals, ties, outliers and odd sizes included — and compares the
// results. Cases that dut does not support (native.ErrUnsupported) are
// skipped, not failed. The returned error reports a setup failure only;
// mismatches are in the report (see Report.Err).
func Run(ref, dut native.Backend, cfg Config) (*Report, error) {
	if ref == nil || dut == nil {
		return nil, fmt.Errorf("%w: nil backend", native.ErrInvalidArgument)
	}
	p := &runState{ref: ref, dut: dut, cfg: cfg, rep: &Report{Ref: ref.Info(), DUT: dut.Info()}}
	if p.cfg.Codecs == nil {
		p.cfg.Codecs = []native.Codec{native.CodecSoftware}
		if p.rep.DUT.HardwareFP8 {
			p.cfg.Codecs = append(p.cfg.Codecs, native.CodecHardware)
		}
	}
	steps := []func() error{p.amax, p.quantize, p.givenScales, p.dequantize, p.fwht, p.scaledMatMul, p.matMulBF16}
	for _, step := range steps {
		if err := step(); err != nil {
			return p.rep, err
		}
	}
	return p.rep, nil
}

// bigShape has 12.6M elements, three times what one grid of the GPU's
// elementwise kernels covers on an H100 (132 SMs × 32 blocks × 256 threads
// × 4 elements), so that every grid-stride loop runs more than once.
var bigShape = [2]int{1536, 8192}

// shapes returns the tensor shapes of the elementwise cases: odd sizes,
// partial blocks, rows whose length is not a multiple of 4, aligned ones
// and, unless Short, bigShape.
func (p *runState) shapes() [][2]int {
	s := [][2]int{{1, 1}, {3, 5}, {37, 300}, {130, 257}, {256, 512}}
	if !p.cfg.Short {
		s = append(s, [2]int{129, 4096}, [2]int{1, 65536}, bigShape)
	}
	return s
}

// codecsFor returns the device codecs a quantize case runs with. Stochastic
// rounding has no hardware conversion before sm_100, so the device runs the
// software codec whatever the codec asked: such a case runs once, labelled
// codec=software, rather than twice under two names for one code path.
func (p *runState) codecsFor(o native.QuantizeOptions) []native.Codec {
	if o.Stochastic != nil && len(p.cfg.Codecs) > 0 {
		return []native.Codec{native.CodecSoftware}
	}
	return p.cfg.Codecs
}

// granularities returns the granularities checked, with the GPU's fused
// (tile1x128, mx, tile1x64) and generic (tile1x100, block32x64) paths, and
// those the GPU does not quantize (col, nvfp4, tile128x1), whose quantize
// cases a GPU skips (ErrUnsupported).
func granularities() []scaling.Granularity {
	return append(scaling.Granularities(), scaling.Tile(64), scaling.Tile(100), scaling.Block(32, 64))
}

func (p *runState) amax() error {
	for _, sh := range p.shapes() {
		for _, kind := range []InputKind{InputNormal, InputSpecial} {
			t, err := MakeInput(sh[0], sh[1], kind, p.cfg.Seed)
			if err != nil {
				return err
			}
			for _, g := range granularities() {
				name := fmt.Sprintf("amax %s %dx%d %s", g, sh[0], sh[1], kind)
				if !p.wants(name) {
					continue
				}
				r, refErr := p.ref.Amax(t, g)
				d, dutErr := p.dut.Amax(t, g)
				p.outcome(name, "", refErr, dutErr, func() (string, string) {
					if r.Rows != d.Rows || r.Cols != d.Cols {
						return fmt.Sprintf("grid %d×%d, device %d×%d", r.Rows, r.Cols, d.Rows, d.Cols), ""
					}
					if i := diffFloats(r.Data, d.Data); i >= 0 {
						return fmt.Sprintf("block %d: amax %g (%#08x), device %g (%#08x)", i, r.Data[i], math.Float32bits(r.Data[i]), d.Data[i], math.Float32bits(d.Data[i])), ""
					}
					return "", fmt.Sprintf("%d amaxes identical", len(r.Data))
				})
			}
		}
	}
	return nil
}

// quantCase is one rounding configuration of the quantize cases.
type quantCase struct {
	label string
	input InputKind
	opts  native.QuantizeOptions
}

func (p *runState) quantCases(g scaling.Granularity, caseNo int) []quantCase {
	seed := p.cfg.Seed + uint64(caseNo)
	rule := []scaling.ScaleRule{{}, {Margin: 1}, {Eps: 1e-3}, {Pow2: scaling.Pow2Up}}[caseNo%4]
	mxr := fp8.ScaleRounding(caseNo % 3)
	base := native.QuantizeOptions{Rule: rule}
	tie := native.QuantizeOptions{Rule: scaling.ScaleRule{Pow2: scaling.Pow2Down}}
	if !g.FloatScales() {
		base = native.QuantizeOptions{MXRounding: mxr}
		tie = native.QuantizeOptions{}
		if g.Scales() != scaling.ScaleE8M0 {
			base.MXRounding = 0
		}
	}
	with := func(o native.QuantizeOptions, s *native.Stochastic) native.QuantizeOptions {
		o.Stochastic = s
		return o
	}
	return []quantCase{
		{"nearest", InputNormal, base},
		{"nearest", InputWide, base},
		{"nearest", InputTies, tie},
		{"stochastic32", InputNormal, with(base, &native.Stochastic{Seed: seed, Stream: 7, Bits: 32})},
		{"stochastic3", InputWide, with(base, &native.Stochastic{Seed: seed, Stream: 1 << 40, Bits: 3})},
		{"stochastic16", InputTies, with(tie, &native.Stochastic{Seed: seed ^ 0xABCDEF, Stream: 3, Bits: 16})},
		{"nearest", InputSpecial, base}, // current scaling must reject NaN/Inf on both
	}
}

func (p *runState) quantize() error {
	n := 0
	for _, sh := range p.shapes() {
		for _, g := range granularities() {
			for _, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2} {
				fmtName := f.Name()
				if e := g.ElementFormat(); e != nil {
					if f != fp8.E4M3FN {
						continue
					}
					f, fmtName = e, e.Name()
				}
				for _, qc := range p.quantCases(g, n) {
					n++
					if sh == bigShape && qc.input != InputNormal {
						continue // the big shape is for the grid-stride loops: one input kind is enough
					}
					base := fmt.Sprintf("quantize %s %s %dx%d %s %s", fmtName, g, sh[0], sh[1], qc.input, qc.label)
					if !p.wantsAny(base, qc.opts) {
						continue
					}
					t, err := MakeInput(sh[0], sh[1], qc.input, p.cfg.Seed+uint64(n))
					if err != nil {
						return err
					}
					r, refErr := p.ref.Quantize(t, f, g, qc.opts)
					for _, c := range p.codecsFor(qc.opts) {
						name := base + " codec=" + c.String()
						if !p.wants(name) {
							continue
						}
						o := qc.opts
						o.Codec = c
						d, dutErr := p.dut.Quantize(t, f, g, o)
						p.outcome(name, quantizeSkip(g), refErr, dutErr, func() (string, string) { return compareQuantized(t, r, d) })
					}
				}
			}
		}
	}
	return nil
}

// wantsAny reports whether some codec variant of base, quantized with o,
// passes the filter.
func (p *runState) wantsAny(base string, o native.QuantizeOptions) bool {
	for _, c := range p.codecsFor(o) {
		if p.wants(base + " codec=" + c.String()) {
			return true
		}
	}
	return false
}

// givenScales checks QuantizeWithScales, where NaN, ±Inf and overflow reach
// the codec.
func (p *runState) givenScales() error {
	for _, sh := range p.shapes() {
		for _, g := range []scaling.Granularity{scaling.PerTensor, scaling.PerRow, scaling.Tile1x128, scaling.Block128, scaling.Tile(64)} {
			for _, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2} {
				base := fmt.Sprintf("quantize-scales %s %s %dx%d special", f.Name(), g, sh[0], sh[1])
				if !p.wantsAny(base+" nearest", native.QuantizeOptions{}) && !p.wantsAny(base+" stochastic32", native.QuantizeOptions{Stochastic: &native.Stochastic{}}) {
					continue
				}
				t, err := MakeInput(sh[0], sh[1], InputSpecial, p.cfg.Seed+99)
				if err != nil {
					return err
				}
				grid, err := scaling.AmaxGrid(t, g)
				if err != nil {
					return err
				}
				scales := make([]float32, grid.Len())
				for i := range scales {
					scales[i] = []float32{1, 0.75, 3.1, 0x1p-20, 0x1p10, 1e-30}[i%6]
				}
				for _, stoch := range []*native.Stochastic{nil, {Seed: p.cfg.Seed, Stream: 11, Bits: 32}} {
					opts := native.QuantizeOptions{Scales: scales, Stochastic: stoch}
					r, refErr := p.ref.Quantize(t, f, g, opts)
					for _, c := range p.codecsFor(opts) {
						label := "nearest"
						if stoch != nil {
							label = "stochastic32"
						}
						name := base + " " + label + " codec=" + c.String()
						if !p.wants(name) {
							continue
						}
						opts.Codec = c
						d, dutErr := p.dut.Quantize(t, f, g, opts)
						p.outcome(name, "", refErr, dutErr, func() (string, string) { return compareQuantized(t, r, d) })
					}
				}
			}
		}
	}
	return nil
}

func (p *runState) dequantize() error {
	for _, sh := range p.shapes() {
		for _, g := range granularities() {
			for _, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2, fp8.E2M1} {
				if e := g.ElementFormat(); e != nil && f != e || e == nil && f == fp8.E2M1 {
					continue // the recipe's own element format, and E2M1 only there
				}
				name := fmt.Sprintf("dequantize %s %s %dx%d", f.Name(), g, sh[0], sh[1])
				if !p.wants(name) {
					continue
				}
				t, err := MakeInput(sh[0], sh[1], InputWide, p.cfg.Seed+5)
				if err != nil {
					return err
				}
				q, err := native.NewCPU().Quantize(t, f, g, native.QuantizeOptions{})
				if err != nil {
					return fmt.Errorf("parity: preparing %s: %w", name, err)
				}
				r, refErr := p.ref.Dequantize(q)
				d, dutErr := p.dut.Dequantize(q)
				p.outcome(name, "", refErr, dutErr, func() (string, string) { return compareTensors(r, d, "element") })
			}
		}
	}
	return nil
}

// bigFWHT is the element count of the largest Hadamard cases (2^24): more
// than one grid of the GPU's shared-memory and global passes.
const bigFWHT = 1 << 24

func (p *runState) fwht() error {
	blocks := []int{1, 2, 4, 8, 16, 32, 128, 1024, 4096, 8192, 32768}
	for _, b := range blocks {
		counts := []int{1, 3, 33}
		if b >= 128 {
			counts = append(counts, bigFWHT/b) // beyond one grid of the GPU's kernels
		}
		for _, count := range counts {
			if count*b > 1<<20 && count*b != bigFWHT || p.cfg.Short && count*b > 1<<17 {
				continue
			}
			name := fmt.Sprintf("fwht block %d x %d", b, count)
			if !p.wants(name) {
				continue
			}
			t, err := MakeInput(count, b, InputSpecial, p.cfg.Seed+uint64(b))
			if err != nil {
				return err
			}
			if b >= 64 { // only block 0 keeps NaN, ±Inf and 3e38, so that most values stay finite
				for i := b; i < len(t.Data); i++ {
					if v := math.Abs(float64(t.Data[i])); !(v < 1e30) {
						t.Data[i] = 1
					}
				}
			}
			r, d := t.Clone(), t.Clone()
			refErr := p.ref.FWHT(r.Data, b)
			dutErr := p.dut.FWHT(d.Data, b)
			p.outcome(name, "", refErr, dutErr, func() (string, string) { return compareTensors(r, d, "element") })
		}
	}
	return nil
}

// gemmShapes returns (M, K, N) triples; the last is not a multiple of 16
// (the GPU's FP8 path skips it).
func (p *runState) gemmShapes() [][3]int {
	s := [][3]int{{16, 16, 16}, {64, 128, 48}, {128, 256, 192}, {20, 36, 24}}
	if !p.cfg.Short {
		s = append(s, [3]int{256, 1024, 384})
	}
	return s
}

// productPair is the operands' formats and granularities of one scaled
// FP8 product case.
type productPair struct {
	fa, fb *fp8.Format
	ga, gb scaling.Granularity
}

// productPairs are the FP8 products Run and Dump check: what the GPU's
// cuBLASLt path takes (tensor × tensor, E4M3FN × E5M2, row × column).
var productPairs = []productPair{
	{fp8.E4M3FN, fp8.E4M3FN, scaling.PerTensor, scaling.PerTensor},
	{fp8.E4M3FN, fp8.E5M2, scaling.PerTensor, scaling.PerTensor},
	{fp8.E4M3FN, fp8.E4M3FN, scaling.PerRow, scaling.PerCol},
}

func (p *runState) scaledMatMul() error {
	for _, sh := range p.gemmShapes() {
		for _, pr := range productPairs {
			for _, out := range []native.Output{native.OutputFloat32, native.OutputBF16} {
				name := fmt.Sprintf("scaled-matmul %s(%s)x%s(%s) %dx%dx%d -> %s", pr.fa.Name(), pr.ga, pr.fb.Name(), pr.gb, sh[0], sh[1], sh[2], out)
				if !p.wants(name) {
					continue
				}
				a, err := MakeInput(sh[0], sh[1], InputNormal, p.cfg.Seed+21)
				if err != nil {
					return err
				}
				b, err := MakeInput(sh[1], sh[2], InputNormal, p.cfg.Seed+22)
				if err != nil {
					return err
				}
				cpu := native.NewCPU()
				qa, err := cpu.Quantize(a, pr.fa, pr.ga, native.QuantizeOptions{})
				if err != nil {
					return err
				}
				qb, err := cpu.Quantize(b, pr.fb, pr.gb, native.QuantizeOptions{})
				if err != nil {
					return err
				}
				r, refErr := p.ref.ScaledMatMul(qa, qb, out)
				d, dutErr := p.dut.ScaledMatMul(qa, qb, out)
				skip := ""
				if sh[0]%16 != 0 || sh[1]%16 != 0 || sh[2]%16 != 0 {
					skip = skipGEMMShape
				}
				p.outcome(name, skip, refErr, dutErr, func() (string, string) {
					da, err1 := qa.Dequantize()
					db, err2 := qb.Dequantize()
					if err := errors.Join(err1, err2); err != nil {
						return err.Error(), ""
					}
					return compareProduct(da, db, r, d, native.GEMMTolFP8, out)
				})
			}
		}
	}
	return nil
}

func (p *runState) matMulBF16() error {
	for _, sh := range p.gemmShapes() {
		for _, out := range []native.Output{native.OutputFloat32, native.OutputBF16} {
			name := fmt.Sprintf("matmul-bf16 %dx%dx%d -> %s", sh[0], sh[1], sh[2], out)
			if !p.wants(name) {
				continue
			}
			a, err := MakeInput(sh[0], sh[1], InputNormal, p.cfg.Seed+31)
			if err != nil {
				return err
			}
			b, err := MakeInput(sh[1], sh[2], InputNormal, p.cfg.Seed+32)
			if err != nil {
				return err
			}
			r, refErr := p.ref.MatMulBF16(a, b, out)
			d, dutErr := p.dut.MatMulBF16(a, b, out)
			p.outcome(name, "", refErr, dutErr, func() (string, string) {
				return compareProduct(native.ToBF16(a), native.ToBF16(b), r, d, native.GEMMTolBF16, out)
			})
		}
	}
	return nil
}
