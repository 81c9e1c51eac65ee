package plot

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/fp8lab/fp8lab/viz/plot/internal/observe"
)

// LegendKind is the kind of key drawn next to a legend label.
type LegendKind int

// Legend key kinds. The zero value, LegendLine, draws a short line.
const (
	LegendLine   LegendKind = iota // A short line (with its marker, if any).
	LegendSwatch                   // A filled square, for bars, bands and heatmaps.
	LegendMarker                   // A marker alone, for scatter series.
)

// LegendEntry is one row of a legend.
type LegendEntry struct {
	Label  string
	Color  color.RGBA // Zero means the theme's foreground.
	Kind   LegendKind
	Width  float64   // Line width for LegendLine; 0 means the theme's.
	Dash   []float64 // Dash pattern for LegendLine.
	Marker Marker    // Marker for LegendLine and LegendMarker (default circle).
}

// Corner names a corner of a rectangle.
type Corner int

// Corners. The zero value is TopRight.
const (
	TopRight Corner = iota
	TopLeft
	BottomLeft
	BottomRight
)

// Legend layout, in pixels at the theme's default tick size (14 px); a
// legend scales with its text (legendMetrics), so that a small picture's
// legend is as compact as its text.
const (
	legendPad     = 8  // inside the box
	legendMargin  = 8  // between the box and the area's edge
	legendKeyW    = 28 // width of the key column
	legendKeyGap  = 8  // key to label
	legendRowGap  = 4  // between rows
	legendMinRow  = 14 // the least row height
	legendBorderW = 1
)

// legendMetrics is the legend layout for a theme, in pixels.
type legendMetrics struct{ pad, margin, keyW, keyGap, rowGap, rowH int }

func metricsFor(t *Theme) legendMetrics {
	k := t.TickSize / 14
	if !(k > 0) {
		k = 1
	}
	px := func(v float64) int { return max(1, int(math.Round(v*k))) }
	return legendMetrics{
		pad: px(legendPad), margin: px(legendMargin), keyW: px(legendKeyW), keyGap: px(legendKeyGap), rowGap: px(legendRowGap),
		rowH: max(MeasureText("Xg", t.tickStyle()).Height(), px(legendMinRow)),
	}
}

// legendSize returns the width and height of the legend box of entries.
func legendSize(entries []LegendEntry, t *Theme) image.Point {
	ts := t.tickStyle()
	m := metricsFor(t)
	textW := 0
	for _, e := range entries {
		textW = max(textW, MeasureText(e.Label, ts).Width)
	}
	return image.Pt(2*m.pad+m.keyW+m.keyGap+textW, 2*m.pad+len(entries)*m.rowH+(len(entries)-1)*m.rowGap)
}

// cornerBox returns the box of size sz in the given corner of area, margin
// pixels from its edges.
func cornerBox(area image.Rectangle, corner Corner, sz image.Point, margin int) image.Rectangle {
	var at image.Point
	switch corner {
	case TopLeft:
		at = image.Pt(area.Min.X+margin, area.Min.Y+margin)
	case BottomLeft:
		at = image.Pt(area.Min.X+margin, area.Max.Y-margin-sz.Y)
	case BottomRight:
		at = image.Pt(area.Max.X-margin-sz.X, area.Max.Y-margin-sz.Y)
	default:
		at = image.Pt(area.Max.X-margin-sz.X, area.Min.Y+margin)
	}
	return image.Rectangle{Min: at, Max: at.Add(sz)}
}

// DrawLegend draws a legend box with one row per entry in the given corner
// of area, and returns the box. It fails if there are no entries.
func DrawLegend(dst *image.RGBA, area image.Rectangle, corner Corner, entries []LegendEntry, th *Theme) (image.Rectangle, error) {
	if dst == nil {
		return image.Rectangle{}, fmt.Errorf("plot: legend: %w", ErrNilImage)
	}
	if len(entries) == 0 {
		return image.Rectangle{}, fmt.Errorf("plot: legend: %w: no entries", ErrEmptyData)
	}
	t := themeOrDefault(th)
	box := cornerBox(area.Canon(), corner, legendSize(entries, &t), metricsFor(&t).margin)
	drawLegendBox(dst, box, entries, &t)
	placedBeside(dst, box)
	return box, nil
}

// drawLegendBox draws the legend of entries in box.
func drawLegendBox(dst *image.RGBA, box image.Rectangle, entries []LegendEntry, t *Theme) {
	ts := t.tickStyle()
	ts.VAlign = AlignMiddle
	m := metricsFor(t)
	k := t.TickSize / 14
	FillRect(dst, box, t.LegendFill)
	StrokeRect(dst, box, legendBorderW, t.Grid)
	for i, e := range entries {
		top := box.Min.Y + m.pad + i*(m.rowH+m.rowGap)
		cy := float64(top) + float64(m.rowH)/2
		kx0 := float64(box.Min.X + m.pad)
		kx1 := kx0 + float64(m.keyW)
		s := min(m.rowH-2, max(1, int(math.Round(14*k))))
		x0, y0 := int(kx0)+(m.keyW-s)/2, top+(m.rowH-s)/2
		drawLegendKey(dst, e, t, legendKey{
			x0: kx0, x1: kx1, y: cy,
			swatch:     image.Rect(x0, y0, x0+s, y0+s),
			marker:     8 * k,
			lineMarker: func(w float64) float64 { return 3*w + 2*k },
		})
		DrawText(dst, e.Label, kx1+float64(m.keyGap), cy, ts)
	}
}

