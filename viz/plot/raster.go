package plot

import (
	"image"
	"image/color"
)

// Pixel-aligned primitives. They write dst.Pix directly, clip to
// dst.Bounds(), and blend translucent colours with the Porter-Duff "over"
// operator. A nil dst draws nothing.

// NewCanvas returns a w x h image filled with the colour bg. Non-positive
// sizes give an empty image.
func NewCanvas(w, h int, bg color.RGBA) *image.RGBA {
	if w < 0 {
		w = 0
	}
	if h < 0 {
		h = 0
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	FillRect(img, img.Rect, bg)
	return img
}

// FillRect fills r (clipped to dst.Bounds()) with c.
func FillRect(dst *image.RGBA, r image.Rectangle, c color.RGBA) {
	if dst == nil {
		return
	}
	r = r.Intersect(dst.Rect)
	if r.Empty() || c.A == 0 {
		return
	}
	w := r.Dx()
	if c.A == 0xff {
		first := dst.Pix[dst.PixOffset(r.Min.X, r.Min.Y):][:4*w]
		for i := 0; i < len(first); i += 4 {
			first[i], first[i+1], first[i+2], first[i+3] = c.R, c.G, c.B, c.A
		}
		for y := r.Min.Y + 1; y < r.Max.Y; y++ {
			copy(dst.Pix[dst.PixOffset(r.Min.X, y):][:4*w], first)
		}
		return
	}
	inv := 255 - uint32(c.A)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := dst.Pix[dst.PixOffset(r.Min.X, y):][:4*w]
		for i := 0; i < len(row); i += 4 {
			row[i] = blend8(row[i], c.R, inv)
			row[i+1] = blend8(row[i+1], c.G, inv)
			row[i+2] = blend8(row[i+2], c.B, inv)
			row[i+3] = blend8(row[i+3], c.A, inv)
		}
	}
}

// blend8 is src + dst*inv/255 for premultiplied 8-bit channels, rounded.
func blend8(dst, src uint8, inv uint32) uint8 {
	v := uint32(src) + (uint32(dst)*inv+127)/255
	if v > 255 {
		v = 255
	}
	return uint8(v)
}

// Clear fills all of dst with c, replacing (not blending) what was there.
func Clear(dst *image.RGBA, c color.RGBA) {
	if dst == nil {
		return
	}
	r := dst.Rect
	if r.Empty() {
		return
	}
	w := r.Dx()
	first := dst.Pix[dst.PixOffset(r.Min.X, r.Min.Y):][:4*w]
	for i := 0; i < len(first); i += 4 {
		first[i], first[i+1], first[i+2], first[i+3] = c.R, c.G, c.B, c.A
	}
	for y := r.Min.Y + 1; y < r.Max.Y; y++ {
		copy(dst.Pix[dst.PixOffset(r.Min.X, y):][:4*w], first)
	}
}

// StrokeRect draws the outline of r, width pixels thick, inside r.
func StrokeRect(dst *image.RGBA, r image.Rectangle, width int, c color.RGBA) {
	r = r.Canon()
	if width <= 0 || r.Empty() {
		return
	}
	if 2*width >= r.Dx() || 2*width >= r.Dy() {
		FillRect(dst, r, c)
		return
	}
	FillRect(dst, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+width), c)
	FillRect(dst, image.Rect(r.Min.X, r.Max.Y-width, r.Max.X, r.Max.Y), c)
	FillRect(dst, image.Rect(r.Min.X, r.Min.Y+width, r.Min.X+width, r.Max.Y-width), c)
	FillRect(dst, image.Rect(r.Max.X-width, r.Min.Y+width, r.Max.X, r.Max.Y-width), c)
}

// HLine draws a crisp one-pixel horizontal line on row y covering the
// columns from x0 to x1 inclusive (in either order).
func HLine(dst *image.RGBA, x0, x1, y int, c color.RGBA) {
	if x1 < x0 {
		x0, x1 = x1, x0
	}
	FillRect(dst, image.Rect(x0, y, x1+1, y+1), c)
}

// VLine draws a crisp one-pixel vertical line in column x covering the rows
// from y0 to y1 inclusive (in either order).
func VLine(dst *image.RGBA, x, y0, y1 int, c color.RGBA) {
	if y1 < y0 {
		y0, y1 = y1, y0
	}
	FillRect(dst, image.Rect(x, y0, x+1, y1+1), c)
}

// DashedHLine draws a crisp horizontal dashed line on row y from x0 to x1
// inclusive, with dash and gap lengths in pixels (non-positive gap draws a
// solid line).
func DashedHLine(dst *image.RGBA, x0, x1, y, dash, gap int, c color.RGBA) {
	if x1 < x0 {
		x0, x1 = x1, x0
	}
	if dash <= 0 || gap <= 0 {
		HLine(dst, x0, x1, y, c)
		return
	}
	for x := x0; x <= x1; x += dash + gap {
		HLine(dst, x, min(x+dash-1, x1), y, c)
	}
}

// DashedVLine draws a crisp vertical dashed line in column x from y0 to y1
// inclusive, with dash and gap lengths in pixels.
func DashedVLine(dst *image.RGBA, x, y0, y1, dash, gap int, c color.RGBA) {
	if y1 < y0 {
		y0, y1 = y1, y0
	}
	if dash <= 0 || gap <= 0 {
		VLine(dst, x, y0, y1, c)
		return
	}
	for y := y0; y <= y1; y += dash + gap {
		VLine(dst, x, y, min(y+dash-1, y1), c)
	}
}
