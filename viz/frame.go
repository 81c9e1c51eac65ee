package viz

import (
	"fmt"
	"image"

	"github.com/fp8lab/fp8lab/viz/plot"
)

// The frame of every scene's picture: the size check, the cleared
// background and title bar (begin), and the panel that stands in for a part
// that cannot be drawn (errorPanel).

// The smallest picture a scene lays itself out in; smaller destinations
// give an error (after being cleared, with a note saying so). RenderFor
// draws smaller pictures, down to MinDisplayWidth×MinDisplayHeight (a
// phone), by laying the scene out larger and scaling it down.
const (
	MinWidth  = 480
	MinHeight = 270
)

// begin checks dst, clears it and draws the title bar; it returns the style
// and the body of the picture below the bar, inset by a margin.
func begin(dst *image.RGBA, title, subtitle string) (style, image.Rectangle, error) {
	if err := checkCanvas(dst); err != nil {
		return style{}, image.Rectangle{}, err
	}
	b := dst.Bounds()
	st := newStyle(b.Dx(), b.Dy(), displayOf(dst))
	if b.Dx() < MinWidth || b.Dy() < MinHeight {
		plot.FillRect(dst, b, st.th.Background)
		ts := st.muted()
		ts.VAlign = plot.AlignTop
		plot.DrawText(dst, fmt.Sprintf("needs %d×%d", MinWidth, MinHeight), float64(b.Min.X+4), float64(b.Min.Y+4), ts)
		return style{}, image.Rectangle{}, fmt.Errorf("viz: render: %dx%d is smaller than %dx%d", b.Dx(), b.Dy(), MinWidth, MinHeight)
	}
	plot.FillRect(dst, b, st.th.Background)
	body := plot.DrawTitleBar(dst, b, title, subtitle, &st.th)
	return st, plot.Insets{Top: st.px(8), Right: st.px(14), Bottom: st.px(10), Left: st.px(14)}.Apply(body), nil
}

// errorPanel writes an error message in r, for a part of a picture that
// cannot be drawn with the current parameters.
func errorPanel(dst *image.RGBA, r image.Rectangle, st style, msg string) {
	plot.FillRect(dst, r, plot.Hex(0xf7f7f7))
	plot.StrokeRect(dst, r, 1, st.th.Grid)
	ts := st.body()
	ts.Color, ts.Align, ts.VAlign = plot.Vermillion, plot.AlignCenter, plot.AlignMiddle
	plot.DrawText(dst, msg, float64(r.Min.X+r.Max.X)/2, float64(r.Min.Y+r.Max.Y)/2, ts)
}
