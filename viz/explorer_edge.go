package viz

// The top edge of a format, where rounding meets overflow: the step beyond
// max that has no code, the midpoint to it, and what the codec does there
// in the explorer's current mode. Every number comes from fp8.

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"sort"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// overflowEdge describes a format's overflow boundary in one mode.
type overflowEdge struct {
	max  float64 // largest finite value
	next float64 // max + ULP(max): the next step, had the exponent room (no code)
	mid  float64 // halfway between max and next: the tie
	// start is where overflow begins in this mode: max (rounding away),
	// mid (to nearest) or next (toward zero); inclusive says whether start
	// itself overflows. ok is false when nothing finite overflows.
	start     float64
	inclusive bool
	ok        bool
	// tie and above are the codec's answers for mid and for probe, a value
	// just above mid (465 for E4M3FN): rounding and overflow at work before
	// anything is typed.
	probe      float64
	tie, above fp8.Explanation
}

// edgeOf computes the overflow boundary of f in mode m from the codec.
func edgeOf(f *fp8.Format, m fp8.Mode) (overflowEdge, error) {
	ci, err := f.Describe(f.MaxCode())
	if err != nil {
		return overflowEdge{}, err
	}
	e := overflowEdge{max: f.Max()}
	ulp := float64(ci.ULP)
	e.next, e.mid, e.probe = e.max+ulp, e.max+ulp/2, e.max+ulp/2+ulp/32
	if e.tie, err = f.Explain(e.mid, m); err != nil {
		return overflowEdge{}, err
	}
	if e.above, err = f.Explain(e.probe, m); err != nil {
		return overflowEdge{}, err
	}
	// Overflow begins at the first candidate just above which the codec
	// reports it.
	for _, c := range []float64{e.max, e.mid, e.next} {
		if f.Overflows(math.Nextafter(c, math.Inf(1)), m) {
			e.start, e.inclusive, e.ok = c, f.Overflows(c, m), true
			break
		}
	}
	return e, nil
}

// outcome names what a value becomes: "448 (0x7E)" or "NaN (0x7F)", so
// that a format without infinity never shows "+∞".
func outcome(ex fp8.Explanation) string {
	return fmt.Sprintf("%s (0x%02X)", fullValue(ex.Result.Value), ex.Result.Code)
}

// overflowWord says how an overflow ended: saturated to max, or a special.
func overflowWord(f *fp8.Format, ex fp8.Explanation) string {
	v := float64(ex.Result.Value)
	switch {
	case math.IsNaN(v):
		if f.HasInf() {
			return "NaN"
		}
		return "no infinity in " + f.Name()
	case math.IsInf(v, 0):
		return "infinity"
	}
	return "saturated to max"
}

// edgeLines are the lines the explorer prints about the edge.
func (s *explorer) edgeLines(e overflowEdge) []string {
	how := map[string]string{"nearest": "a tie, to the even neighbour", "zero": "rounds toward zero", "away": "rounds away from zero"}[s.ps.str("rounding")]
	tie := fmt.Sprintf("%s, halfway: %s, %s", exact(e.mid), how, outcome(e.tie))
	if e.tie.Overflow {
		tie = fmt.Sprintf("%s, halfway: %s: overflow → %s", exact(e.mid), how, outcome(e.tie))
	}
	above := fmt.Sprintf("%s → %s", short(e.probe), outcome(e.above))
	if e.above.Overflow {
		above += ": overflow, " + overflowWord(s.f, e.above)
	}
	if !e.ok {
		above += "  ·  nothing overflows in this mode"
	}
	return []string{
		fmt.Sprintf("Beyond max %s the next step, %s, has no code.", exact(e.max), exact(e.next)),
		tie, above,
	}
}

// edgeFacts adds the boundary's numbers to the explorer's facts.
func edgeFacts(m map[string]string, e overflowEdge) {
	m["edge_next_step"] = exact(e.next)
	m["mode_name"] = e.tie.Mode
	m["edge_midpoint"] = exact(e.mid)
	m["edge_probe"] = exact(e.probe)
	m["edge_tie_result"] = e.tie.Result.Value.String()
	m["edge_tie_overflows"] = fmt.Sprint(e.tie.Overflow)
	m["edge_probe_result"] = e.above.Result.Value.String()
	m["edge_probe_overflows"] = fmt.Sprint(e.above.Overflow)
	if e.ok {
		m["overflow_start"] = exact(e.start)
		m["overflow_start_inclusive"] = fmt.Sprint(e.inclusive)
	}
}

