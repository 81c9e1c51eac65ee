package viz

import (
	"image"
	"image/color"
	"math"
	"sort"
	"strconv"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// Colours of the stochastic scene: one per rule, the ideal rounding and the
// measured draws.
var (
	srIdealColor    = plot.BluishGreen
	srMeasuredColor = plot.ReddishPurple
	srRuleColors    = [2]color.RGBA{plot.Vermillion, plot.Blue}
)

// draw lays out the number line above, the running mean and the bias
// against r below.
func (s *stochasticScene) draw(dst *image.RGBA, st style, body image.Rectangle) error {
	compact := body.Dy() < st.px(480)
	var rows, cols []image.Rectangle
	// The charts below get a little more where their keys would otherwise
	// find no strip above them (the smallest pictures).
	for _, lower := range []float64{1.1, 1.3} {
		var err error
		if rows, err = plot.SplitRows(body, st.px(10), 1, lower); err != nil {
			return err
		}
		if cols, err = st.columns(rows[1], st.px(24), 1.2, 1); err != nil {
			return err
		}
		lin, err := plot.NewLinear(0, 1)
		if err != nil {
			return err
		}
		if ax, err := st.axes(cols[0], lin, lin, "", "draws n", "mean", s.runningLegend(st)...); err == nil && ax.HasLegendStrip() {
			break
		}
	}
	if err := s.drawLine(dst, st, rows[0], compact); err != nil {
		return err
	}
	if err := s.drawRunning(dst, st, cols[0], compact); err != nil {
		return err
	}
	return s.drawBias(dst, st, cols[1], compact)
}

// lineDomain returns the span of the number line: one step either side of
// the neighbours or, when x needs no choice, the values next to the one it
// rounds to (x itself may lie beyond them when it saturates).
func (res *srResult) lineDomain() (lo, hi float64) {
	if res.step > 0 {
		return res.lower - res.step, res.upper + res.step
	}
	i := min(sort.SearchFloat64s(res.vals, res.lower), len(res.vals)-1)
	a, b := res.vals[max(i-1, 0)], res.vals[min(i+1, len(res.vals)-1)]
	if a == b {
		a, b = a-1, b+1
	}
	pad := (b - a) * 0.05
	return a - pad, b + pad
}

// srRow is one bar under the number line: it starts at the lower
// neighbour and is P(upper) steps long, so it ends at the mean of the
// rounded values.
type srRow struct {
	name  string
	what  string // what p is
	p     float64
	note  string
	color color.RGBA
	faint bool
}

// drawLine draws x between its neighbours and, below, one bar per way of
// rounding: ideal, each rule with r bits, and the draws.
func (s *stochasticScene) drawLine(dst *image.RGBA, st style, r image.Rectangle, compact bool) error {
	res := &s.res
	lo, hi := res.lineDomain()
	var ticks []plot.Tick
	for _, v := range res.vals {
		if v >= lo && v <= hi {
			ticks = append(ticks, plot.Tick{Value: v, Label: short(v)})
		}
	}
	xs, err := newTickScale(lo, hi, ticks)
	if err != nil {
		return err
	}
	ys, err := newTickScale(0, 1, nil)
	if err != nil {
		return err
	}
	title := "x between its neighbouring " + s.f.Name() + " values · each bar ends at the mean of the rounded values"
	if compact {
		title = ""
	}
	th := st.th
	ax, err := plot.NewAxes(r, xs, ys, plot.AxesOptions{Title: title, XLabel: "value", Theme: &th, HideYGrid: true})
	if err != nil {
		return err
	}
	s.line = ax
	ax.Draw(dst)
	clip := ax.Clip(dst)
	P := ax.Plot
	h := float64(P.Dy())
	lineY := float64(P.Min.Y) + 0.27*h
	x0, x1 := float64(P.Min.X), float64(P.Max.X)
	plot.Line(clip, x0, lineY, x1, lineY, st.pxf(2), st.th.Frame)
	for _, t := range ticks {
		p := ax.X.Map(t.Value)
		plot.Line(clip, p, lineY-st.pxf(8), p, lineY+st.pxf(8), st.pxf(2), st.th.Frame)
	}
	// x: a triangle on the line, its value above, a dashed line down
	// through the bars.
	px, xText := ax.X.Map(res.x), "x = "+short(res.x)
	tri := st.pxf(8)
	switch {
	case px > x1-tri: // beyond the line: saturated
		px, xText = x1-tri, xText+" →"
	case px < x0+tri:
		px, xText = x0+tri, "← "+xText
	}
	top := float64(P.Max.Y) - st.pxf(2)
	plot.DashedLine(clip, px, lineY, px, top, st.pxf(1.5), st.pxf(5), st.pxf(4), st.th.Foreground)
	plot.FillPolygon(clip, []plot.Point{{X: px, Y: lineY - st.pxf(2)}, {X: px - tri, Y: lineY - st.pxf(2) - 1.6*tri}, {X: px + tri, Y: lineY - st.pxf(2) - 1.6*tri}}, st.th.Foreground)
	lab := st.text(15, plot.FontBold, color.RGBA{})
	lab.Align, lab.VAlign = plot.AlignCenter, plot.AlignBottom
	w := float64(plot.MeasureText(xText, lab).Width)
	if px+w/2 > x1 {
		lab.Align = plot.AlignRight
	} else if px-w/2 < x0 {
		lab.Align = plot.AlignLeft
	}
	lx, ly := px, lineY-st.pxf(4)-1.6*tri
	if plot.DrawText(nil, xText, lx, ly, lab).Min.Y < P.Min.Y {
		// A short plot (the desktop app's picture) has no room above the
		// triangle: the value goes beside it, clear of the ticks.
		lab.Align, lx, ly = plot.AlignLeft, px+tri+st.pxf(4), lineY-st.pxf(3)
		if lx+w > x1 {
			lab.Align, lx = plot.AlignRight, px-tri-st.pxf(4)
		}
	}
	if plot.DrawText(nil, xText, lx, ly, lab).In(P) {
		plot.DrawText(clip, xText, lx, ly, lab)
	}

	rbits := strconv.Itoa(res.drawR)
	rows := []srRow{{name: "ideal", what: "P(up)", p: res.pIdeal, color: srIdealColor}}
	for i, rl := range srRules {
		e := res.exact[i]
		rows = append(rows, srRow{name: rl.String() + ", r = " + rbits, what: "P(up)", p: e.p, color: srRuleColors[i],
			faint: rl != res.rule, note: "bias " + short(e.bias)})
	}
	rows = append(rows, srRow{name: "measured, N = " + strconv.Itoa(res.draws), what: "frequency", p: res.frequency(), color: srMeasuredColor,
		note: strconv.Itoa(res.ups) + " up"})
	rows[0].note = "mean x"
	if res.step == 0 {
		rows[0].note = ""
	}
	zone := lineY + st.pxf(14)
	name := st.text(13, plot.FontRegular, color.RGBA{})
	name.Align, name.VAlign = plot.AlignRight, plot.AlignMiddle
	note := name
	note.Align = plot.AlignLeft
	// Rows closer than a line of their labels (a short plot: the desktop
	// app's picture) leave out the rules not chosen, then their labels.
	lineH := float64(plot.MeasureText("Xg", name).Height())
	if (top-zone)/float64(len(rows)) < lineH {
		kept := rows[:0:0]
		for _, row := range rows {
			if !row.faint {
				kept = append(kept, row)
			}
		}
		rows = kept
	}
	rh := (top - zone) / float64(len(rows))
	labels := rh >= lineH
	left, right := ax.X.Map(res.lower), ax.X.Map(res.upper)
	if res.step == 0 {
		left, right = px, px
	}
	for i, row := range rows {
		y := zone + (float64(i)+0.5)*rh
		c, fg := row.color, st.th.Foreground
		if row.faint {
			c, fg = plot.WithAlpha(c, 0x60), st.th.MutedText
		}
		bh := math.Max(2, 0.6*rh)
		if st.stacked {
			// A narrow picture: the label goes above its bar, across the
			// plot, as the sides of the bar have no room for it.
			bh = math.Max(2, 0.4*rh)
			y += 0.15 * rh
		}
		end := left + row.p*(right-left)
		plot.FillRect(clip, image.Rect(int(math.Round(left)), int(math.Round(y-bh/2)), int(math.Round(math.Max(end, left+1))), int(math.Round(y+bh/2))), c)
		name.Color, note.Color = fg, fg
		if !row.faint && i > 0 && row.what == "P(up)" { // the chosen rule
			name.Font = plot.FontBold
		} else {
			name.Font = plot.FontRegular
		}
		if !labels {
			continue
		}
		text := row.what + " " + short(row.p)
		if st.stacked {
			// Across the plot, without the note where that is too wide
			// (a phone: "measured, N = 1000: frequency 0.743 · 743 up").
			ls := note
			ls.VAlign = plot.AlignBottom
			full := row.name + ": " + text
			if row.note != "" && float64(plot.MeasureText(full+" · "+row.note, ls).Width) <= x1-x0-st.pxf(8) {
				full += " · " + row.note
			}
			if float64(plot.MeasureText(full, ls).Width) <= x1-x0-st.pxf(8) {
				plot.DrawText(clip, full, x0+st.pxf(4), y-bh/2-st.pxf(2), ls)
			}
			continue
		}
		if row.note != "" {
			text += " · " + row.note
		}
		nx := math.Max(right, px) + st.pxf(8)
		if nx+float64(plot.MeasureText(text, note).Width) > x1 {
			// No room right of x (it saturated at the right end): one label on the left.
			plot.DrawText(clip, row.name+": "+text, math.Min(left, px)-st.pxf(8), y, name)
			continue
		}
		plot.DrawText(clip, row.name, math.Min(left, px)-st.pxf(8), y, name)
		plot.DrawText(clip, text, nx, y, note)
	}
	return nil
}

// drawRunning plots the mean of the first n draws against n, with x, the
// exact mean for the chosen rule and ±3 standard deviations around it.
func (s *stochasticScene) drawRunning(dst *image.RGBA, st style, r image.Rectangle, compact bool) error {
	res := &s.res
	ch := res.chosen()
	ylo, yhi := res.lower, res.upper
	if res.step == 0 {
		lo, hi := res.lineDomain()
		ylo, yhi = res.lower-(hi-lo)/6, res.lower+(hi-lo)/6
	}
	pad := (yhi - ylo) * 0.08
	// The neighbours and the tie halfway between them.
	yTicks := []plot.Tick{{Value: res.lower, Label: short(res.lower)}}
	if res.upper != res.lower {
		mid := res.lower + (res.upper-res.lower)/2
		yTicks = append(yTicks, plot.Tick{Value: mid, Label: short(mid)}, plot.Tick{Value: res.upper, Label: short(res.upper)})
	}
	ys, err := newTickScale(ylo-pad, yhi+pad, yTicks)
	if err != nil {
		return err
	}
	xs, err := plot.NewLog10(1, math.Max(float64(res.draws), 10))
	if err != nil {
		return err
	}
	title, xl := "Running mean of the rounded values", "draws n"
	if compact {
		title = ""
	}
	rc := s.ruleColor()
	legend := s.runningLegend(st)
	ax, err := st.axes(r, xs, ys, title, xl, "mean", legend...)
	if err != nil {
		return err
	}
	ax.Draw(dst)
	// ±3σ of the mean of n draws around the exact mean.
	var up, dn []float64
	for _, n := range res.runN {
		sd := 3 * res.step * math.Sqrt(ch.p*(1-ch.p)/n)
		up, dn = append(up, math.Min(ch.mean+sd, yhi+pad)), append(dn, math.Max(ch.mean-sd, ylo-pad))
	}
	thin := plot.LineStyle{Color: plot.WithAlpha(rc, 0xa0), Width: st.pxf(1.2), Dash: []float64{st.pxf(4), st.pxf(3)}}
	if err := ax.Line(dst, res.runN, up, thin); err != nil {
		return err
	}
	if err := ax.Line(dst, res.runN, dn, thin); err != nil {
		return err
	}
	xLine := plot.LineStyle{Color: st.th.Foreground, Width: st.pxf(1.5), Dash: []float64{st.pxf(6), st.pxf(4)}}
	ax.HMarker(dst, res.x, "", xLine)
	ax.HMarker(dst, ch.mean, "", plot.LineStyle{Color: rc, Width: st.pxf(2)})
	if err := ax.Line(dst, res.runN, res.runV, plot.LineStyle{Color: srMeasuredColor, Width: st.pxf(2)}); err != nil {
		return err
	}
	ax.HMarkerLabel(dst, res.x, "x", xLine) // after the data, so that it keeps off it
	_, err = ax.Legend(dst, plot.BottomRight, legend)
	return err
}

// ruleColor is the colour of the chosen rounding rule's curves.
func (s *stochasticScene) ruleColor() color.RGBA {
	if s.res.rule == fp8.StochasticNearest {
		return srRuleColors[1]
	}
	return srRuleColors[0]
}

// runningLegend lists the curves of the running-mean chart.
func (s *stochasticScene) runningLegend(st style) []plot.LegendEntry {
	rc := s.ruleColor()
	return []plot.LegendEntry{
		{Label: "mean of the first n draws", Color: srMeasuredColor, Width: st.pxf(2)},
		{Label: "exact mean, " + s.res.rule.String() + " rule", Color: rc, Width: st.pxf(2)},
		{Label: "±3σ", Color: rc, Width: st.pxf(1.2), Dash: []float64{st.pxf(4), st.pxf(3)}},
	}
}

// drawBias plots the exact bias of both rules, in steps, for every r.
func (s *stochasticScene) drawBias(dst *image.RGBA, st style, r image.Rectangle, compact bool) error {
	res := &s.res
	rs := make([]float64, srMaxBits)
	top := 0.0
	for i := range rs {
		rs[i] = float64(i + 1)
		for k := range srRules {
			top = math.Max(top, math.Abs(res.curve[k][i]))
		}
	}
	if top == 0 {
		top = 0.5
	}
	xs, err := plot.NewLinear(0.5, srMaxBits+0.5)
	if err != nil {
		return err
	}
	ys, err := plot.NewLinear(-top*1.15, top*1.15)
	if err != nil {
		return err
	}
	title, xl := "Exact bias of the mean for every r", "random bits r"
	if compact {
		title = ""
	}
	var legend []plot.LegendEntry
	for i, rl := range srRules {
		w := st.pxf(1.5)
		if rl == res.rule {
			w = st.pxf(3)
		}
		legend = append(legend, plot.LegendEntry{Label: rl.String(), Color: srRuleColors[i], Width: w, Marker: plot.MarkerCircle})
	}
	ax, err := st.axes(r, xs, ys, title, xl, "bias (steps)", legend...)
	if err != nil {
		return err
	}
	ax.Draw(dst)
	ax.HMarker(dst, 0, "", plot.LineStyle{Color: st.th.MutedText, Width: st.pxf(1)})
	ax.VMarker(dst, float64(res.drawR), "r = "+strconv.Itoa(res.drawR), plot.LineStyle{Color: st.th.Foreground, Width: st.pxf(1.5), Dash: []float64{st.pxf(5), st.pxf(4)}})
	for i := range srRules {
		if err := ax.Line(dst, rs, res.curve[i], plot.LineStyle{Color: srRuleColors[i], Width: legend[i].Width, Marker: plot.MarkerCircle, MarkerSize: st.pxf(5)}); err != nil {
			return err
		}
	}
	_, err = ax.Legend(dst, plot.BottomRight, legend)
	return err
}
