package viz

import (
	"fmt"
	"image"
	"math"

	"github.com/fp8lab/fp8lab/train"
	"github.com/fp8lab/fp8lab/train/compare"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// gapCurve is one recipe's validation loss against the baseline's, in
// percent of the baseline's, at each evaluated step: the loss curves of
// recipes that differ by tenths of a percent lie on top of each other, and
// this zooms into what separates them.
type gapCurve struct {
	steps []float64
	mean  []float64   // the mean of the per-seed gaps (one seed: its gap)
	rng   []seedRange // the lowest and highest seed's gap; nil for one seed
}

// pairedGaps returns the gaps of runs against base, seed paired with seed
// (runs[j] and base[j] share their initial weights and batches), at the
// evaluated steps both have.
func pairedGaps(runs, base []*train.Result) gapCurve {
	var g gapCurve
	n := len(runs[0].Val)
	for _, r := range append(runs[1:], base...) {
		n = min(n, len(r.Val))
	}
	for k := range n {
		sr := seedRange{math.Inf(1), math.Inf(-1)}
		var sum float64
		for j, r := range runs {
			b := base[j].Val[k].Loss
			v := 100 * (r.Val[k].Loss - b) / b
			sum += v
			sr.lo, sr.hi = min(sr.lo, v), max(sr.hi, v)
		}
		g.steps = append(g.steps, float64(runs[0].Val[k].Step))
		g.mean = append(g.mean, sum/float64(len(runs)))
		if len(runs) > 1 {
			g.rng = append(g.rng, sr)
		}
	}
	return g
}

// liveGaps returns the gaps of a live run's curves (one seed) against the
// curve base, at the evaluated steps both have reached; nil for the base.
func liveGaps(curves []trainCurve, base int) []gapCurve {
	if base < 0 {
		return nil
	}
	out := make([]gapCurve, len(curves))
	for i, c := range curves {
		if i == base {
			continue
		}
		b := curves[base].val
		for k := 0; k < len(c.val) && k < len(b); k++ {
			out[i].steps = append(out[i].steps, float64(c.val[k].Step))
			out[i].mean = append(out[i].mean, 100*(c.val[k].Loss-b[k].Loss)/b[k].Loss)
		}
	}
	return out
}

// drawGaps draws the gap panel: a zero line for the baseline, each
// recipe's gap in its colour and marker, and for several seeds a bar from
// the lowest seed's gap to the highest at every evaluated step. The first
// point (step 0: the same weights, no gap) is left out of the range.
func drawGaps(dst *image.RGBA, st style, tr trainingState, r image.Rectangle, xs plot.Scale, words bool) error {
	lo, hi := 0.0, 0.0
	points := 0
	for _, g := range tr.gaps {
		for k := range g.mean {
			if g.steps[k] == 0 {
				continue
			}
			lo, hi = math.Min(lo, g.mean[k]), math.Max(hi, g.mean[k])
			if g.rng != nil {
				lo, hi = math.Min(lo, g.rng[k].lo), math.Max(hi, g.rng[k].hi)
			}
			points++
		}
	}
	// The scale always shows the band within which the verdict rule
	// (compare.Judge) sees no effect, so that a gap is read against it.
	lo, hi = math.Min(lo, -compare.MinEffectPct), math.Max(hi, compare.MinEffectPct)
	pad := math.Max((hi-lo)*0.08, 0.05)
	ys, err := plot.NewLinear(lo-pad, hi+pad)
	if err != nil {
		return err
	}
	ys = ys.WithTickCount(5).WithFormat(func(v float64) string { return signedPctText(v) })
	title, xlabel, ylabel := "gap to "+tr.baseline, "step", "gap"
	if words {
		// The grey band's meaning goes in the title: a note inside the
		// plot found no free place once the seeds' bars filled it.
		title = fmt.Sprintf("validation loss against %s, zoomed; grey: within ±%g%%, no measurable effect", tr.baseline, compare.MinEffectPct)
		xlabel, ylabel = "training step", "gap to "+tr.baseline
	}
	ax, err := st.axes(r, xs, ys, title, xlabel, ylabel)
	if err != nil {
		return err
	}
	ax.Draw(dst)
	ax.HBand(dst, -compare.MinEffectPct, compare.MinEffectPct, plot.WithAlpha(st.th.Grid, 0xa0), "")
	x1, x2 := xs.Domain()
	if err := ax.Line(dst, []float64{x1, x2}, []float64{0, 0}, plot.LineStyle{Color: st.th.Frame, Width: st.pxf(1)}); err != nil {
		return err
	}
	for i, g := range tr.gaps {
		if len(g.steps) == 0 {
			continue
		}
		col := plot.Categorical(i)
		for k, sr := range g.rng {
			if g.steps[k] == 0 {
				continue
			}
			if err := ax.Line(dst, []float64{g.steps[k], g.steps[k]}, []float64{sr.lo, sr.hi}, plot.LineStyle{Color: col, Width: st.pxf(2)}); err != nil {
				return err
			}
		}
		mk := trainingMarkers[i%len(trainingMarkers)]
		if err := ax.Line(dst, g.steps, g.mean, plot.LineStyle{Color: col, Width: st.pxf(2), Dash: trainingDashes(st, i),
			Marker: mk, MarkerSize: st.pxf(8)}); err != nil {
			return err
		}
	}
	switch {
	case len(tr.curves) < 2:
		plotNote(dst, st, ax.Plot, "a second recipe's gap to "+tr.baseline+" shows here", st.muted())
	case points == 0:
		plotNote(dst, st, ax.Plot, "each recipe's gap to "+tr.baseline+" appears at the first evaluation", st.muted())
	}
	return nil
}

// signedPctText writes a gap in percent with its sign, to the digits a
// tick needs.
func signedPctText(v float64) string {
	if v == 0 {
		return "0%"
	}
	s := sig4(v)
	if v > 0 {
		s = "+" + s
	}
	return s + "%"
}
