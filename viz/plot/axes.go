package plot

import (
	"fmt"
	"image"
	"math"
	"sort"

	"github.com/fp8lab/fp8lab/viz/plot/internal/observe"
)

// Layout constants for axes, in pixels.
const (
	tickLength      = 5 // major tick mark length
	minorTickLength = 3
	tickLabelPad    = 4 // gap between tick mark and its label
	axisLabelGap    = 8 // gap between tick labels and the axis label
	outerPad        = 6 // padding inside the outer rectangle
	titleGap        = 8 // gap between the title and the plot
	labelSpacing    = 8 // minimum free space between neighbouring x tick labels
	labelSpacingY   = 2 // between y tick labels, whose line boxes hold their own leading
	minPlotSize     = 16
)

// AxesOptions configures the decorations of an Axes.
type AxesOptions struct {
	Title  string // Bold, centred above the plot area.
	XLabel string // Centred below the x tick labels.
	YLabel string // Rotated, left of the y tick labels.
	Theme  *Theme // Nil means LightTheme().

	HideXGrid bool // No vertical grid lines at x ticks.
	HideYGrid bool // No horizontal grid lines at y ticks.

	// SharedX leaves out the x tick labels (the tick marks stay), for a
	// plot stacked above another over the same x domain, whose axis below
	// labels it: the room goes to the plot.
	SharedX bool

	// noTitleWrap keeps a title wider than the axes on one line, when
	// wrapping it would leave no room for the plot.
	noTitleWrap bool

	// Legend lists the entries the caller will pass to Legend, if any, for
	// a legend that must never hide data whatever the data: NewAxes leaves
	// a strip above the plot area where Legend then writes them in rows,
	// outside the plot, unless that would leave the plot area less than a
	// third of its height (or 32 pixels); where leaving out the title
	// would make room for it, the title is left out.
	Legend []LegendEntry
}

// Axes is a plot area inside a rectangle, with x and y scales fitted to it
// and room around it for ticks, labels and a title.
//
// Make one with NewAxes, call Draw to paint the background, grid, frame,
// ticks and labels, then draw data with the plot methods (Line, Histogram,
// Heatmap, ...), which clip to the plot area. Labels of bands and markers
// drawn after Draw avoid each other, so an Axes belongs to one goroutine
// while it draws.
type Axes struct {
	Outer image.Rectangle // The rectangle given to NewAxes.
	Plot  image.Rectangle // The data area inside the frame.
	X, Y  Scale           // Scales fitted to Plot (y grows upwards).
	Theme Theme
	opts  AxesOptions

	labels []image.Rectangle // marker and band labels drawn since Draw
	xTicks []string          // the x tick labels Draw wrote last (for observers, see axesView)
	yTicks []string          // the y tick labels Draw wrote last
	strip  int               // height of the legend strip above Plot; 0 for none
	data   *occupancy        // pixels of the plot area holding data since Draw
}

// ready reports whether a was made by NewAxes: on nil or the zero Axes the
// drawing methods draw nothing and return errNoAxes or zero values.
func (a *Axes) ready() bool { return a != nil && a.X != nil && a.Y != nil }

// errNoAxes is the error of drawing on axes not made by NewAxes.
var errNoAxes = fmt.Errorf("plot: %w: axes not made by NewAxes", ErrBadArgument)

// NewAxes lays out axes in outer: it measures the tick labels of x and y and
// the texts in opts, sizes the margins to fit them, and fits the scales to
// the remaining plot area. It fails if a scale is nil or outer is too small
// to leave a plot area of at least 16x16 pixels.
func NewAxes(outer image.Rectangle, x, y Scale, opts AxesOptions) (*Axes, error) {
	if x == nil || y == nil {
		return nil, fmt.Errorf("plot: axes: %w: nil scale", ErrBadArgument)
	}
	outer = outer.Canon()
	a := &Axes{Outer: outer, Theme: themeOrDefault(opts.Theme), opts: opts}
	plot := a.layout(x, y, outer)
	if len(opts.Legend) > 0 {
		// Unless the strip would squeeze the plot area to less than a third
		// of its height: then Legend finds a free place or none. A key
		// above a short plot reads better than a taller plot with none.
		a.strip = 1
		if p := a.layout(x, y, plot); p.Dy() >= max(2*minPlotSize, plot.Dy()/3) {
			plot = p
		} else {
			// Where the title's room would make it fit, the title gives
			// way: on a thumbnail the key says more than the title.
			if opts.Title != "" {
				bare := opts
				bare.Title = ""
				if b, err := NewAxes(outer, x, y, bare); err == nil && b.strip > 0 {
					return b, nil
				}
			}
			a.strip = 0
			a.layout(x, y, plot)
		}
	}
	if plot.Dx() < minPlotSize || plot.Dy() < minPlotSize {
		if len(a.titleLines()) > 1 {
			// No room for a wrapped title: keep it on one line.
			opts.noTitleWrap = true
			return NewAxes(outer, x, y, opts)
		}
		return nil, fmt.Errorf("plot: axes in %v: %w: plot area %v", outer, ErrTooSmall, plot)
	}
	return a, nil
}