// Legend draws a legend where it hides no data drawn on the axes since Draw
// (see Covered): in a row above the plot area if NewAxes left a strip
// there for it (see AxesOptions.Legend), else in the given corner of the plot area if that is free, else
// in the first free other corner, else at the free place nearest to that
// corner, else beside the plot area in a margin of the outer rectangle wide
// enough for it; a legend that fits nowhere is left out rather than hide
// data (a picture too small for it), and the box returned is empty. It
// fails if there are no entries.
func (a *Axes) Legend(dst *image.RGBA, corner Corner, entries []LegendEntry) (image.Rectangle, error) {
	if dst == nil {
		return image.Rectangle{}, fmt.Errorf("plot: legend: %w", ErrNilImage)
	}
	if len(entries) == 0 {
		return image.Rectangle{}, fmt.Errorf("plot: legend: %w: no entries", ErrEmptyData)
	}
	t := a.Theme
	if a.strip > 0 {
		x0, w := a.stripSpan()
		box := drawInlineLegend(dst, x0, a.Plot.Min.Y-a.strip, w, entries, t.tickStyle(), &t)
		a.placed(dst, observe.Placement{Kind: observe.Legend, Box: box}, func() int { return a.Covered(box) })
		return box, nil
	}
	box, ok := a.legendPlace(corner, legendSize(entries, &t))
	if !ok {
		a.placed(dst, observe.Placement{Kind: observe.Legend, Omitted: true}, nil)
		return image.Rectangle{}, nil
	}
	target := dst
	if box.In(a.Plot) {
		target = a.Clip(dst)
	}
	drawLegendBox(target, box, entries, &t)
	a.placed(dst, observe.Placement{Kind: observe.Legend, Box: box}, func() int { return a.Covered(box.Inset(-1)) })
	return box, nil
}

// stripSpan returns where the legend strip above the plot starts and how
// wide it is: over the plot area, or, where an entry is wider than that (a
// narrow plot), from further left, over the tick labels, as far as the
// outer rectangle allows.
func (a *Axes) stripSpan() (x0, width int) {
	x0, width = a.Plot.Min.X, max(a.Plot.Dx(), 1)
	widest := 0
	for _, e := range a.opts.Legend {
		widest = max(widest, MeasureInlineLegend(1<<20, []LegendEntry{e}, a.Theme.tickStyle(), &a.Theme).X)
	}
	if widest > width {
		x0 = max(a.Outer.Min.X+outerPad, a.Plot.Max.X-widest)
		width = a.Plot.Max.X - x0
	}
	return x0, width
}

// HasLegendStrip reports whether NewAxes left a strip above the plot area
// for the entries of AxesOptions.Legend, where Legend always finds room;
// without it Legend may leave a legend out when the data fill the plot.
func (a *Axes) HasLegendStrip() bool {
	if !a.ready() {
		return false
	}
	return a.strip > 0
}

// legendPlace chooses the legend box of size sz as Legend documents; it
// reports false if no place is free.
func (a *Axes) legendPlace(corner Corner, sz image.Point) (image.Rectangle, bool) {
	p := a.Plot
	// The border pixel around the box must be free too: data touching the
	// frame would read as part of it.
	free := func(b image.Rectangle) bool { return b.In(p) && a.Covered(b.Inset(-1)) == 0 }
	margin := metricsFor(&a.Theme).margin
	first := cornerBox(p, corner, sz, margin)
	if free(first) {
		return first, true
	}
	for _, c := range []Corner{TopRight, TopLeft, BottomLeft, BottomRight} {
		if b := cornerBox(p, c, sz, margin); c != corner && free(b) {
			return b, true
		}
	}
	// Scan positions on a grid, nearest to the preferred corner first.
	step := max(4, min(p.Dx(), p.Dy())/32)
	best, bestD := image.Rectangle{}, math.Inf(1)
	for y := p.Min.Y + margin; y+sz.Y <= p.Max.Y-margin; y += step {
		for x := p.Min.X + margin; x+sz.X <= p.Max.X-margin; x += step {
			b := image.Rectangle{Min: image.Pt(x, y), Max: image.Pt(x+sz.X, y+sz.Y)}
			d := math.Hypot(float64(b.Min.X-first.Min.X), float64(b.Min.Y-first.Min.Y))
			if d < bestD && free(b) {
				best, bestD = b, d
			}
		}
	}
	if !best.Empty() {
		return best, true
	}
	// Beside the plot, in the right margin.
	if a.Outer.Max.X-p.Max.X >= sz.X+2*margin && p.Dy() >= sz.Y {
		return image.Rectangle{Min: image.Pt(p.Max.X+margin, p.Min.Y), Max: image.Pt(p.Max.X+margin+sz.X, p.Min.Y+sz.Y)}, true
	}
	return image.Rectangle{}, false
}

