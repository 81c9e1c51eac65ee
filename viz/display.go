package viz

import (
	"fmt"
	"image"
	"math"
)

// Display describes the screen a picture is drawn for, so that its text has
// a readable size there: a picture drawn at a canvas's real size in device
// pixels on a high-density screen needs text PixelRatio times as many
// pixels tall as on a plain one.
type Display struct {
	// PixelRatio is the number of device pixels per CSS pixel (the
	// browser's devicePixelRatio, ebiten's device scale factor); 0 means 1.
	PixelRatio float64
	// TextScale enlarges every text and stroke (presentation mode uses
	// PresentationTextScale); 0 means 1.
	TextScale float64
}

// PresentationTextScale is the TextScale of presentation mode: type larger
// than on a desk, for the back of a room.
const PresentationTextScale = 1.25

// MinTextCSS is the size, in CSS pixels, of the smallest text of a chart
// drawn at least ReadableWidth×ReadableHeight CSS pixels large.
const MinTextCSS = 14

// ReadableWidth and ReadableHeight bound the pictures (in CSS pixels) whose
// smallest text is at least MinTextCSS; smaller pictures (thumbnails,
// phones, golden files) shrink their text with them.
const (
	ReadableWidth  = 640
	ReadableHeight = 400
)

// smallestBase is the smallest base text size any scene uses (a value
// label of 13 px at scale 1).
const smallestBase = 13

func (d Display) ratio() float64 {
	if d.PixelRatio <= 0 || math.IsNaN(d.PixelRatio) || math.IsInf(d.PixelRatio, 0) {
		return 1
	}
	return math.Min(d.PixelRatio, 8)
}

func (d Display) textScale() float64 {
	if d.TextScale <= 0 || math.IsNaN(d.TextScale) || math.IsInf(d.TextScale, 0) {
		return 1
	}
	return math.Min(d.TextScale, 3)
}

// The smallest picture, in CSS pixels, RenderFor draws.
const (
	MinDisplayWidth  = 160
	MinDisplayHeight = 120
)

// RenderFor renders s into dst for display d: like s.Render(dst), with the
// text sized for d. A picture a scene does not lay itself out in (smaller
// than MinWidth×MinHeight CSS pixels and, when tall, than
// MinStackedWidth×MinStackedHeight) but at least MinDisplayWidth×
// MinDisplayHeight is laid out at the smallest larger size with the same
// aspect ratio and scaled down into dst (ClickFor maps clicks the same
// way). Clicks hit-test the layout drawn last, so they land where the
// user sees things.
func RenderFor(s Scene, dst *image.RGBA, d Display) error {
	_, err := renderLaidOut(dst, d, func(target *image.RGBA) error { return renderWith(s, target, d) })
	return err
}

// renderLaidOut calls draw with the picture dst is laid out in for d:
// dst itself, or a larger one (by the factor it returns) that it then
// scales down into dst.
func renderLaidOut(dst *image.RGBA, d Display, draw func(target *image.RGBA) error) (k float64, err error) {
	if err := checkCanvas(dst); err != nil {
		return 0, err
	}
	b := dst.Bounds()
	k = enlargement(b.Dx(), b.Dy(), d)
	if k == 0 {
		return 0, fmt.Errorf("viz: render: %dx%d is smaller than %dx%d CSS pixels", b.Dx(), b.Dy(), MinDisplayWidth, MinDisplayHeight)
	}
	target := dst
	if k != 1 {
		target = image.NewRGBA(image.Rect(0, 0, int(math.Ceil(float64(b.Dx())*k)), int(math.Ceil(float64(b.Dy())*k))))
		k = float64(target.Bounds().Dx()) / float64(b.Dx())
	}
	err = draw(target)
	if target != dst {
		shrink(dst, target)
	}
	return k, err
}