// layout fits the plot area, starting from plot, until its margins hold
// the tick labels.
func (a *Axes) layout(x, y Scale, plot image.Rectangle) image.Rectangle {
	for range 4 {
		a.fit(x, y, plot)
		next := a.plotRect()
		if next == plot {
			break
		}
		plot = next
	}
	a.fit(x, y, plot)
	return plot
}

// fit sets the plot rectangle and fits the scales to it. Domain ends map to
// the centres of the edge pixels.
func (a *Axes) fit(x, y Scale, plot image.Rectangle) {
	a.Plot = plot
	a.X = x.WithRange(float64(plot.Min.X)+0.5, float64(plot.Max.X)-0.5)
	a.Y = y.WithRange(float64(plot.Max.Y)-0.5, float64(plot.Min.Y)+0.5)
}

// plotRect computes the plot area that leaves room for the current ticks.
func (a *Axes) plotRect() image.Rectangle {
	th := a.Theme
	tick := MeasureText("0", th.tickStyle())
	label := MeasureText("Xy", th.labelStyle())
	yw := 0
	for _, t := range a.Y.Ticks() {
		if t.Label != "" {
			yw = max(yw, MeasureText(t.Label, th.tickStyle()).Width)
		}
	}
	left := outerPad + yw + tickLabelPad + tickLength + 1
	if a.opts.YLabel != "" {
		left += label.Height() + axisLabelGap
	}
	bottom := 1 + tickLength + tickLabelPad + tick.Height() + outerPad
	if a.opts.SharedX {
		bottom = 1 + tickLength + outerPad
	}
	if a.opts.XLabel != "" {
		bottom += axisLabelGap + label.Height()
	}
	right := outerPad + 6
	// The first and last x labels are centred on their ticks and may stick
	// out of the plot area.
	xt := a.X.Ticks()
	for _, t := range xt {
		if t.Label == "" || a.opts.SharedX {
			continue
		}
		half := MeasureText(t.Label, th.tickStyle()).Width/2 + outerPad
		px := a.X.Map(t.Value)
		if finite(px) {
			right = max(right, half-int(float64(a.Plot.Max.X)-px))
			left = max(left, half-int(px-float64(a.Plot.Min.X)))
		}
	}
	top := outerPad + tick.Height()/2
	if lines := a.titleLines(); len(lines) > 0 {
		gap := titleGap
		// A title line wider than the plot area reaches over the y tick
		// labels (a wrapped title on a phone): the top one, centred on the
		// plot's top edge, must stay below it.
		for _, l := range lines {
			if MeasureText(l, th.titleStyle()).Width > a.Outer.Dx()-left-right {
				_, ay := anchorOffset(tick, AlignLeft, AlignMiddle)
				gap = max(gap, ay+1)
			}
		}
		top = outerPad + len(lines)*MeasureText(a.opts.Title, th.titleStyle()).Height() + gap
	}
	if a.strip > 0 {
		ts := th.tickStyle()
		x0, w := a.stripSpan()
		a.strip = MeasureInlineLegend(w, a.opts.Legend, ts, &th).Y + titleGap
		if x0 < a.Plot.Min.X {
			// Over the y tick labels, the top one of which reaches half
			// its height above the plot.
			a.strip += tick.Height() / 2
		}
		top += a.strip
	}
	o := a.Outer
	// Not image.Rect: margins larger than outer must give an empty (not a
	// swapped) rectangle.
	return image.Rectangle{Min: image.Pt(o.Min.X+left, o.Min.Y+top), Max: image.Pt(o.Max.X-right, o.Max.Y-bottom)}
}

