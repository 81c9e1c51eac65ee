package viz

import (
	"fmt"
	"image"
	"math"
	"slices"

	"github.com/fp8lab/fp8lab/viz/plot"
)

// trainingSmooth is how many steps the drawn training loss averages: one
// batch's loss is too noisy to read.
const trainingSmooth = 10

// smoothed returns the mean of each step's loss with the previous ones,
// up to trainingSmooth of them, at steps 1, 2, ...
func smoothed(loss []float64) (xs, ys []float64) {
	var sum float64
	for i, l := range loss {
		sum += l
		if i >= trainingSmooth {
			sum -= loss[i-trainingSmooth]
		}
		xs = append(xs, float64(i+1))
		ys = append(ys, sum/float64(min(i+1, trainingSmooth)))
	}
	return xs, ys
}

// Markers and dash patterns tell the recipes apart where their curves
// overlap (they often do: that is the finding).
var trainingMarkers = []plot.Marker{plot.MarkerCircle, plot.MarkerSquare, plot.MarkerTriangleUp}

func trainingDashes(st style, i int) []float64 {
	switch i % 3 {
	case 1:
		return []float64{st.pxf(8), st.pxf(4)}
	case 2:
		return []float64{st.pxf(3), st.pxf(3)}
	}
	return nil
}

// niceCeil returns the smallest 1, 2 or 5 × 10^k at least v (v > 0).
func niceCeil(v float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v*(1-1e-12) {
			return math.Min(m*p, 1)
		}
	}
	return 1
}

