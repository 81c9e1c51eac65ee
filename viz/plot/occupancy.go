package plot

import (
	"image"
	"math"
)

// occupancy records which pixels of a plot area hold data (bars, curves,
// markers, value labels) or a marker's label, so that a legend or another
// label can be put where it hides none.
type occupancy struct {
	r    image.Rectangle
	bits []uint8 // occData | occLabel
	sum  []int32 // summed-area table of non-zero bits, (w+1)×(h+1); nil when stale
}

// What a pixel of an occupancy holds.
const (
	occData  uint8 = 1 << iota // data: bars, curves, markers, value labels
	occLabel                   // the label of a marker or band
)

func newOccupancy(r image.Rectangle) *occupancy {
	return &occupancy{r: r, bits: make([]uint8, r.Dx()*r.Dy())}
}

// markRect marks every pixel of r inside the area as data.
func (o *occupancy) markRect(r image.Rectangle) { o.mark(r, occData) }

// mark marks every pixel of r inside the area as holding what.
func (o *occupancy) mark(r image.Rectangle, what uint8) {
	r = r.Intersect(o.r)
	if r.Empty() {
		return
	}
	o.sum = nil
	w := o.r.Dx()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := o.bits[(y-o.r.Min.Y)*w:]
		for x := r.Min.X; x < r.Max.X; x++ {
			row[x-o.r.Min.X] |= what
		}
	}
}

// countData returns how many pixels of r hold data (labels left out).
func (o *occupancy) countData(r image.Rectangle) int {
	r = r.Intersect(o.r)
	n, w := 0, o.r.Dx()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := o.bits[(y-o.r.Min.Y)*w:]
		for x := r.Min.X; x < r.Max.X; x++ {
			if row[x-o.r.Min.X]&occData != 0 {
				n++
			}
		}
	}
	return n
}

// markDisc marks the square of half-side hw around p (a point of a curve
// or a marker, whose antialiased edge reaches half a pixel further).
func (o *occupancy) markDisc(p Point, hw float64) {
	if !p.finite() {
		return
	}
	hw += 0.5
	o.markRect(image.Rect(int(math.Floor(p.X-hw)), int(math.Floor(p.Y-hw)), int(math.Ceil(p.X+hw)), int(math.Ceil(p.Y+hw))))
}

// markPolyline marks the pixels within hw of the polyline through pts;
// non-finite points break it, as they do when it is drawn.
func (o *occupancy) markPolyline(pts []Point, hw float64) {
	lim := rect{float64(o.r.Min.X) - hw - 2, float64(o.r.Min.Y) - hw - 2, float64(o.r.Max.X) + hw + 2, float64(o.r.Max.Y) + hw + 2}
	for i, p := range pts {
		o.markDisc(p, hw)
		if i == 0 || !p.finite() || !pts[i-1].finite() {
			continue
		}
		a, b, ok := clipSegment(pts[i-1], p, lim)
		if !ok {
			continue
		}
		// Samples at most one pixel apart, each marking a square of half
		// side hw, cover the stroke.
		n := int(math.Ceil(math.Hypot(b.X-a.X, b.Y-a.Y)))
		for k := 1; k < n; k++ {
			o.markDisc(lerpPoint(a, b, float64(k)/float64(n)), hw)
		}
		o.markDisc(a, hw)
		o.markDisc(b, hw)
	}
}

// count returns how many marked pixels lie in r.
func (o *occupancy) count(r image.Rectangle) int {
	r = r.Intersect(o.r)
	if r.Empty() {
		return 0
	}
	w, h := o.r.Dx(), o.r.Dy()
	if o.sum == nil {
		o.sum = make([]int32, (w+1)*(h+1))
		for y := 0; y < h; y++ {
			var run int32
			for x := 0; x < w; x++ {
				if o.bits[y*w+x] != 0 {
					run++
				}
				o.sum[(y+1)*(w+1)+x+1] = o.sum[y*(w+1)+x+1] + run
			}
		}
	}
	x0, y0 := r.Min.X-o.r.Min.X, r.Min.Y-o.r.Min.Y
	x1, y1 := r.Max.X-o.r.Min.X, r.Max.Y-o.r.Min.Y
	s := o.sum
	return int(s[y1*(w+1)+x1] - s[y0*(w+1)+x1] - s[y1*(w+1)+x0] + s[y0*(w+1)+x0])
}

// occ returns the axes' occupancy of the plot area, made on first use.
func (a *Axes) occ() *occupancy {
	if a.data == nil || a.data.r != a.Plot {
		a.data = newOccupancy(a.Plot)
	}
	return a.data
}

// Covered returns how many pixels of r hold data drawn on the axes since
// Draw: bars, curves and their markers, scatter points, marker lines, and
// the labels drawn with the Axes' methods (VBand and HBand fills are a
// background and do not count).
func (a *Axes) Covered(r image.Rectangle) int {
	if !a.ready() {
		return 0
	}
	return a.occ().count(r)
}

// MarkData records r (in pixels) as holding data, for marks a caller draws
// itself, so that a legend keeps off them.
func (a *Axes) MarkData(r image.Rectangle) {
	if !a.ready() {
		return
	}
	a.occ().markRect(r)
}

// DrawText draws s at pixel position (x, y) like the package's DrawText,
// unclipped, such as a value label above a bar, and records its box as data
// so that a legend keeps off it. It returns the box.
func (a *Axes) DrawText(dst *image.RGBA, s string, x, y float64, st TextStyle) image.Rectangle {
	if !a.ready() {
		return image.Rectangle{}
	}
	box := DrawText(dst, s, x, y, st)
	a.occ().markRect(box)
	return box
}