// DrawInlineLegend draws legend entries side by side in a row starting at
// (x, y) (the top-left corner), wrapping to a new row before maxWidth pixels
// are exceeded, with no box around them; it returns the rectangle used.
// Keys are as in DrawLegend; the text style st sets the label size (zero
// size means the theme's tick size) and colour.
func DrawInlineLegend(dst *image.RGBA, x, y, maxWidth int, entries []LegendEntry, st TextStyle, th *Theme) image.Rectangle {
	r := drawInlineLegend(dst, x, y, maxWidth, entries, st, th)
	if dst != nil {
		placedBeside(dst, r)
	}
	return r
}

// drawInlineLegend is DrawInlineLegend, unobserved: for the strip of
// Axes.Legend and for measuring.
func drawInlineLegend(dst *image.RGBA, x, y, maxWidth int, entries []LegendEntry, st TextStyle, th *Theme) image.Rectangle {
	t := themeOrDefault(th)
	if st.Size == 0 {
		st.Size = t.TickSize
	}
	if st.Color == (TextStyle{}).Color {
		st.Color = t.Foreground
	}
	st.Align, st.VAlign = AlignLeft, AlignMiddle
	h := MeasureText("Xg", st).Height()
	key := int(math.Round(st.Size * 1.6))
	gap := int(math.Round(st.Size * 0.4))
	sep := int(math.Round(st.Size * 1.3))
	cx, cy := x, y
	used := image.Rect(x, y, x, y)
	for _, e := range entries {
		w := key + gap + MeasureText(e.Label, st).Width
		if cx > x && cx+w > x+maxWidth {
			cx, cy = x, cy+h+gap
		}
		mid := float64(cy) + float64(h)/2
		s := int(math.Round(st.Size * 0.9))
		sx, sy := cx+(key-s)/2, int(mid)-s/2
		drawLegendKey(dst, e, &t, legendKey{
			x0: float64(cx), x1: float64(cx + key), y: mid,
			swatch:     image.Rect(sx, sy, sx+s, sy+s),
			marker:     st.Size * 0.7,
			lineMarker: func(float64) float64 { return st.Size * 0.6 },
		})
		r := DrawText(dst, e.Label, float64(cx+key+gap), mid, st)
		used = used.Union(image.Rect(cx, cy, r.Max.X, cy+h))
		cx += w + sep
	}
	return used
}

// MeasureInlineLegend returns the size DrawInlineLegend would cover with
// the same arguments, without drawing anything: callers reserve room for a
// legend that wraps onto as many lines as its width needs.
func MeasureInlineLegend(maxWidth int, entries []LegendEntry, st TextStyle, th *Theme) image.Point {
	scratch := image.NewRGBA(image.Rect(0, 0, 1, 1)) // every primitive clips to it
	return drawInlineLegend(scratch, 0, 0, maxWidth, entries, st, th).Size()
}

// legendKey places the key of one legend entry.
type legendKey struct {
	x0, x1, y  float64                     // a LegendLine runs from (x0, y) to (x1, y)
	swatch     image.Rectangle             // the square of a LegendSwatch
	marker     float64                     // the size of a LegendMarker's marker
	lineMarker func(width float64) float64 // a LegendLine's marker size for its width
}

// drawLegendKey draws the key of e: a swatch, a marker alone, or a line of
// e.Width (the theme's line width if that is not positive) with e.Dash and
// its marker in the middle. The entry's zero colour means the theme's
// foreground; a LegendMarker entry with no marker gets a circle.
func drawLegendKey(dst *image.RGBA, e LegendEntry, t *Theme, k legendKey) {
	c := e.Color
	if c == (color.RGBA{}) {
		c = t.Foreground
	}
	mid := (k.x0 + k.x1) / 2
	switch e.Kind {
	case LegendSwatch:
		FillRect(dst, k.swatch, c)
	case LegendMarker:
		m := e.Marker
		if m == MarkerNone {
			m = MarkerCircle
		}
		DrawMarker(dst, m, mid, k.y, k.marker, c)
	default:
		w := e.Width
		if !(w > 0) {
			w = t.LineWidth
		}
		DashedPolyline(dst, []Point{{k.x0, k.y}, {k.x1, k.y}}, w, e.Dash, c)
		if e.Marker != MarkerNone {
			DrawMarker(dst, e.Marker, mid, k.y, k.lineMarker(w), c)
		}
	}
}
