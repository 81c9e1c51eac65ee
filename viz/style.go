package viz

import (
	"image"
	"image/color"
	"math"

	"github.com/fp8lab/fp8lab/viz/plot"
)

// style is the theme of one render, its sizes scaled to the picture: text
// has the theme's sizes (14 px ticks, 16 px labels) at about 1000×600 CSS
// pixels, never goes below MinTextCSS for the smallest text on pictures of
// at least ReadableWidth×ReadableHeight and on tall pictures from
// MinStackedWidth×MinStackedHeight (phones), shrinks on smaller pictures
// (golden files, thumbnails) and grows on larger ones, by RoomGrowth of
// their growth, so that a canvas filling a 1920×1080 screen (1432×889)
// has type about a quarter larger and fills its height the way a
// 1000×600 one does. Sizes are in device pixels: the scale is multiplied
// by the display's pixel ratio, and by its text scale on readable
// pictures.
type style struct {
	s       float64 // scale factor of text and strokes
	th      plot.Theme
	stacked bool // parts go one above the other (a tall, narrow picture)
	d       Display
}

// RoomGrowth is the share of a picture's growth beyond 1000×600 CSS pixels
// that its text and strokes follow: a picture twice as large has type 1.6
// times as large, and more room for its data.
const RoomGrowth = 0.6

// scaleFor returns the text scale factor of a w×h picture (device pixels)
// for display d.
func scaleFor(w, h int, d Display) float64 {
	r := d.ratio()
	fw, fh := float64(w)/r, float64(h)/r // CSS pixels
	s := math.Min(fw/1000, fh/600)
	if s > 1 {
		s = 1 + RoomGrowth*(s-1)
	}
	switch {
	case stacks(w, h, d) && fw >= MinStackedWidth && fh >= MinStackedHeight:
		// A phone held upright: the scene stacks its parts, each as wide
		// as the picture, so the text keeps its readable size (and no
		// more: a larger text scale would not fit the width).
		s = math.Max(s, MinTextCSS/float64(smallestBase))
	case fw >= ReadableWidth && fh >= ReadableHeight:
		s = math.Max(s, MinTextCSS/float64(smallestBase)) * d.textScale()
	}
	s = math.Min(math.Max(s, 0.55), 3)
	return s * r
}

// stacks reports whether a scene stacks its parts one above the other in
// a w×h picture (device pixels) for d: a tall picture (StackedAspect)
// narrower than ReadableWidth CSS pixels, where side-by-side parts would be
// too narrow to hold readable text.
func stacks(w, h int, d Display) bool {
	r := d.ratio()
	fw, fh := float64(w)/r, float64(h)/r
	return tall(fw, fh) && fw < ReadableWidth
}

func newStyle(w, h int, d Display) style {
	s := scaleFor(w, h, d)
	th := plot.LightTheme()
	th.TickSize *= s
	th.LabelSize *= s
	th.TitleSize *= s
	th.LineWidth = math.Max(1, th.LineWidth*s)
	return style{s: s, th: th, stacked: stacks(w, h, d), d: d}
}

// split is columns with other weights for the rows of a stacked picture,
// where the parts' heights, not their widths, share the room.
func (st style) split(r image.Rectangle, gap int, wide, tall []float64) ([]image.Rectangle, error) {
	if st.stacked {
		return plot.SplitRows(r, gap, tall...)
	}
	return plot.SplitColumns(r, gap, wide...)
}

// grid splits r into rows×cols cells (plot.GridCells), or into cols×rows
// in a stacked picture: the same cells in the same reading order, shaped
// for a tall, narrow picture.
func (st style) grid(r image.Rectangle, rows, cols, gap int) ([]image.Rectangle, error) {
	if st.stacked {
		rows, cols = cols, rows
	}
	return plot.GridCells(r, rows, cols, gap)
}

