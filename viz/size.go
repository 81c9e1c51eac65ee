package viz

import (
	"fmt"
	"image"
)

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
