package plot

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/fp8lab/fp8lab/viz/plot/internal/observe"
)

// BarStyle says how to draw histogram and bar chart bars.
type BarStyle struct {
	Fill      color.RGBA // Zero means Blue.
	Edge      color.RGBA // Outline colour; zero means no outline.
	EdgeWidth int        // Outline width in pixels; 0 means 1 when Edge is set.
}

func (st BarStyle) withDefaults() BarStyle {
	if st.Fill == (color.RGBA{}) {
		st.Fill = Blue
	}
	if st.Edge != (color.RGBA{}) && st.EdgeWidth <= 0 {
		st.EdgeWidth = 1
	}
	return st
}

// spanPixels returns the half-open pixel interval [i0, i1) whose pixel
// centres lie between pixel coordinates a and b (either order), widened to
// one pixel if it would be empty.
func spanPixels(a, b float64) (int, int) {
	if a > b {
		a, b = b, a
	}
	i0 := int(math.Ceil(a - 0.5))
	i1 := int(math.Ceil(b - 0.5))
	if i1 <= i0 {
		i1 = i0 + 1
	}
	return i0, i1
}

// baselinePixel is the pixel y of the bars' base: y=0 when the y scale can
// place it inside the plot, else the nearer plot edge (the bottom on log
// scales).
func (a *Axes) baselinePixel() float64 {
	y0 := a.Y.Map(0)
	p0, p1 := a.Y.Range()
	lo, hi := math.Min(p0, p1), math.Max(p0, p1)
	if math.IsNaN(y0) {
		return p0
	}
	return math.Min(math.Max(y0, lo), hi)
}

// fillBar draws one bar between pixel x positions xa, xb from the baseline
// to pixel y position yTop.
func (a *Axes) fillBar(clip *image.RGBA, xa, xb, yBase, yTop float64, st BarStyle) {
	if !finite(xa) || !finite(xb) || !finite(yTop) {
		return
	}
	// Keep far-away coordinates in int range.
	lim := func(v float64) float64 { return math.Min(math.Max(v, -1e6), 1e6) }
	x0, x1 := spanPixels(lim(xa), lim(xb))
	y0, y1 := spanPixels(lim(yTop), lim(yBase))
	r := image.Rect(x0, y0, x1, y1)
	a.occ().markRect(r)
	FillRect(clip, r, st.Fill)
	if st.EdgeWidth > 0 {
		StrokeRect(clip, r, st.EdgeWidth, st.Edge)
	}
}

// Histogram draws bars for bins [edges[i], edges[i+1]) with heights
// counts[i]; len(edges) must be len(counts)+1. Bars rise from y=0 (or the
// bottom of the plot when the y scale is logarithmic, where counts ≤ 0 are
// left out). Bins with non-finite edges or counts are skipped. Adjacent bars
// share their edge pixel exactly, with no gaps or overlaps.
func (a *Axes) Histogram(dst *image.RGBA, edges, counts []float64, st BarStyle) error {
	if len(counts) == 0 {
		return fmt.Errorf("plot: histogram: %w", ErrEmptyData)
	}
	if len(edges) != len(counts)+1 {
		return fmt.Errorf("plot: histogram: %w: %d edges for %d counts (want counts+1)", ErrLengthMismatch, len(edges), len(counts))
	}
	st = st.withDefaults()
	clip := a.Clip(dst)
	base := a.baselinePixel()
	for i, c := range counts {
		if !finite(c) {
			continue
		}
		a.fillBar(clip, a.X.Map(edges[i]), a.X.Map(edges[i+1]), base, a.Y.Map(c), st)
	}
	return nil
}

// Bars draws a bar of the given width (in x data units) centred on each
// xs[i] with height heights[i], as for a BandScale where category i sits at
// x = i and width 0.8 leaves a gap between bars. Non-finite values are
// skipped.
func (a *Axes) Bars(dst *image.RGBA, xs, heights []float64, width float64, st BarStyle) error {
	if !a.ready() {
		return errNoAxes
	}
	if err := checkXY("bars", xs, heights); err != nil {
		return err
	}
	if !(width > 0) || math.IsInf(width, 0) {
		return fmt.Errorf("plot: bars: %w: width %g", ErrBadArgument, width)
	}
	st = st.withDefaults()
	clip := a.Clip(dst)
	base := a.baselinePixel()
	for i, x := range xs {
		if !finite(x) || !finite(heights[i]) {
			continue
		}
		a.fillBar(clip, a.X.Map(x-width/2), a.X.Map(x+width/2), base, a.Y.Map(heights[i]), st)
	}
	return nil
}