// Map returns the pixel position of data point (x, y).
func (a *Axes) Map(x, y float64) Point {
	if !a.ready() {
		return Point{math.NaN(), math.NaN()}
	}
	return Point{a.X.Map(x), a.Y.Map(y)}
}

// Clip returns the part of dst inside the plot area, for drawing data that
// must not spill over the frame.
func (a *Axes) Clip(dst *image.RGBA) *image.RGBA {
	if dst == nil {
		return nil
	}
	return dst.SubImage(a.Plot).(*image.RGBA)
}

// Draw paints the axes: outer and plot backgrounds, grid lines at labelled
// ticks, the frame, tick marks, tick labels (thinned where they would
// overlap; a y label that would touch an x label at the corner is left
// out), axis labels and the title.
func (a *Axes) Draw(dst *image.RGBA) {
	if dst == nil {
		return
	}
	th := a.Theme
	p := a.Plot
	a.labels = a.labels[:0]
	a.xTicks, a.yTicks = a.xTicks[:0], a.yTicks[:0]
	a.data = nil
	observe.AxesDrawn.Notify(observe.DrawnAxes{Axes: axesView{a}, Picture: observe.PictureOf(dst)})
	FillRect(dst, a.Outer, th.Background)
	FillRect(dst, p, th.PlotBackground)

	xt := visibleTicks(a.X, a.X.Ticks())
	yt := visibleTicks(a.Y, a.Y.Ticks())
	if !a.opts.HideXGrid {
		for _, t := range xt {
			if !t.Minor {
				VLine(dst, pixel(a.X.Map(t.Value)), p.Min.Y, p.Max.Y-1, th.Grid)
			}
		}
	}
	if !a.opts.HideYGrid {
		for _, t := range yt {
			if !t.Minor {
				HLine(dst, p.Min.X, p.Max.X-1, pixel(a.Y.Map(t.Value)), th.Grid)
			}
		}
	}
	StrokeRect(dst, p.Inset(-1), 1, th.Frame)

	ts := th.tickStyle()
	// X ticks and labels.
	xs := ts
	xs.Align, xs.VAlign = AlignCenter, AlignTop
	labelY := float64(p.Max.Y + 1 + tickLength + tickLabelPad)
	xStride := labelStride(xt, a.X, ts, true)
	var xBoxes []image.Rectangle
	n := 0
	for _, t := range xt {
		col := pixel(a.X.Map(t.Value))
		l := tickLength
		if t.Minor {
			l = minorTickLength
		}
		VLine(dst, col, p.Max.Y+1, p.Max.Y+l, th.Frame)
		if t.Label == "" || a.opts.SharedX {
			continue
		}
		if n%xStride == 0 {
			xBoxes = append(xBoxes, DrawText(dst, t.Label, float64(col)+0.5, labelY, xs))
			a.xTicks = append(a.xTicks, t.Label)
		}
		n++
	}
	// Y ticks and labels.
	ys := ts
	ys.Align, ys.VAlign = AlignRight, AlignMiddle
	labelX := float64(p.Min.X - 1 - tickLength - tickLabelPad)
	yStride := labelStride(yt, a.Y, ts, false)
	n = 0
	for _, t := range yt {
		row := pixel(a.Y.Map(t.Value))
		l := tickLength
		if t.Minor {
			l = minorTickLength
		}
		HLine(dst, p.Min.X-l-1, p.Min.X-2, row, th.Frame)
		if t.Label == "" {
			continue
		}
		if n%yStride == 0 && !overlapsAny(DrawText(nil, t.Label, labelX, float64(row)+0.5, ys), xBoxes) {
			DrawText(dst, t.Label, labelX, float64(row)+0.5, ys)
			a.yTicks = append(a.yTicks, t.Label)
		}
		n++
	}

	ls := th.labelStyle()
	if a.opts.XLabel != "" {
		// Centred under the plot area, but kept inside the outer
		// rectangle (a long label under a narrow plot).
		ls.Align, ls.VAlign = AlignCenter, AlignBottom
		w := float64(MeasureText(a.opts.XLabel, ls).Width)
		cx := float64(p.Min.X+p.Max.X) / 2
		if lo, hi := float64(a.Outer.Min.X+outerPad)+w/2, float64(a.Outer.Max.X-outerPad)-w/2; lo <= hi {
			cx = math.Min(math.Max(cx, lo), hi)
		}
		DrawText(dst, a.opts.XLabel, cx, float64(a.Outer.Max.Y-outerPad), ls)
	}
	if a.opts.YLabel != "" {
		ls.Align, ls.VAlign = AlignCenter, AlignTop
		DrawTextRotated(dst, a.opts.YLabel, float64(a.Outer.Min.X+outerPad), float64(p.Min.Y+p.Max.Y)/2, ls)
	}
	tts := th.titleStyle()
	tts.Align, tts.VAlign = AlignCenter, AlignTop
	y := a.Outer.Min.Y + outerPad
	for _, l := range a.titleLines() {
		// Centred over the plot area, but kept inside the outer rectangle.
		w := float64(MeasureText(l, tts).Width)
		lo, hi := float64(a.Outer.Min.X+outerPad)+w/2, float64(a.Outer.Max.X-outerPad)-w/2
		cx := float64(p.Min.X+p.Max.X) / 2
		if lo <= hi {
			cx = math.Min(math.Max(cx, lo), hi)
		}
		y = DrawText(dst, l, cx, float64(y), tts).Max.Y
	}
}

