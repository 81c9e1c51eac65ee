package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
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
		r, err := recipeArg(n)
		if err != nil {
			return err
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
			fmt.Fprintf(w, "activation spike: every block's GELU output × %g %s\n", sp.Factor, spikeWhen(*sp))
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
			"reaches: first evaluated step where the mean loss is at most %s's final one; overflow/underflow: elements, summed over layers, products, steps and seeds;\n"+
			"against %s: %s or %s when the gap is at least %.1f%% and larger than its spread over the seeds (each seed's gap alone), else %s (compare.Judge)\n",
			sum.Baseline, sum.Baseline, sum.Baseline, compare.Better, compare.Worse, compare.MinEffectPct, compare.NoEffect)
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
// against the step, and below it each recipe's gap to the baseline in
// percent at every evaluated step: the curves of recipes that differ by
// tenths of a percent overlap above and separate below. A PNG.
func drawCurves(set *compare.Set, sum *compare.Summary) ([]byte, error) {
	th := plot.LightTheme()
	img := plot.NewCanvas(1100, 860, th.Background)
	top, bottom := image.Rect(0, 0, 1100, 580), image.Rect(0, 580, 1100, 860)
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
	ax, err := plot.NewAxes(top, x, y, plot.AxesOptions{Title: title, XLabel: "step", YLabel: "validation loss (nats/byte)", Theme: &th})
	if err != nil {
		return nil, err
	}
	ax.Draw(img)
	var legend []plot.LegendEntry
	dashes := [][]float64{nil, {8, 4}, {2, 3}}
	styles := map[string]plot.LineStyle{}
	for i, r := range sum.Rows {
		var xs, ys []float64
		for _, p := range r.Curve {
			xs = append(xs, float64(p.Step))
			ys = append(ys, p.Loss)
		}
		st := plot.LineStyle{Color: plot.Categorical(i % 8), Width: 2, Dash: dashes[i/8%3]}
		styles[r.Recipe] = st
		label := r.Recipe
		if r.Diverged > 0 {
			label += fmt.Sprintf(" (%d stopped by Inf/NaN, the first at step %d)", r.Diverged, r.DivergedAt)
		}
		legend = append(legend, plot.LegendEntry{Label: label, Color: st.Color, Width: st.Width, Dash: st.Dash})
		if len(xs) == 0 {
			continue // no finished run
		}
		if err := ax.Line(img, xs, ys, st); err != nil {
			return nil, err
		}
	}
	if sp := set.Spike; sp != nil {
		ax.VBand(img, float64(sp.Step)-0.5, float64(sp.Step+sp.Steps())-0.5, color.RGBA{}, fmt.Sprintf("spike ×%g", sp.Factor))
	}
	if _, err := ax.Legend(img, plot.TopRight, legend); err != nil {
		return nil, err
	}
	if err := drawGaps(img, bottom, th, x, sum, styles); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// drawGaps draws each recipe's mean validation loss against the
// baseline's, in percent, at every evaluated step after the first (all
// recipes start from the same weights: 0 there), zoomed to the gaps.
func drawGaps(img *image.RGBA, r image.Rectangle, th plot.Theme, x plot.Scale, sum *compare.Summary, styles map[string]plot.LineStyle) error {
	base := sum.Row(sum.Baseline)
	if base == nil || len(base.Curve) < 2 {
		return nil
	}
	gaps := map[string][]float64{}
	lo, hi := 0.0, 0.0
	for _, row := range sum.Rows {
		if row.Recipe == sum.Baseline || len(row.Curve) != len(base.Curve) {
			continue
		}
		g := make([]float64, len(row.Curve))
		for k, p := range row.Curve {
			g[k] = 100 * (p.Loss - base.Curve[k].Loss) / base.Curve[k].Loss
			if k > 0 {
				lo, hi = min(lo, g[k]), max(hi, g[k])
			}
		}
		gaps[row.Recipe] = g
	}
	if len(gaps) == 0 {
		return nil
	}
	// Always show the band within which the verdict rule sees no effect.
	lo, hi = min(lo, -compare.MinEffectPct), max(hi, compare.MinEffectPct)
	pad := max((hi-lo)*0.08, 0.05)
	y, err := plot.NewLinear(lo-pad, hi+pad)
	if err != nil {
		return err
	}
	ys := y.WithTickCount(5).WithFormat(func(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) + "%" })
	ax, err := plot.NewAxes(r, x, ys, plot.AxesOptions{Title: "gap to " + sum.Baseline + " (mean over the seeds), zoomed",
		XLabel: "step", YLabel: "% of " + sum.Baseline + "'s loss", Theme: &th})
	if err != nil {
		return err
	}
	ax.Draw(img)
	ax.HBand(img, -compare.MinEffectPct, compare.MinEffectPct, plot.WithAlpha(th.Grid, 0xa0), "")
	xs := make([]float64, len(base.Curve)-1)
	for k := range xs {
		xs[k] = float64(base.Curve[k+1].Step)
	}
	if err := ax.Line(img, []float64{xs[0], xs[len(xs)-1]}, []float64{0, 0}, plot.LineStyle{Color: th.Frame, Width: 1}); err != nil {
		return err
	}
	for _, row := range sum.Rows {
		if g, ok := gaps[row.Recipe]; ok {
			if err := ax.Line(img, xs, g[1:], styles[row.Recipe]); err != nil {
				return err
			}
		}
	}
	ax.Note(img, fmt.Sprintf("grey: within ±%g%%, no measurable effect (compare.Judge)", compare.MinEffectPct), plot.BottomLeft,
		plot.TextStyle{Color: th.MutedText, Size: th.TickSize})
	return nil
}