// HBars draws horizontal bars: for each i a bar of thickness height (data
// units of y) centred on ys[i], from x=0 (or the plot's left edge when
// the x scale cannot place 0, as on a log scale) to lengths[i]. Points
// with non-finite values are skipped.
func (a *Axes) HBars(dst *image.RGBA, ys, lengths []float64, height float64, st BarStyle) error {
	if !a.ready() {
		return errNoAxes
	}
	if err := checkXY("bars", ys, lengths); err != nil {
		return err
	}
	if !(height > 0) || math.IsInf(height, 0) {
		return fmt.Errorf("plot: bars: %w: height %g", ErrBadArgument, height)
	}
	st = st.withDefaults()
	clip := a.Clip(dst)
	base := a.X.Map(0)
	p0, p1 := a.X.Range()
	if math.IsNaN(base) {
		base = p0
	}
	base = math.Min(math.Max(base, math.Min(p0, p1)), math.Max(p0, p1))
	lim := func(v float64) float64 { return math.Min(math.Max(v, -1e6), 1e6) }
	for i, y := range ys {
		end := a.X.Map(lengths[i])
		ya, yb := a.Y.Map(y+height/2), a.Y.Map(y-height/2)
		if !finite(y) || !finite(end) || !finite(ya) || !finite(yb) {
			continue
		}
		x0, x1 := spanPixels(lim(math.Min(base, end)), lim(math.Max(base, end)))
		y0, y1 := spanPixels(lim(math.Min(ya, yb)), lim(math.Max(ya, yb)))
		r := image.Rect(x0, y0, x1, y1)
		a.occ().markRect(r)
		FillRect(clip, r, st.Fill)
		if st.EdgeWidth > 0 {
			StrokeRect(clip, r, st.EdgeWidth, st.Edge)
		}
	}
	return nil
}

// VBand shades the full-height band between x0 and x1 (data units), such as
// the window of magnitudes a format can represent, and writes label (if
// any) centred at the top of its visible part. A zero fill means translucent sky blue; use
// a translucent colour (see WithAlpha) to keep the grid visible.
func (a *Axes) VBand(dst *image.RGBA, x0, x1 float64, fill color.RGBA, label string) {
	if !a.ready() {
		return
	}
	if fill == (color.RGBA{}) {
		fill = WithAlpha(SkyBlue, 0x40)
	}
	c0, c1, ok := bandPixels(a.X, x0, x1)
	if !ok {
		return
	}
	clip := a.Clip(dst)
	r := image.Rect(c0, a.Plot.Min.Y, c1, a.Plot.Max.Y).Intersect(a.Plot)
	FillRect(clip, r, fill)
	if label != "" && !r.Empty() {
		ts := a.Theme.tickStyle()
		ts.Color, ts.Align, ts.VAlign = a.Theme.MutedText, AlignCenter, AlignTop
		a.labelBox(clip, label, []labelAt{{x: float64(r.Min.X+r.Max.X) / 2, y: float64(r.Min.Y + 4), dy: a.labelStep(ts), st: ts}})
	}
}

// bandPixels maps the data span [v0, v1] through sc to a pixel span,
// clamping far-off positions so that a band reaching past the plot stays
// drawable; ok is false when either end cannot be placed (e.g. <= 0 on a
// log axis).
func bandPixels(sc Scale, v0, v1 float64) (p0, p1 int, ok bool) {
	pa, pb := sc.Map(v0), sc.Map(v1)
	if !finite(pa) || !finite(pb) {
		return 0, 0, false
	}
	lim := func(v float64) float64 { return math.Min(math.Max(v, -1e6), 1e6) }
	p0, p1 = spanPixels(lim(pa), lim(pb))
	return p0, p1, true
}

// HBand shades the full-width band between y0 and y1 (data units) and
// writes label (if any) at its top-left corner.
func (a *Axes) HBand(dst *image.RGBA, y0, y1 float64, fill color.RGBA, label string) {
	if !a.ready() {
		return
	}
	if fill == (color.RGBA{}) {
		fill = WithAlpha(SkyBlue, 0x40)
	}
	r0, r1, ok := bandPixels(a.Y, y0, y1)
	if !ok {
		return
	}
	clip := a.Clip(dst)
	r := image.Rect(a.Plot.Min.X, r0, a.Plot.Max.X, r1).Intersect(a.Plot)
	FillRect(clip, r, fill)
	if label != "" && !r.Empty() {
		ts := a.Theme.tickStyle()
		ts.Color, ts.VAlign = a.Theme.MutedText, AlignTop
		a.labelBox(clip, label, []labelAt{{x: float64(r.Min.X + 4), y: float64(r.Min.Y + 4), dx: a.labelStep(ts), st: ts}})
	}
}

// labelAt is a place to try for a label: text style st anchored at (x, y),
// rotated to read upwards if rotated (see DrawTextRotated), then moved
// step by step by (dx, dy) pixels while it stays in the plot.
type labelAt struct {
	x, y, dx, dy float64
	st           TextStyle
	rotated      bool
}

