package main

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/fp8lab/fp8lab/internal/cmdline"
	"github.com/fp8lab/fp8lab/internal/outfile"
	"github.com/fp8lab/fp8lab/internal/safetext"
	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/fp8lab/fp8lab/train"
	"github.com/fp8lab/fp8lab/train/compare"
	"github.com/fp8lab/fp8lab/train/records"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// loadAverage returns the 1-minute load average where Linux tells it, or "".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// machine describes the computer: the CPU model where Linux tells it, the
// number of cores, the operating system and architecture.
func machine() string {
	model := ""
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v) + ", "
				break
			}
		}
	}
	return fmt.Sprintf("%s%d cores (GOMAXPROCS %d), %s/%s, %s", model, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, runtime.Version())
}

func runCompare(ctx context.Context, f *trainFlags, names []string, cfg train.Config, args []string, stdout, stderr io.Writer) error {
	if len(names) == 0 {
		return cmdline.Usagef("--compare needs recipe names")
	}
	plan := compare.Plan{Config: cfg, Steps: f.steps, Workers: f.workers, Spike: f.spikeAt}
	for _, n := range names {
		r, err := train.RecipeByName(n)
		if err != nil {
			return cmdline.Usagef("%v", err)
		}
		plan.Recipes = append(plan.Recipes, r)
	}
	for k := range f.seeds {
		plan.Seeds = append(plan.Seeds, f.seed+uint64(k))
	}
	data, err := f.loadCorpus()
	if err != nil {
		return err
	}
	plan.Data = data
	if err := plan.Check(); err != nil {
		return cmdline.Usagef("%v", err)
	}
	pr := newProgress(stderr, f.progress, len(plan.Recipes)*len(plan.Seeds), f.steps, cfg.TokensPerStep())
	plan.OnStep = pr.step
	start, cpu0, load0 := time.Now(), testenv.ProcessCPU(), loadAverage()
	set, err := compare.Compare(ctx, plan)
	pr.done()
	if err != nil {
		return err
	}
	set.Command = "fp8lab train " + strings.Join(args, " ")
	sum, err := compare.Summarize(set, "")
	if err != nil {
		return err
	}
	if set.Stopped && !finite(sum) {
		sum = nil // too few finished runs for a table (JSON has no NaN)
	}
	if f.png != "" && sum != nil {
		img, err := drawCurves(set, sum)
		if err != nil {
			return err
		}
		if err := outfile.Write(f.png, stdout, img); err != nil {
			return err
		}
	}
	// The record: every run and the table computed from them.
	rec := &records.Record{Set: *set, Summary: sum, Date: start.UTC().Format(time.RFC3339),
		Machine: machine(), Seconds: time.Since(start).Seconds(), CPUSeconds: (testenv.ProcessCPU() - cpu0).Seconds()}
	if load1 := loadAverage(); load0 != "" && load1 != "" {
		rec.Load = load0 + " before, " + load1 + " after"
	}
	text := func(w io.Writer) error {
		fmt.Fprintf(w, "config %s (%d parameters), %d steps, seeds %s, the same initial weights and data order per seed\n",
			cfg.Name, cfg.NumParams(), f.steps, seedList(set.Seeds))
		fmt.Fprintf(w, "corpus: %s\n", safetext.Text(set.Corpus))
		if sp := set.Spike; sp != nil {
			fmt.Fprintf(w, "activation spike: every block's GELU output × %g at step %d\n", sp.Factor, sp.Step)
		}
		if set.Stopped {
			fmt.Fprintln(w, "stopped early: only the runs that finished are in the table")
		}
		fmt.Fprintln(w)
		if sum == nil {
			fmt.Fprintln(w, "too few runs finished for a table")
			return nil
		}
		if err := sum.WriteTable(w); err != nil {
			return err
		}
		fmt.Fprintf(w, "\nloss in nats/byte at the last step; perplexity per byte, exp(loss); gap: mean loss against %s's;\n"+
			"reaches: first evaluated step where the mean loss is at most %s's final one; overflow/underflow: elements, summed over layers, products, steps and seeds\n",
			sum.Baseline, sum.Baseline)
		return nil
	}
	if err := f.emit(stdout, rec, text); err != nil {
		return err
	}
	if set.Stopped {
		return fmt.Errorf("interrupted: the table holds the runs that finished")
	}
	return nil
}

// finite reports whether every number of the summary is finite: a recipe
// without a finished run has NaNs.
func finite(sum *compare.Summary) bool {
	for _, r := range sum.Rows {
		for _, v := range []float64{r.ValMean, r.ValStd, r.ValMin, r.ValMax, r.PPL, r.PPLMin, r.PPLMax, r.GapPct, r.PPLGapPct, r.Seconds} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
	}
	return true
}

func seedList(seeds []uint64) string {
	s := make([]string, len(seeds))
	for i, v := range seeds {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, ",")
}

// drawCurves plots each recipe's validation loss, averaged over the seeds,
// against the step, as a PNG.
func drawCurves(set *compare.Set, sum *compare.Summary) ([]byte, error) {
	th := plot.LightTheme()
	img := plot.NewCanvas(1100, 620, th.Background)
	lo, hi := math.Inf(1), math.Inf(-1)
	var last float64
	for _, r := range sum.Rows {
		for k, p := range r.Curve {
			if k > 0 || len(r.Curve) == 1 { // leave the untrained loss (≈5.5) out of the range
				lo, hi = min(lo, p.Loss), max(hi, p.Loss)
			}
			last = max(last, float64(p.Step))
		}
	}
	if math.IsInf(lo, 0) {
		return nil, fmt.Errorf("no finished run to draw")
	}
	pad := max((hi-lo)*0.05, 1e-3)
	x, err := plot.NewLinear(0, max(last, 1))
	if err != nil {
		return nil, err
	}
	y, err := plot.NewLinear(lo-pad, hi+pad)
	if err != nil {
		return nil, err
	}
	title := fmt.Sprintf("validation loss, mean over %d seeds (%s config, %d steps)", len(set.Seeds), set.Config.Name, set.Steps)
	ax, err := plot.NewAxes(img.Rect, x, y, plot.AxesOptions{Title: title, XLabel: "step", YLabel: "validation loss (nats/byte)", Theme: &th})
	if err != nil {
		return nil, err
	}
	ax.Draw(img)
	var legend []plot.LegendEntry
	dashes := [][]float64{nil, {8, 4}, {2, 3}}
	for i, r := range sum.Rows {
		var xs, ys []float64
		for _, p := range r.Curve {
			xs = append(xs, float64(p.Step))
			ys = append(ys, p.Loss)
		}
		st := plot.LineStyle{Color: plot.Categorical(i % 8), Width: 2, Dash: dashes[i/8%3]}
		if err := ax.Line(img, xs, ys, st); err != nil {
			return nil, err
		}
		legend = append(legend, plot.LegendEntry{Label: r.Recipe, Color: st.Color, Width: st.Width, Dash: st.Dash})
	}
	if _, err := ax.Legend(img, plot.TopRight, legend); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