// drawNumberLine shows the selected value among its neighbours on a linear
// axis whose ticks are the representable values, with the typed number and
// the arrow to where it rounds. When the window reaches ±max it runs on past
// it: the step with no code, the tie halfway to it, what rounds back to max
// and where overflow begins, shaded, in the current mode.
func (s *explorer) drawNumberLine(dst *image.RGBA, st style, r image.Rectangle) {
	if r.Dy() < st.px(60) {
		return
	}
	v := s.f.Decode(s.code())
	ex := s.explain
	hasX := ex != nil && !math.IsNaN(float64(ex.Input)) && !math.IsInf(float64(ex.Input), 0)
	var x float64
	if hasX {
		x = float64(ex.Input)
	}
	vals := finiteValues(s.f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		if !hasX { // a NaN or ∞ code chosen by hand
			ts := st.muted()
			ts.VAlign = plot.AlignTop
			plot.DrawText(dst, "NaN and ∞ have no place on the number line.", float64(r.Min.X), float64(r.Min.Y+st.px(20)), ts)
			return
		}
		v = math.Copysign(vals[len(vals)-1], x) // an overflow: look at the edge it crossed
	}
	i := sort.SearchFloat64s(vals, v)
	lo, hi := max(i-3, 0), min(i+3, len(vals)-1)
	a, b := vals[lo], vals[hi]
	e := s.edge
	sgn := 0.0 // the side whose edge is in view
	switch {
	case !s.edgeOK:
	case hi == len(vals)-1 && vals[hi] == e.max:
		sgn = 1
	case lo == 0 && vals[0] == -e.max:
		sgn = -1
	}
	ticks := make([]plot.Tick, 0, hi-lo+3)
	for _, t := range vals[lo : hi+1] {
		ticks = append(ticks, plot.Tick{Value: t, Label: short(t)})
	}
	if sgn != 0 {
		far := sgn * (e.next + 0.75*(e.next-e.max))
		a, b = math.Min(a, far), math.Max(b, far)
		ticks = append(ticks, plot.Tick{Value: sgn * e.mid, Label: short(sgn * e.mid)}, plot.Tick{Value: sgn * e.next, Label: short(sgn * e.next)})
	}
	// A typed value far beyond the window is drawn at its border.
	xin := x
	if hasX {
		if sgn != 0 && math.Abs(x) > e.next+0.75*(e.next-e.max) {
			xin = math.Copysign(math.Min(math.Abs(x), e.next+0.75*(e.next-e.max)), x)
		}
		a, b = math.Min(a, xin), math.Max(b, xin)
	}
	pad := (b - a) * 0.06
	if pad == 0 {
		pad = 1
	}
	if sgn > 0 {
		b -= pad // the overflow zone runs to the border
	} else if sgn < 0 {
		a += pad
	}
	xs, err := newTickScale(a-pad, b+pad, ticks)
	if err != nil {
		return
	}
	ys, _ := newTickScale(0, 1, nil)
	th := st.th
	title := "Where it lies: neighbouring values"
	if sgn != 0 {
		title = "Where it lies: max, and beyond"
	}
	// Where the strip is short (a projector's canvas, the desktop app),
	// its title gives way: the labels of its zones say what it shows.
	ax, err := plot.NewAxes(r, xs, ys, plot.AxesOptions{Title: title, XLabel: "value", Theme: &th, HideYGrid: true})
	if err == nil && ax.Plot.Dy() < st.px(60) {
		err = plot.ErrTooSmall
	}
	if err != nil {
		if ax, err = plot.NewAxes(r, xs, ys, plot.AxesOptions{XLabel: "value", Theme: &th, HideYGrid: true}); err != nil {
			return
		}
	}
	ax.Draw(dst)
	clip := ax.Clip(dst)
	mid := float64(ax.Plot.Min.Y+ax.Plot.Max.Y) / 2
	x0, x1 := float64(ax.Plot.Min.X), float64(ax.Plot.Max.X)
	// Everything drawn on the line is recorded as data (MarkData), so that
	// the labels placed last (placeLabel) keep off it and off each other.
	mark := func(l, t, r, b float64) {
		ax.MarkData(image.Rect(int(math.Floor(l)), int(math.Floor(t)), int(math.Ceil(r)), int(math.Ceil(b))))
	}
	var labels []stripLabel
	if sgn != 0 {
		labels = s.drawEdge(clip, st, ax, sgn, mid, mark)
	}
	plot.Line(clip, x0, mid, x1, mid, st.pxf(2), st.th.Frame)
	mark(x0, mid-st.pxf(1.5), x1, mid+st.pxf(1.5))
	for _, t := range vals[lo : hi+1] {
		p := ax.X.Map(t)
		plot.Line(clip, p, mid-st.pxf(10), p, mid+st.pxf(10), st.pxf(2), st.th.Frame)
		mark(p-st.pxf(1.5), mid-st.pxf(10.5), p+st.pxf(1.5), mid+st.pxf(10.5))
	}
	p := ax.X.Map(v)
	if c := s.f.Decode(s.code()); !math.IsNaN(c) && !math.IsInf(c, 0) {
		plot.FillCircle(clip, p, mid, st.pxf(9), exponentColor)
		mark(p-st.pxf(9.5), mid-st.pxf(9.5), p+st.pxf(9.5), mid+st.pxf(9.5))
	}
	if hasX {
		px := ax.X.Map(xin)
		plot.FillPolygon(clip, []plot.Point{{X: px, Y: mid - st.pxf(14)}, {X: px - st.pxf(7), Y: mid - st.pxf(26)}, {X: px + st.pxf(7), Y: mid - st.pxf(26)}}, plot.Vermillion)
		mark(px-st.pxf(7.5), mid-st.pxf(26.5), px+st.pxf(7.5), mid-st.pxf(13.5))
		res := float64(ex.Result.Value)
		if px != p && !math.IsNaN(res) && !math.IsInf(res, 0) {
			plot.Line(clip, px, mid+st.pxf(16), p, mid+st.pxf(16), st.pxf(2), plot.Vermillion)
			dir := 1.0
			if p < px {
				dir = -1
			}
			plot.FillPolygon(clip, []plot.Point{{X: p, Y: mid + st.pxf(16)}, {X: p - dir*st.pxf(9), Y: mid + st.pxf(11)}, {X: p - dir*st.pxf(9), Y: mid + st.pxf(21)}}, plot.Vermillion)
			mark(math.Min(p, px)-st.pxf(1), mid+st.pxf(10.5), math.Max(p, px)+st.pxf(1), mid+st.pxf(21.5))
		}
		// The typed value's label comes first: above its arrowhead, as
		// high as it fits.
		lab := st.text(15, plot.FontBold, plot.Vermillion)
		lab.Align = plot.AlignCenter
		if px > x1-st.pxf(60) {
			lab.Align = plot.AlignRight
		} else if px < x0+st.pxf(60) {
			lab.Align = plot.AlignLeft
		}
		text := "x = " + short(x)
		if xin != x {
			text += " (off the line)"
		}
		labels = append([]stripLabel{{texts: []string{text}, st: lab, at: []labelSpot{{x: px, y: float64(ax.Plot.Min.Y) + st.pxf(4), dy: 1, va: plot.AlignTop}}}}, labels...)
	}
	for _, l := range labels {
		placeLabel(clip, ax, l)
	}
}