// draw draws s at the place moved k steps, or only measures it if dst is
// nil, and returns its box.
func (c labelAt) draw(dst *image.RGBA, s string, k float64) image.Rectangle {
	x, y := c.x+k*c.dx, c.y+k*c.dy
	if c.rotated {
		return DrawTextRotated(dst, s, x, y, c.st)
	}
	return DrawText(dst, s, x, y, c.st)
}

// labelBox draws text over a translucent background so that it stays
// readable over grid lines, at the first free place of the first group of
// candidates that has one (trying every candidate of the group at each step
// before the next step): a place inside the plot area where it covers no
// data and no label drawn since the last Draw. A label with no free place
// is left out rather than hide data, and the box returned is empty. Every
// label is reported to the observers of placements (see observed.go).
func (a *Axes) labelBox(dst *image.RGBA, s string, groups ...[]labelAt) image.Rectangle {
	for _, cands := range groups {
		for k := 0.0; ; k++ {
			inside := false // some candidate still lies in the plot
			for _, c := range cands {
				box := c.draw(nil, s, k)
				if !box.In(a.Plot) {
					continue
				}
				inside = true
				if !a.labelFree(box) {
					continue
				}
				a.takeLabel(dst, box, s, func(dst *image.RGBA) { c.draw(dst, s, k) })
				return box
			}
			if !inside {
				break
			}
		}
	}
	a.placed(dst, observe.Placement{Kind: observe.Label, Omitted: true, Text: s}, nil)
	return image.Rectangle{}
}

// labelFree reports whether a label's box lies in the plot area with a
// free border of 2 pixels: no data, no other label.
func (a *Axes) labelFree(box image.Rectangle) bool {
	return box.In(a.Plot) && a.occ().count(box.Inset(-2)) == 0
}

// takeLabel records box as the label s, paints its translucent background
// and the text (draw), and reports the placement.
func (a *Axes) takeLabel(dst *image.RGBA, box image.Rectangle, s string, draw func(*image.RGBA)) {
	a.labels = append(a.labels, box)
	a.occ().mark(box.Inset(-2), occLabel)
	FillRect(dst, box.Inset(-2), a.Theme.LegendFill)
	draw(dst)
	a.placed(dst, observe.Placement{Kind: observe.Label, Box: box, Text: s}, nil)
}

// Note writes s, a remark about the whole chart, inside the plot area like
// a marker's label: where it covers no data and no label drawn since Draw,
// over the labels' translucent background, as near the given corner as a
// free place is (the rows nearest to it first, and in a row the place
// nearest to it). A note with no free place is left out rather than hide
// data, and the box returned is empty. A zero colour means the theme's
// foreground; the corner sets st's alignment.
func (a *Axes) Note(dst *image.RGBA, s string, corner Corner, st TextStyle) image.Rectangle {
	if !a.ready() {
		return image.Rectangle{}
	}
	if st.Color == (color.RGBA{}) {
		st.Color = a.Theme.Foreground
	}
	st.Align, st.VAlign = AlignLeft, AlignTop
	// Measured once at the plot's top-left corner, then moved.
	box0 := DrawText(nil, s, float64(a.Plot.Min.X), float64(a.Plot.Min.Y), st)
	off := box0.Min.Sub(a.Plot.Min) // the glyphs' offset from the anchor
	m := metricsFor(&a.Theme).margin
	step := max(1, int(a.labelStep(st)))
	x0, x1 := a.Plot.Min.X+m, a.Plot.Max.X-m-box0.Dx()
	y0, y1 := a.Plot.Min.Y+m, a.Plot.Max.Y-m-box0.Dy()
	right := corner == TopRight || corner == BottomRight
	bottom := corner == BottomLeft || corner == BottomRight
	for j := 0; y0+j*step <= y1; j++ {
		y := y0 + j*step
		if bottom {
			y = y1 - j*step
		}
		for i := 0; x0+i*step <= x1; i++ {
			x := x0 + i*step
			if right {
				x = x1 - i*step
			}
			box := box0.Add(image.Pt(x, y).Sub(box0.Min))
			if !a.labelFree(box) {
				continue
			}
			at := image.Pt(x, y).Sub(off)
			a.takeLabel(a.Clip(dst), box, s, func(dst *image.RGBA) { DrawText(dst, s, float64(at.X), float64(at.Y), st) })
			return box
		}
	}
	a.placed(dst, observe.Placement{Kind: observe.Label, Omitted: true, Text: s}, nil)
	return image.Rectangle{}
}

// labelStep is how far a label moves between the places labelBox tries.
func (a *Axes) labelStep(st TextStyle) float64 {
	return math.Max(2, float64(MeasureText("X", st).Height())/4)
}

