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

// startText says where overflow begins: "above 464" or "from 61440".
func (e overflowEdge) startText() string {
	if e.inclusive {
		return "from " + exact(e.start)
	}
	return "above " + exact(e.start)
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
	ax, err := plot.NewAxes(r, xs, ys, plot.AxesOptions{Title: title, Theme: &th, HideYGrid: true})
	if err != nil {
		return
	}
	ax.Draw(dst)
	clip := ax.Clip(dst)
	mid := float64(ax.Plot.Min.Y+ax.Plot.Max.Y) / 2
	x0, x1 := float64(ax.Plot.Min.X), float64(ax.Plot.Max.X)
	if sgn != 0 {
		s.drawEdge(clip, st, ax, sgn, mid)
	}
	plot.Line(clip, x0, mid, x1, mid, st.pxf(2), st.th.Frame)
	for _, t := range vals[lo : hi+1] {
		p := ax.X.Map(t)
		plot.Line(clip, p, mid-st.pxf(10), p, mid+st.pxf(10), st.pxf(2), st.th.Frame)
	}
	p := ax.X.Map(v)
	if c := s.f.Decode(s.code()); !math.IsNaN(c) && !math.IsInf(c, 0) {
		plot.FillCircle(clip, p, mid, st.pxf(9), exponentColor)
	}
	if !hasX {
		return
	}
	px := ax.X.Map(xin)
	top := float64(ax.Plot.Min.Y) + st.pxf(8)
	plot.FillPolygon(clip, []plot.Point{{X: px, Y: mid - st.pxf(14)}, {X: px - st.pxf(7), Y: mid - st.pxf(26)}, {X: px + st.pxf(7), Y: mid - st.pxf(26)}}, plot.Vermillion)
	lab := st.text(15, plot.FontBold, plot.Vermillion)
	lab.Align, lab.VAlign = plot.AlignCenter, plot.AlignTop
	if px > x1-st.pxf(60) {
		lab.Align = plot.AlignRight
	} else if px < x0+st.pxf(60) {
		lab.Align = plot.AlignLeft
	}
	text := "x = " + short(x)
	if xin != x {
		text += " (off the line)"
	}
	plot.DrawText(clip, text, px, top, lab)
	res := float64(ex.Result.Value)
	if px != p && !math.IsNaN(res) && !math.IsInf(res, 0) {
		plot.Line(clip, px, mid+st.pxf(16), p, mid+st.pxf(16), st.pxf(2), plot.Vermillion)
		dir := 1.0
		if p < px {
			dir = -1
		}
		plot.FillPolygon(clip, []plot.Point{{X: p, Y: mid + st.pxf(16)}, {X: p - dir*st.pxf(9), Y: mid + st.pxf(11)}, {X: p - dir*st.pxf(9), Y: mid + st.pxf(21)}}, plot.Vermillion)
	}
}

// drawEdge shades, beyond ±max, the inputs that round back to max and
// those that overflow, labels each with the codec's result, and marks the
// step that has no code.
func (s *explorer) drawEdge(clip *image.RGBA, st style, ax *plot.Axes, sgn, mid float64) {
	e := s.edge
	m := s.mode()
	lab := st.text(14, plot.FontBold, color.RGBA{})
	lab.VAlign = plot.AlignBottom
	bottom := float64(ax.Plot.Max.Y) - st.pxf(6)
	// zone shades [from, to] (in magnitudes) and writes what its inputs become.
	zone := func(from, to float64, fill, ink color.RGBA, lines ...string) {
		p0, p1 := ax.X.Map(sgn*from), ax.X.Map(sgn*to)
		if p0 > p1 {
			p0, p1 = p1, p0
		}
		p0, p1 = math.Max(p0, float64(ax.Plot.Min.X)), math.Min(p1, float64(ax.Plot.Max.X))
		plot.FillRect(clip, image.Rect(int(math.Round(p0)), ax.Plot.Min.Y, int(math.Round(p1)), ax.Plot.Max.Y), fill)
		lab.Color, lab.Align = ink, plot.AlignCenter
		cx := (p0 + p1) / 2
		for _, l := range lines {
			if float64(plot.MeasureText(l, lab).Width) > p1-p0 {
				return // too narrow for its label: the box above says it
			}
		}
		for k := len(lines) - 1; k >= 0; k-- {
			r := plot.DrawText(clip, lines[k], cx, bottom, lab)
			bottom = float64(r.Min.Y) - st.pxf(2)
		}
		bottom = float64(ax.Plot.Max.Y) - st.pxf(6)
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
		zone(e.start, far, plot.WithAlpha(plot.Vermillion, 0x30), plot.Vermillion, "overflow", "→ "+short(sgn*float64(res.Result.Value)))
	}
	// The step with no code: a dashed tick, and the tie halfway to it.
	pn := int(math.Round(ax.X.Map(sgn * e.next)))
	plot.DashedVLine(clip, pn, int(mid-st.pxf(12)), int(mid+st.pxf(12)), max(2, st.px(3)), max(2, st.px(3)), st.th.MutedText)
	pm := ax.X.Map(sgn * e.mid)
	plot.DrawMarker(clip, plot.MarkerDiamond, pm, mid, st.pxf(10), plot.Orange)
	if ax.Plot.Dy() < st.px(110) {
		return // too short for notes above the line and labels below it
	}
	note := st.text(13, plot.FontRegular, st.th.MutedText)
	note.Align, note.VAlign = plot.AlignCenter, plot.AlignBottom
	plot.DrawText(clip, "no code", float64(pn), mid-st.pxf(14), note)
	if w := plot.MeasureText("no code", note).Width + plot.MeasureText("tie", note).Width; math.Abs(float64(pn)-pm) > float64(w)/2+st.pxf(6) {
		note.Color = plot.Hex(0x8a5a00)
		plot.DrawText(clip, "tie", pm, mid-st.pxf(14), note)
	}
}