// columns splits r into side-by-side columns with widths proportional to
// weights, gap pixels apart, or, in a stacked picture (a phone held
// upright, or any tall narrow picture), into rows of heights proportional to the same weights, top to
// bottom: the layout helper scenes use for their main parts.
func (st style) columns(r image.Rectangle, gap int, weights ...float64) ([]image.Rectangle, error) {
	if st.stacked {
		return plot.SplitRows(r, gap, weights...)
	}
	return plot.SplitColumns(r, gap, weights...)
}

// px scales a length given for the base size.
func (st style) px(v float64) int { return int(math.Round(v * st.s)) }

// pxf scales a length given for the base size, as a float.
func (st style) pxf(v float64) float64 { return v * st.s }

// text returns a text style of the given base size.
func (st style) text(size float64, f plot.Font, c color.RGBA) plot.TextStyle {
	if c == (color.RGBA{}) {
		c = st.th.Foreground
	}
	return plot.TextStyle{Font: f, Size: size * st.s, Color: c}
}

// body is the text style of explanations: 16 px regular.
func (st style) body() plot.TextStyle { return st.text(16, plot.FontRegular, color.RGBA{}) }

// muted is the style of secondary text: 14 px in the muted colour.
func (st style) muted() plot.TextStyle { return st.text(14, plot.FontRegular, st.th.MutedText) }

// heading is the style of a panel heading: bold at the theme's title size.
func (st style) heading() plot.TextStyle { return st.text(17, plot.FontBold, color.RGBA{}) }

// axes makes axes with the style's theme; legend lists the entries the
// caller will pass to Legend, so that the axes leave room for them above the
// plot when they would not fit beside the data (see plot.AxesOptions).
func (st style) axes(r image.Rectangle, x, y plot.Scale, title, xlabel, ylabel string, legend ...plot.LegendEntry) (*plot.Axes, error) {
	th := st.th
	return plot.NewAxes(r, x, y, plot.AxesOptions{Title: title, XLabel: xlabel, YLabel: ylabel, Theme: &th, Legend: legend})
}

// sharedAxes makes axes like axes whose x axis the axes stacked below them
// label (plot.AxesOptions.SharedX).
func (st style) sharedAxes(r image.Rectangle, x, y plot.Scale, title, ylabel string, legend ...plot.LegendEntry) (*plot.Axes, error) {
	th := st.th
	return plot.NewAxes(r, x, y, plot.AxesOptions{Title: title, YLabel: ylabel, Theme: &th, Legend: legend, SharedX: true})
}

// textLines draws lines of text top-down from (x, y) and returns the y below
// the last one.
func textLines(dst *image.RGBA, x, y int, lines []string, ts plot.TextStyle, gap int) int {
	ts.VAlign = plot.AlignTop
	for _, l := range lines {
		r := plot.DrawText(dst, l, float64(x), float64(y), ts)
		y = r.Max.Y + gap
	}
	return y
}

// axesMaker builds axes in a rectangle.
type axesMaker func(r image.Rectangle) (*plot.Axes, error)

// alignedAxes builds one set of axes per rectangle with its maker, then
// narrows the rectangles whose plot area starts further left or ends
// further right so that every plot area spans the same columns: stacked
// plots sharing an x axis line up.
func alignedAxes(rects []image.Rectangle, makers ...axesMaker) ([]*plot.Axes, error) {
	axes := make([]*plot.Axes, len(makers))
	left, right := math.MinInt, math.MaxInt
	for i, mk := range makers {
		ax, err := mk(rects[i])
		if err != nil {
			return nil, err
		}
		axes[i] = ax
		left, right = max(left, ax.Plot.Min.X), min(right, ax.Plot.Max.X)
	}
	for i, mk := range makers {
		dl, dr := left-axes[i].Plot.Min.X, axes[i].Plot.Max.X-right
		if dl > 0 || dr > 0 {
			r := rects[i]
			r.Min.X += dl
			r.Max.X -= dr
			ax, err := mk(r)
			if err != nil {
				return nil, err
			}
			axes[i] = ax
		}
	}
	return axes, nil
}