// stripLabel is a label of the number line: its text and shorter forms of
// it, best first, and the places to try, best first.
type stripLabel struct {
	texts []string
	st    plot.TextStyle
	at    []labelSpot
	// within, if not empty, is the span of x pixels the label must stay
	// in (its zone).
	within [2]float64
}

// labelSpot is an anchor (x, y) for a label, aligned vertically by va,
// moved a pixel at a time by dy (-1 up, +1 down, 0 not at all) while the
// label stays in the plot.
type labelSpot struct {
	x, y, dy float64
	va       plot.VAlign
}

// placeLabel draws the first form of l, at the first of its places, that
// lies inside the plot area (and its zone) and covers nothing drawn or
// placed on ax before it, and records it there; where there is none (a
// short strip), the label is left out: the text box beside the line says
// the same.
func placeLabel(clip *image.RGBA, ax *plot.Axes, l stripLabel) bool {
	for _, text := range l.texts {
		for _, at := range l.at {
			st := l.st
			st.VAlign = at.va
			for y := at.y; ; y += at.dy {
				box := plot.DrawText(nil, text, at.x, y, st)
				if !box.In(ax.Plot) {
					break
				}
				inZone := l.within == [2]float64{} || (float64(box.Min.X) >= l.within[0] && float64(box.Max.X) <= l.within[1])
				if inZone && ax.Covered(box.Inset(-1)) == 0 {
					plot.DrawText(clip, text, at.x, y, st)
					ax.MarkData(box.Inset(-1))
					return true
				}
				if at.dy == 0 || !inZone {
					break
				}
			}
		}
	}
	return false
}