// titleLines is the title wrapped at spaces to the outer rectangle's width,
// so that a long title above a narrow plot (a phone) is not clipped.
func (a *Axes) titleLines() []string {
	if a.opts.Title == "" {
		return nil
	}
	if a.opts.noTitleWrap {
		return []string{a.opts.Title}
	}
	return WrapText(a.opts.Title, a.Outer.Dx()-2*outerPad, a.Theme.titleStyle())
}

// overlapsAny reports whether r overlaps one of boxes: a y tick label at
// the foot of the axis whose lower half reaches the x labels' row (large
// type) gives way to the x label it would touch.
func overlapsAny(r image.Rectangle, boxes []image.Rectangle) bool {
	for _, b := range boxes {
		if r.Overlaps(b) {
			return true
		}
	}
	return false
}

// pixel returns the pixel column or row containing coordinate v.
func pixel(v float64) int { return int(math.Floor(v)) }

// visibleTicks keeps the ticks whose position lies inside the pixel range,
// in the order of their positions from the range's start: labelStride
// thins neighbours, and a caller may list extra ticks after the others
// (the explorer's edge of a negative range).
func visibleTicks(s Scale, ticks []Tick) []Tick {
	p0, p1 := s.Range()
	lo, hi := math.Min(p0, p1)-0.5, math.Max(p0, p1)+0.5
	out := ticks[:0:0]
	for _, t := range ticks {
		if v := s.Map(t.Value); v >= lo && v <= hi {
			out = append(out, t)
		}
	}
	// From the start of the range (the left, the bottom) onwards.
	dir := math.Copysign(1, p1-p0)
	sort.SliceStable(out, func(i, j int) bool { return dir*s.Map(out[i].Value) < dir*s.Map(out[j].Value) })
	return out
}

// labelStride returns k such that drawing every k-th labelled tick leaves at
// least labelSpacing pixels between neighbouring labels.
func labelStride(ticks []Tick, s Scale, st TextStyle, horizontal bool) int {
	type span struct{ lo, hi float64 }
	var spans []span
	for _, t := range ticks {
		if t.Label == "" {
			continue
		}
		c := s.Map(t.Value)
		size := float64(MeasureText(t.Label, st).Height())
		if horizontal {
			size = float64(MeasureText(t.Label, st).Width)
		}
		spans = append(spans, span{c - size/2, c + size/2})
	}
	for k := 1; k < len(spans); k++ {
		ok := true
		for i := k; i < len(spans) && ok; i += k {
			a, b := spans[i-k], spans[i]
			gap := math.Max(b.lo-a.hi, a.lo-b.hi)
			ok = gap >= labelSpacing || (!horizontal && gap >= labelSpacingY)
		}
		if ok {
			return k
		}
	}
	return max(len(spans), 1)
}