// renderWith draws s into dst for d: through renderFor for the scenes of
// the catalog, whose pictures are functions of their parameters, size and
// display; any other Scene draws by its Render, for the default display.
func renderWith(s Scene, dst *image.RGBA, d Display) error {
	if r, ok := s.(interface {
		renderFor(*image.RGBA, Display) error
	}); ok {
		return r.renderFor(dst, d)
	}
	return s.Render(dst)
}

// ClickFor passes a click at (x, y) on a w×h picture drawn by RenderFor
// for d to the scene, in the coordinates of the layout it drew.
func ClickFor(s Scene, x, y, w, h int, d Display) bool {
	k := enlargement(w, h, d)
	if k == 0 {
		return false
	}
	if k == 1 {
		return s.Click(x, y, w, h)
	}
	sx := func(v int) int { return int(math.Floor((float64(v) + 0.5) * k)) }
	return s.Click(sx(x), sx(y), int(math.Ceil(float64(w)*k)), int(math.Ceil(float64(h)*k)))
}

// enlargement returns the factor by which RenderFor lays a w×h picture
// (device pixels) out larger: 1 when a scene lays itself out at that size
// in CSS and in device pixels (laysOut), 0 when it is below
// MinDisplayWidth×MinDisplayHeight CSS pixels.
func enlargement(w, h int, d Display) float64 {
	r := d.ratio()
	fw, fh := float64(w)/r, float64(h)/r
	if fw < MinDisplayWidth || fh < MinDisplayHeight {
		return 0
	}
	return math.Max(grow(fw, fh), grow(float64(w), float64(h)))
}

// grow returns the smallest factor ≥ 1 that makes a w×h picture one a
// scene lays itself out in: stacked when it is tall, else at least
// MinWidth×MinHeight.
func grow(w, h float64) float64 {
	if laysOut(int(w), int(h)) {
		return 1
	}
	k := math.Max(MinWidth/w, MinHeight/h)
	if tall(w, h) {
		k = math.Min(k, math.Max(MinStackedWidth/w, MinStackedHeight/h))
	}
	return math.Max(k, 1)
}

// shrink scales src down into dst, averaging the source pixels under each
// destination pixel.
func shrink(dst, src *image.RGBA) {
	db, sb := dst.Bounds(), src.Bounds()
	kx, ky := float64(sb.Dx())/float64(db.Dx()), float64(sb.Dy())/float64(db.Dy())
	for y := 0; y < db.Dy(); y++ {
		y0, y1 := int(float64(y)*ky), min(int(float64(y+1)*ky), sb.Dy())
		y1 = max(y1, y0+1)
		for x := 0; x < db.Dx(); x++ {
			x0, x1 := int(float64(x)*kx), min(int(float64(x+1)*kx), sb.Dx())
			x1 = max(x1, x0+1)
			var sum [4]int
			for sy := y0; sy < y1; sy++ {
				row := src.Pix[src.PixOffset(sb.Min.X+x0, sb.Min.Y+sy):]
				for i := 0; i < 4*(x1-x0); i++ {
					sum[i&3] += int(row[i])
				}
			}
			n := (y1 - y0) * (x1 - x0)
			o := dst.PixOffset(db.Min.X+x, db.Min.Y+y)
			for c := 0; c < 4; c++ {
				dst.Pix[o+c] = uint8((sum[c] + n/2) / n)
			}
		}
	}
}

// SmallestText returns the size in device pixels of the smallest text a
// scene draws, by its style, in a w×h picture (device pixels) drawn by
// RenderFor for display d (after any scaling down). Divided by
// d.PixelRatio it is the size a reader sees, in CSS pixels (tests measure
// what a scene really drew with plottest.ProbeText).
func SmallestText(w, h int, d Display) float64 {
	k := enlargement(w, h, d)
	if k == 0 {
		return 0
	}
	return smallestBase * scaleFor(int(math.Ceil(float64(w)*k)), int(math.Ceil(float64(h)*k)), d) / k
}
