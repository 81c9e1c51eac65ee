package plot

import (
	"fmt"
	"image"
	"math"
)

// ImageStyle says how to show a scalar image in a panel.
type ImageStyle struct {
	Map      *ColorMap // Nil means Grays (0 black, 1 white).
	Min, Max float64   // Values mapped to the map's ends; both 0 means [0, 1].
	Caption  string    // Centred under the image.
	Theme    *Theme    // Nil means LightTheme().
}

// DrawImagePanel draws the w x h scalar image pix (row-major, row 0 at the
// top) inside r, scaled with nearest-neighbour sampling to the largest size
// that fits while keeping square pixels (a whole-number zoom when the image
// is smaller than r, so every source pixel becomes an equal block), centred,
// with a one-pixel frame and the caption below. Values outside [Min, Max]
// are clamped; NaN pixels get NaNColor. It returns the rectangle the image
// occupies, and fails on a bad size, a length mismatch or a bad value range.
func DrawImagePanel(dst *image.RGBA, r image.Rectangle, pix []float32, w, h int, st ImageStyle) (image.Rectangle, error) {
	if dst == nil {
		return image.Rectangle{}, fmt.Errorf("plot: image panel: %w", ErrNilImage)
	}
	if w <= 0 || h <= 0 {
		return image.Rectangle{}, fmt.Errorf("plot: image panel: %w: size %dx%d", ErrEmptyData, w, h)
	}
	if len(pix) != w*h {
		return image.Rectangle{}, fmt.Errorf("plot: image panel: %w: %d values for %dx%d", ErrLengthMismatch, len(pix), w, h)
	}
	lo, hi := st.Min, st.Max
	if lo == 0 && hi == 0 {
		lo, hi = 0, 1
	}
	if !finite(lo) || !finite(hi) || lo == hi {
		return image.Rectangle{}, fmt.Errorf("plot: image panel: %w: value range [%g, %g]", ErrBadDomain, lo, hi)
	}
	cm := st.Map
	if cm == nil {
		cm = Grays
	}
	th := themeOrDefault(st.Theme)
	r = r.Canon()
	avail := r.Inset(1) // room for the frame
	cs := th.tickStyle()
	cs.Color, cs.Align, cs.VAlign = th.MutedText, AlignCenter, AlignTop
	capH := 0
	if st.Caption != "" {
		capH = MeasureText(st.Caption, cs).Height() + 4
		avail.Max.Y -= capH
	}
	if avail.Dx() < 1 || avail.Dy() < 1 {
		return image.Rectangle{}, fmt.Errorf("plot: image panel in %v: %w", r, ErrTooSmall)
	}
	zoom := math.Min(float64(avail.Dx())/float64(w), float64(avail.Dy())/float64(h))
	if zoom >= 1 {
		zoom = math.Floor(zoom)
	}
	dw := max(1, int(math.Floor(float64(w)*zoom)))
	dh := max(1, int(math.Floor(float64(h)*zoom)))
	x0 := avail.Min.X + (avail.Dx()-dw)/2
	y0 := avail.Min.Y + (avail.Dy()-dh)/2
	img := image.Rect(x0, y0, x0+dw, y0+dh)

	colOf := make([]int, dw)
	for i := range colOf {
		colOf[i] = min(i*w/dw, w-1)
	}
	lut := cm.LUT()
	clip := img.Intersect(dst.Rect)
	scale := 1 / (hi - lo)
	for y := clip.Min.Y; y < clip.Max.Y; y++ {
		sy := min((y-img.Min.Y)*h/dh, h-1)
		src := pix[sy*w : (sy+1)*w]
		row := dst.Pix[dst.PixOffset(clip.Min.X, y):][:4*clip.Dx()]
		for i, x := 0, clip.Min.X; x < clip.Max.X; i, x = i+4, x+1 {
			v := float64(src[colOf[x-img.Min.X]])
			c := NaNColor
			if !math.IsNaN(v) {
				c = lut[lutIndex((v-lo)*scale)]
			}
			row[i], row[i+1], row[i+2], row[i+3] = c.R, c.G, c.B, c.A
		}
	}
	StrokeRect(dst, img.Inset(-1), 1, th.Frame)
	if st.Caption != "" {
		DrawText(dst, st.Caption, float64(img.Min.X+img.Max.X)/2, float64(img.Max.Y+1+4), cs)
	}
	return img, nil
}
