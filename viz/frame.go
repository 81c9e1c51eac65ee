package viz

import (
	"fmt"
	"image"

	"github.com/fp8lab/fp8lab/viz/plot"
)

// The frame of every scene's picture: the sizes a scene lays itself out
// at, the check of a destination (checkCanvas), the cleared background and
// title bar (begin), and the panel that stands in for a part that cannot be
// drawn (errorPanel).

// The smallest picture a scene lays itself out in; smaller destinations
// give an error (after being cleared, with a note saying so). A tall
// picture may be narrower, down to MinStackedWidth×MinStackedHeight: the
// scene stacks its parts (a phone's canvas, 343 CSS pixels wide). RenderFor draws smaller pictures, down to
// MinDisplayWidth×MinDisplayHeight, by laying the scene out larger and
// scaling it down.
const (
	MinWidth  = 480
	MinHeight = 270
)

// The smallest upright picture a scene lays out at its own size, its parts
// stacked one above the other; it must also be StackedAspect times as tall
// as wide, so that each stacked part keeps a usable height.
const (
	MinStackedWidth  = 336
	MinStackedHeight = 1075
	StackedAspect    = 3.2
)

// laysOut reports whether a scene lays itself out in a w×h picture.
func laysOut(w, h int) bool {
	return (w >= MinWidth && h >= MinHeight) || (w >= MinStackedWidth && h >= MinStackedHeight && tall(float64(w), float64(h)))
}

// tall reports whether a w×h picture is tall enough to stack a scene's
// parts (StackedAspect), allowing a pixel of rounding in its width.
func tall(w, h float64) bool { return h >= StackedAspect*(w-1) }

// begin checks dst, clears it and draws the title bar for display d; it
// returns the style
// and the body of the picture below the bar, inset by a margin.
func begin(dst *image.RGBA, d Display, title, subtitle string) (style, image.Rectangle, error) {
	if err := checkCanvas(dst); err != nil {
		return style{}, image.Rectangle{}, err
	}
	b := dst.Bounds()
	st := newStyle(b.Dx(), b.Dy(), d)
	if !laysOut(b.Dx(), b.Dy()) {
		plot.FillRect(dst, b, st.th.Background)
		ts := st.muted()
		ts.VAlign = plot.AlignTop
		plot.DrawText(dst, fmt.Sprintf("needs %d×%d (or %d×%d, stacked)", MinWidth, MinHeight, MinStackedWidth, MinStackedHeight), float64(b.Min.X+4), float64(b.Min.Y+4), ts)
		return style{}, image.Rectangle{}, fmt.Errorf("viz: render: %dx%d is smaller than %dx%d (or, %g times as tall as wide, %dx%d)", b.Dx(), b.Dy(), MinWidth, MinHeight, StackedAspect, MinStackedWidth, MinStackedHeight)
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

// checkCanvas reports a destination a scene cannot render into: nil, a side
// over MaxRenderSize, or pixels that do not cover its bounds (an
// image.RGBA built by hand).
func checkCanvas(dst *image.RGBA) error {
	if dst == nil {
		return fmt.Errorf("viz: render: nil image")
	}
	b := dst.Bounds()
	if b.Dx() > MaxRenderSize || b.Dy() > MaxRenderSize {
		return fmt.Errorf("viz: render: %dx%d is larger than %dx%d", b.Dx(), b.Dy(), MaxRenderSize, MaxRenderSize)
	}
	if b.Empty() {
		return nil
	}
	need, ok := 4*b.Dx(), dst.Stride >= 4*b.Dx()
	if b.Dy() > 1 {
		ok = ok && dst.Stride <= len(dst.Pix) // so that the product cannot overflow
		need += (b.Dy() - 1) * dst.Stride
	}
	if !ok || len(dst.Pix) < need {
		return fmt.Errorf("viz: render: %d bytes of pixels (stride %d) do not cover %dx%d", len(dst.Pix), dst.Stride, b.Dx(), b.Dy())
	}
	return nil
}

// canvas returns a new w×h picture for a Click that must render before it
// can hit-test, or nil (which Render refuses) when a scene does not lay
// itself out at that size (laysOut) or a side is over MaxRenderSize, so a
// hostile size never reaches image.NewRGBA.
func canvas(w, h int) *image.RGBA {
	if !laysOut(w, h) || w > MaxRenderSize || h > MaxRenderSize {
		return nil
	}
	return image.NewRGBA(image.Rect(0, 0, w, h))
}