// mapLayers returns the layers whose operand has statistics in the
// inspected run (a recipe may keep a layer in high precision), all of them
// when there are none yet.
func mapLayers(tr trainingState, all []string, operand string) []string {
	if tr.inspect < 0 {
		return all
	}
	seen := map[string]bool{}
	for _, p := range tr.curves[tr.inspect].stats {
		for _, o := range p.Operands {
			if o.Operand == operand {
				seen[o.Layer] = true
			}
		}
	}
	var out []string
	for _, l := range all {
		if seen[l] {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		return all
	}
	return out
}

// Render implements Scene.
func (s *trainingScene) render(dst *image.RGBA, d Display) error {
	names := s.recipes()
	title := "Training: " + joinAnd(names)
	tr, err := s.state()
	sub := ""
	switch {
	case err != nil:
	case s.lesson():
		title = "Lesson: " + s.ref.lesson.Title
		sub = fmt.Sprintf("shipped · %s config · %s · %d steps · marks: mean validation, bars: seed range · lines: mean training",
			tr.cfg.Name, plural(len(s.ref.rec.Seeds), "seed", "seeds"), tr.total)
	case s.reference():
		title = "Reference runs: " + joinAnd(names)
		sub = fmt.Sprintf("shipped · %s config · %s · %d steps · marks: mean validation, bars: seed range · lines: mean training",
			tr.cfg.Name, plural(len(s.ref.rec.Seeds), "seed", "seeds"), tr.total)
	default:
		sub = fmt.Sprintf("seed %s · step %d of %d · marks: validation · lines: training",
			s.ps.str("seed"), tr.done, tr.total)
	}
	st, body, berr := begin(dst, d, title, sub)
	if berr != nil {
		return berr
	}
	if err != nil {
		errorPanel(dst, body, st, err.Error())
		return nil
	}
	// The loss curves on top; below them the two maps side by side (one
	// above the other on a phone), each with its colour bar at its right,
	// so that every layer's row is tall enough to carry its name.
	weights := []float64{1.15, 1}
	if st.stacked {
		weights = []float64{1.7, 1.6} // the curves and the gaps above the maps
	}
	rows, err := plot.SplitRows(body, st.px(10), weights...)
	if err != nil {
		return err
	}
	halves, err := st.columns(rows[1], st.px(16), 1, 1)
	if err != nil {
		return err
	}
	bar := st.px(84)
	for i := range halves {
		halves[i].Max.X -= bar
	}
	total := float64(tr.total)
	xs, err := plot.NewLinear(0, total)
	if err != nil {
		return err
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	smooth := make([][2][]float64, len(tr.curves))
	for i, c := range tr.curves {
		for _, p := range c.val {
			lo, hi = math.Min(lo, p.Loss), math.Max(hi, p.Loss)
		}
		if tr.ranges != nil {
			for _, r := range tr.ranges[i] {
				lo, hi = math.Min(lo, r.lo), math.Max(hi, r.hi)
			}
		}
		sx, sy := smoothed(c.loss)
		smooth[i] = [2][]float64{sx, sy}
		for _, v := range sy {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	ys, err := plot.NewLinear(math.Floor(lo*2)/2-0.25, math.Ceil(hi*2)/2)
	if err != nil {
		return err
	}
	ys = ys.WithTickCount(5) // three labels at least, also on the desktop's shortest picture
	layers := mapLayers(tr, tr.cfg.LinearLayers(), s.ps.str("operand"))
	slices.Reverse(layers) // the band scale counts from the bottom; the maps' row 0 is at the top
	band, err := plot.NewBand(layers)
	if err != nil {
		return err
	}
	slices.Reverse(layers)
	op := operandText[s.ps.str("operand")]
	who := ""
	if tr.inspect >= 0 {
		who = tr.curves[tr.inspect].recipe + ": "
	}
	titles := []string{who + "amax of " + op + " per layer", who + "share of " + op + " underflowed to 0"}
	xlabel, ylabel := "training step", "loss (nats/byte)"
	if body.Dy() < st.px(520) || halves[0].Dx() < st.px(400) {
		// Short or narrow pictures keep the plots and shorten the words
		// around them.
		o := operandSymbol[s.ps.str("operand")]
		titles, xlabel, ylabel = []string{who + "amax of " + o, who + o + " underflowed to 0"}, "step", "loss"
	}
	// Beside the curves (below them on a phone), each recipe's gap to the
	// baseline, zoomed: the curves overlap where recipes differ by tenths
	// of a percent.
	parts, err := st.split(rows[0], st.px(16), []float64{1.6, 1}, []float64{1.3, 1})
	if err != nil {
		return err
	}
	curvesRect, gapRect := parts[0], parts[1]
	legend := trainingLegend(st, tr, xlabel == "step")
	var strip []plot.LegendEntry
	if xlabel == "step" && curvesRect.Dy() > st.px(200) {
		// A short picture has no room for the legend inside the curves:
		// the axes keep a row above them for it, where that leaves the
		// plot room for three labelled ticks.
		strip = legend
	}
	loss, err := st.axes(curvesRect, xs, ys, "", xlabel, ylabel, strip...)
	if err != nil {
		return err
	}
	if err := drawGaps(dst, st, tr, gapRect, xs, xlabel != "step"); err != nil {
		return err
	}
	maps := make([]*plot.Axes, 2)
	for i := range maps {
		if maps[i], err = st.axes(halves[i], xs, band, titles[i], xlabel, ""); err != nil {
			return err
		}
	}
	// A title that wraps (on a phone) must not make one map's rows
	// shorter than the other's: the taller plot gives up the difference.
	if d := maps[0].Plot.Dy() - maps[1].Plot.Dy(); d != 0 {
		i := 0
		if d < 0 {
			i, d = 1, -d
		}
		halves[i].Min.Y += d
		if maps[i], err = st.axes(halves[i], xs, band, titles[i], xlabel, ""); err != nil {
			return err
		}
	}
	axes := []*plot.Axes{loss, maps[0], maps[1]}
	for _, ax := range axes {
		ax.Draw(dst)
	}
	for i, c := range tr.curves {
		col := plot.Categorical(i)
		if len(smooth[i][0]) > 0 {
			if err := axes[0].Line(dst, smooth[i][0], smooth[i][1], plot.LineStyle{Color: plot.WithAlpha(col, 0xb0), Width: st.pxf(1.5)}); err != nil {
				return err
			}
		}
		vx, vy := make([]float64, len(c.val)), make([]float64, len(c.val))
		for k, p := range c.val {
			vx[k], vy[k] = float64(p.Step), p.Loss
		}
		mk := trainingMarkers[i%len(trainingMarkers)]
		if tr.ranges != nil {
			// The spread over seeds: a bar from the lowest to the highest
			// seed's validation loss at every evaluated step.
			for k, r := range tr.ranges[i] {
				x := float64(c.val[k].Step)
				if err := axes[0].Line(dst, []float64{x, x}, []float64{r.lo, r.hi}, plot.LineStyle{Color: col, Width: st.pxf(2)}); err != nil {
					return err
				}
			}
		}
		if err := axes[0].Line(dst, vx, vy, plot.LineStyle{Color: col, Width: st.pxf(2), Dash: trainingDashes(st, i), Marker: mk, MarkerSize: st.pxf(9)}); err != nil {
			return err
		}
	}
	if _, err := axes[0].Legend(dst, plot.TopRight, legend); err != nil {
		return err
	}
	if tr.status == "not started" && xlabel != "step" {
		// (A short picture leaves it to the takeaway: Note does not know
		// where the legend lies, and ran into it at 980×417.)
		ts := st.body()
		ts.Color = st.th.MutedText
		// Placed by Note: beside the legend and the step-0 marks, never
		// over them (centred, it ran into the legend at 980×528).
		axes[0].Note(dst, "Check Train to start: one step of each recipe in turn", plot.BottomLeft, ts)
	}
	return s.drawMaps(dst, st, tr, layers, axes[1], axes[2])
}

// trainingLegend names each curve, with its marker and dash, and says which
// an Inf or a NaN stopped (short: only that it stopped).
func trainingLegend(st style, tr trainingState, short bool) []plot.LegendEntry {
	var legend []plot.LegendEntry
	for i, c := range tr.curves {
		label := c.recipe
		switch {
		case c.stoppedAt > 0 && !short:
			label += fmt.Sprintf(" (Inf/NaN: stopped at step %d)", c.stoppedAt)
		case c.err != nil:
			label += " (stopped)"
		}
		legend = append(legend, plot.LegendEntry{Label: label, Color: plot.Categorical(i), Width: st.pxf(2),
			Dash: trainingDashes(st, i), Marker: trainingMarkers[i%len(trainingMarkers)]})
	}
	return legend
}

// drawMaps draws the inspected recipe's per-layer amax (log₂ colours) and
// underflowed share, one column per tr.every steps, with their
// colour bars right of the plots.
func (s *trainingScene) drawMaps(dst *image.RGBA, st style, tr trainingState, layers []string, amaxAx, underAx *plot.Axes) error {
	if tr.inspect < 0 {
		return nil
	}
	c := tr.curves[tr.inspect]
	row := map[string]int{}
	for i, l := range layers {
		row[l] = i
	}
	amax := make([][]float64, len(layers))
	under := make([][]float64, len(layers))
	for i := range layers {
		amax[i] = make([]float64, len(c.stats))
		under[i] = make([]float64, len(c.stats))
		for j := range c.stats {
			amax[i][j], under[i][j] = math.NaN(), math.NaN()
		}
	}
	aLo, aHi := math.Inf(1), math.Inf(-1)
	for j, p := range c.stats {
		names, am, un := layerStats(p, s.ps.str("operand"))
		for k, n := range names {
			i := row[n]
			amax[i][j], under[i][j] = am[k], un[k]
			if am[k] > 0 {
				aLo, aHi = math.Min(aLo, am[k]), math.Max(aHi, am[k])
			}
		}
	}
	if len(c.stats) == 0 || math.IsInf(aLo, 0) {
		// Nothing to colour yet (or a recipe without scaled operands).
		msg := fmt.Sprintf("a column every %d steps", tr.every)
		if tr.done >= tr.every {
			msg = c.recipe + " scales no " + operandText[s.ps.str("operand")]
		}
		for _, ax := range []*plot.Axes{amaxAx, underAx} {
			plotNote(dst, st, ax.Plot, msg, st.muted())
		}
		return nil
	}
	av, err := plot.NewLog2(math.Exp2(math.Floor(math.Log2(aLo))), math.Exp2(math.Ceil(math.Log2(aHi))+0.001))
	if err != nil {
		return err
	}
	uTop := 0.01
	for _, row := range under {
		for _, v := range row {
			if v > uTop {
				uTop = v
			}
		}
	}
	// The scale ends at the next 1, 2 or 5 × a power of ten above the
	// largest share: a few percent must not all look alike.
	uv, err := plot.NewLinear(0, niceCeil(uTop))
	if err != nil {
		return err
	}
	uv = uv.WithFormat(func(v float64) string { return pctText(v) })
	for _, m := range []struct {
		ax    *plot.Axes
		data  [][]float64
		value plot.Scale
		label string
	}{{amaxAx, amax, av, "amax"}, {underAx, under, uv, "underflow"}} {
		p := m.ax.Plot
		end := m.ax.X.Map(float64(c.stats[len(c.stats)-1].Step))
		r := image.Rect(p.Min.X, p.Min.Y, int(math.Round(end)), p.Max.Y)
		if err := plot.DrawHeatmap(dst, r, m.data, plot.HeatmapStyle{Map: plot.Viridis, Value: m.value}); err != nil {
			return err
		}
		br := image.Rect(m.ax.Plot.Max.X+st.px(10), m.ax.Plot.Min.Y, m.ax.Plot.Max.X+st.px(94), m.ax.Plot.Max.Y)
		th := st.th
		if err := plot.DrawColorBar(dst, br, plot.ColorBarStyle{Map: plot.Viridis, Value: m.value}, &th); err != nil {
			return err
		}
	}
	return nil
}

// plotNote writes msg in the middle of the plot area p, wrapped to its
// width: a note that stands in for data not there yet.
func plotNote(dst *image.RGBA, st style, p image.Rectangle, msg string, ts plot.TextStyle) {
	lines := plot.WrapText(msg, p.Dx()-st.px(16), ts)
	lineH := plot.MeasureText("Xg", ts).Height() + st.px(4)
	ts.Align, ts.VAlign = plot.AlignCenter, plot.AlignTop
	y := (p.Min.Y+p.Max.Y)/2 - len(lines)*lineH/2
	for _, l := range lines {
		plot.DrawText(dst, l, float64(p.Min.X+p.Max.X)/2, float64(y), ts)
		y += lineH
	}
}