// VMarker draws a full-height vertical line at x (data units), such as a
// format's max or min normal, with label (if any) near it (see
// VMarkerLabel).
func (a *Axes) VMarker(dst *image.RGBA, x float64, label string, st LineStyle) {
	if !a.ready() {
		return
	}
	st = a.lineDefaults(st)
	px := a.X.Map(x)
	if !finite(px) {
		return
	}
	clip := a.Clip(dst)
	top, bottom := float64(a.Plot.Min.Y), float64(a.Plot.Max.Y)
	line := []Point{{px, bottom}, {px, top}}
	a.occ().markPolyline(line, st.Width/2)
	if len(st.Dash) > 0 {
		DashedPolyline(clip, line, st.Width, st.Dash, st.Color)
	} else {
		Polyline(clip, line, st.Width, st.Color)
	}
	a.VMarkerLabel(dst, x, label, st)
}

// VMarkerLabel writes the label of a vertical marker line at x drawn with
// st (see VMarker) beside the line, as high as it covers no data and no
// other label: to the right of the line, else to the left. Callers that
// draw several markers draw their lines first, then their labels, so that
// no line crosses a label drawn before it.
func (a *Axes) VMarkerLabel(dst *image.RGBA, x float64, label string, st LineStyle) {
	if !a.ready() {
		return
	}
	st = a.lineDefaults(st)
	px := a.X.Map(x)
	if label == "" || !finite(px) {
		return
	}
	ts := a.Theme.tickStyle()
	ts.Color, ts.VAlign = st.Color, AlignTop
	left := ts
	left.Align = AlignRight
	top, step := float64(a.Plot.Min.Y)+4, a.labelStep(ts)
	// Where other lines leave no room across, the label runs up along
	// the line.
	up, upLeft := ts, ts
	up.Align, upLeft.Align, upLeft.VAlign = AlignRight, AlignRight, AlignBottom
	a.labelBox(a.Clip(dst), label,
		[]labelAt{
			{x: px + st.Width/2 + 4, y: top, dy: step, st: ts},
			{x: px - st.Width/2 - 4, y: top, dy: step, st: left}},
		[]labelAt{
			{x: px + st.Width/2 + 4, y: top, dy: step, st: up, rotated: true},
			{x: px - st.Width/2 - 4, y: top, dy: step, st: upLeft, rotated: true}})
}

// HMarker draws a full-width horizontal line at y (data units) with label
// (if any) near it (see HMarkerLabel).
func (a *Axes) HMarker(dst *image.RGBA, y float64, label string, st LineStyle) {
	if !a.ready() {
		return
	}
	st = a.lineDefaults(st)
	py := a.Y.Map(y)
	if !finite(py) {
		return
	}
	clip := a.Clip(dst)
	line := []Point{{float64(a.Plot.Min.X), py}, {float64(a.Plot.Max.X), py}}
	a.occ().markPolyline(line, st.Width/2)
	if len(st.Dash) > 0 {
		DashedPolyline(clip, line, st.Width, st.Dash, st.Color)
	} else {
		Polyline(clip, line, st.Width, st.Color)
	}
	a.HMarkerLabel(dst, y, label, st)
}

// HMarkerLabel writes the label of a horizontal marker line at y drawn
// with st (see HMarker) above the line, else below it, as far right as it
// covers no data and no other label.
func (a *Axes) HMarkerLabel(dst *image.RGBA, y float64, label string, st LineStyle) {
	if !a.ready() {
		return
	}
	st = a.lineDefaults(st)
	py := a.Y.Map(y)
	if label == "" || !finite(py) {
		return
	}
	ts := a.Theme.tickStyle()
	ts.Color, ts.Align, ts.VAlign = st.Color, AlignRight, AlignBottom
	below := ts
	below.VAlign = AlignTop
	// 5 px off the line: clear of a thicker line drawn at the same height.
	right, step := float64(a.Plot.Max.X-4), a.labelStep(ts)
	a.labelBox(a.Clip(dst), label, []labelAt{
		{x: right, y: py - st.Width/2 - 5, dx: -step, st: ts},
		{x: right, y: py + st.Width/2 + 5, dx: -step, st: below}})
}

// Text draws s anchored at data point (x, y), clipped to the plot area. A
// zero colour means the theme's foreground.
func (a *Axes) Text(dst *image.RGBA, x, y float64, s string, st TextStyle) {
	if !a.ready() {
		return
	}
	if st.Color == (color.RGBA{}) {
		st.Color = a.Theme.Foreground
	}
	p := a.Map(x, y)
	if !p.finite() {
		return
	}
	a.occ().markRect(DrawText(a.Clip(dst), s, p.X, p.Y, st))
}