// drawEdge shades, beyond ±max, the inputs that round back to max and
// those that overflow, and marks the step that has no code and the tie
// halfway to it; it returns their labels (the codec's result in each
// zone, "no code" and "tie") for drawNumberLine to place.
func (s *explorer) drawEdge(clip *image.RGBA, st style, ax *plot.Axes, sgn, mid float64, mark func(l, t, r, b float64)) []stripLabel {
	e := s.edge
	m := s.mode()
	var labels []stripLabel
	lab := st.text(14, plot.FontBold, color.RGBA{})
	lab.Align = plot.AlignCenter
	top, bottom := float64(ax.Plot.Min.Y)+st.pxf(4), float64(ax.Plot.Max.Y)-st.pxf(4)
	// zone shades [from, to] (in magnitudes) and labels it with what its
	// inputs become: below the line, else above it.
	zone := func(from, to float64, fill, ink color.RGBA, texts ...string) {
		p0, p1 := ax.X.Map(sgn*from), ax.X.Map(sgn*to)
		if p0 > p1 {
			p0, p1 = p1, p0
		}
		p0, p1 = math.Max(p0, float64(ax.Plot.Min.X)), math.Min(p1, float64(ax.Plot.Max.X))
		plot.FillRect(clip, image.Rect(int(math.Round(p0)), ax.Plot.Min.Y, int(math.Round(p1)), ax.Plot.Max.Y), fill)
		lab.Color = ink
		cx := (p0 + p1) / 2
		labels = append(labels, stripLabel{texts: texts, st: lab, within: [2]float64{p0 + 2, p1 - 2},
			at: []labelSpot{{x: cx, y: bottom, dy: -1, va: plot.AlignBottom}, {x: cx, y: top, dy: 1, va: plot.AlignTop}}})
	}
	far := e.next + 2*(e.next-e.max)
	if e.ok && e.start > e.max {
		// Inputs between max and the start of overflow round back to max.
		back, _ := s.f.Explain((e.max+e.start)/2, m)
		zone(e.max, e.start, plot.WithAlpha(plot.Blue, 0x22), plot.Blue, "→ "+short(sgn*float64(back.Result.Value)))
	}
	if e.ok {
		res := e.above
		if e.start == e.max {
			res, _ = s.f.Explain((e.max+e.mid)/2, m)
		}
		to := "→ " + short(sgn*float64(res.Result.Value))
		zone(e.start, far, plot.WithAlpha(plot.Vermillion, 0x30), plot.Vermillion, "overflow "+to, to)
	}
	// The step with no code: a dashed tick, and the tie halfway to it.
	pn := int(math.Round(ax.X.Map(sgn * e.next)))
	plot.DashedVLine(clip, pn, int(mid-st.pxf(12)), int(mid+st.pxf(12)), max(2, st.px(3)), max(2, st.px(3)), st.th.MutedText)
	mark(float64(pn)-st.pxf(1.5), mid-st.pxf(12.5), float64(pn)+st.pxf(1.5), mid+st.pxf(12.5))
	pm := ax.X.Map(sgn * e.mid)
	plot.DrawMarker(clip, plot.MarkerDiamond, pm, mid, st.pxf(10), plot.Orange)
	mark(pm-st.pxf(10.5), mid-st.pxf(10.5), pm+st.pxf(10.5), mid+st.pxf(10.5))
	note := st.text(13, plot.FontRegular, st.th.MutedText)
	note.Align = plot.AlignCenter
	tie := note
	tie.Color = plot.Hex(0x8a5a00)
	return append(labels,
		stripLabel{texts: []string{"no code"}, st: note, at: []labelSpot{{x: float64(pn), y: mid - st.pxf(14), dy: -1, va: plot.AlignBottom}}},
		stripLabel{texts: []string{"tie"}, st: tie, at: []labelSpot{{x: pm, y: mid - st.pxf(14), dy: -1, va: plot.AlignBottom}}})
}
