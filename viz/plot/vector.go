package plot

import (
	"encoding/binary"
	"image"
	"image/color"
	"image/draw"
	"math"
	"sync"

	"golang.org/x/image/vector"
)

// Anti-aliased vector primitives, rasterised with golang.org/x/image/vector.
//
// Coordinates are in pixels with (0, 0) at the top-left corner of pixel
// (0, 0), so the centre of pixel (x, y) is (x+0.5, y+0.5). Geometry is
// clipped to dst.Bounds() in float64 before rasterising, so points far
// outside the image (or ±Inf after a scale) are safe. Points with NaN
// coordinates are skipped and break a polyline into pieces.

// Point is a position in pixel coordinates.
type Point struct{ X, Y float64 }

// Pt is shorthand for Point{x, y}.
func Pt(x, y float64) Point { return Point{x, y} }

func (p Point) finite() bool { return finite(p.X) && finite(p.Y) }

// path collects closed polygons that are filled together as one union. All
// polygons are stored with the same orientation so that overlaps add up
// instead of cancelling under the rasteriser's winding rule.
type path struct {
	xs, ys []float32
	ends   []int   // end index (exclusive) of each polygon in xs/ys
	clip   rect    // polygons are clipped to this rectangle
	bbox   rect    // bounding box of everything added
	tmp    []Point // scratch buffers for clipping
	tmp2   []Point
	quad   [4]Point // scratch for segments
	disc   []Point  // scratch for discs
}

type rect struct{ x0, y0, x1, y1 float64 }

func (r rect) empty() bool { return !(r.x0 < r.x1 && r.y0 < r.y1) }

var pathPool = sync.Pool{New: func() any { return new(path) }}
var rasterPool = sync.Pool{New: func() any { return new(raster) }}

// newPath returns an empty path clipped to bounds grown by a small margin.
func newPath(bounds image.Rectangle) *path {
	p := pathPool.Get().(*path)
	p.xs, p.ys, p.ends = p.xs[:0], p.ys[:0], p.ends[:0]
	p.clip = rect{float64(bounds.Min.X) - 2, float64(bounds.Min.Y) - 2, float64(bounds.Max.X) + 2, float64(bounds.Max.Y) + 2}
	p.bbox = rect{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	return p
}

func (p *path) release() { pathPool.Put(p) }

// addPolygon adds a closed polygon. Polygons with non-finite vertices are
// ignored; polygons crossing the clip rectangle are clipped to it.
func (p *path) addPolygon(pts []Point) {
	if len(pts) < 3 {
		return
	}
	b := rect{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, q := range pts {
		if !q.finite() {
			return
		}
		b.x0, b.y0 = math.Min(b.x0, q.X), math.Min(b.y0, q.Y)
		b.x1, b.y1 = math.Max(b.x1, q.X), math.Max(b.y1, q.Y)
	}
	c := p.clip
	if b.x1 <= c.x0 || b.x0 >= c.x1 || b.y1 <= c.y0 || b.y0 >= c.y1 {
		return
	}
	if b.x0 < c.x0 || b.x1 > c.x1 || b.y0 < c.y0 || b.y1 > c.y1 {
		pts = p.clipPolygon(pts)
		if len(pts) < 3 {
			return
		}
		b = rect{math.Max(b.x0, c.x0), math.Max(b.y0, c.y0), math.Min(b.x1, c.x1), math.Min(b.y1, c.y1)}
	}
	area := 0.0
	for i := range pts {
		j := (i + 1) % len(pts)
		area += pts[i].X*pts[j].Y - pts[j].X*pts[i].Y
	}
	if area == 0 {
		return
	}
	if area > 0 {
		for _, q := range pts {
			p.xs, p.ys = append(p.xs, float32(q.X)), append(p.ys, float32(q.Y))
		}
	} else {
		for i := len(pts) - 1; i >= 0; i-- {
			p.xs, p.ys = append(p.xs, float32(pts[i].X)), append(p.ys, float32(pts[i].Y))
		}
	}
	p.ends = append(p.ends, len(p.xs))
	p.bbox = rect{math.Min(p.bbox.x0, b.x0), math.Min(p.bbox.y0, b.y0), math.Max(p.bbox.x1, b.x1), math.Max(p.bbox.y1, b.y1)}
}

// clipPolygon clips pts to p.clip (Sutherland–Hodgman), using p's scratch
// buffers; the result is valid until the next call.
func (p *path) clipPolygon(pts []Point) []Point {
	c := p.clip
	in := append(p.tmp[:0], pts...)
	out := p.tmp2[:0]
	type edge struct {
		inside func(Point) bool
		cross  func(a, b Point) Point
	}
	lerpX := func(a, b Point, x float64) Point {
		return Point{x, a.Y + (b.Y-a.Y)*(x-a.X)/(b.X-a.X)}
	}
	lerpY := func(a, b Point, y float64) Point {
		return Point{a.X + (b.X-a.X)*(y-a.Y)/(b.Y-a.Y), y}
	}
	edges := [4]edge{
		{func(q Point) bool { return q.X >= c.x0 }, func(a, b Point) Point { return lerpX(a, b, c.x0) }},
		{func(q Point) bool { return q.X <= c.x1 }, func(a, b Point) Point { return lerpX(a, b, c.x1) }},
		{func(q Point) bool { return q.Y >= c.y0 }, func(a, b Point) Point { return lerpY(a, b, c.y0) }},
		{func(q Point) bool { return q.Y <= c.y1 }, func(a, b Point) Point { return lerpY(a, b, c.y1) }},
	}
	for _, e := range edges {
		out = out[:0]
		for i, cur := range in {
			prev := in[(i+len(in)-1)%len(in)]
			ci, pi := e.inside(cur), e.inside(prev)
			if ci {
				if !pi {
					out = append(out, e.cross(prev, cur))
				}
				out = append(out, cur)
			} else if pi {
				out = append(out, e.cross(prev, cur))
			}
		}
		in, out = out, in
		if len(in) < 3 {
			break
		}
	}
	p.tmp, p.tmp2 = in, out
	return in
}

// addSegment adds the quadrilateral covering the segment a-b widened by hw
// on both sides (butt ends). The centre line is clipped first, so the quad
// stays near the image.
func (p *path) addSegment(a, b Point, hw float64) {
	g := rect{p.clip.x0 - hw, p.clip.y0 - hw, p.clip.x1 + hw, p.clip.y1 + hw}
	var ok bool
	if a, b, ok = clipSegment(a, b, g); !ok {
		return
	}
	dx, dy := b.X-a.X, b.Y-a.Y
	l := math.Hypot(dx, dy)
	if l == 0 {
		return
	}
	nx, ny := -dy/l*hw, dx/l*hw
	p.quad = [4]Point{{a.X + nx, a.Y + ny}, {b.X + nx, b.Y + ny}, {b.X - nx, b.Y - ny}, {a.X - nx, a.Y - ny}}
	p.addPolygon(p.quad[:])
}

// addDisc adds a regular polygon approximating a disc; the number of sides
// grows with the radius so the edge error stays below about 0.05 px.
func (p *path) addDisc(c Point, r float64) {
	if !(r > 0) || !c.finite() {
		return
	}
	unit := unitCircle(discSides(r))
	p.disc = p.disc[:0]
	for _, u := range unit {
		p.disc = append(p.disc, Point{c.X + r*u.X, c.Y + r*u.Y})
	}
	p.addPolygon(p.disc)
}

// discSides is the number of polygon sides for a disc of radius r.
func discSides(r float64) int {
	n := int(math.Ceil(math.Pi / math.Sqrt(0.1/r)))
	return min(max(n, 8), 256)
}

var (
	unitCircleMu    sync.Mutex
	unitCircleCache = map[int][]Point{}
)

// unitCircle returns the n vertices of a regular polygon inscribed in the
// unit circle, starting at angle 0; the slice is shared and read-only.
func unitCircle(n int) []Point {
	unitCircleMu.Lock()
	defer unitCircleMu.Unlock()
	if pts, ok := unitCircleCache[n]; ok {
		return pts
	}
	pts := make([]Point, n)
	for i := range pts {
		a := 2 * math.Pi * float64(i) / float64(n)
		pts[i] = Point{math.Cos(a), math.Sin(a)}
	}
	unitCircleCache[n] = pts
	return pts
}

// joinAngleCos is the cosine of the turning angle below which polylines get
// no round join: the notch such a join would fill is under 0.15 px deep for
// widths up to 4 px.
var joinAngleCos = math.Cos(15 * math.Pi / 180)

// addPolyline adds a stroke of width 2*hw along pts with round joins where
// the line turns. NaN points break the line.
func (p *path) addPolyline(pts []Point, hw float64) {
	var prev Point
	have := false
	for i, q := range pts {
		if !q.finite() {
			have = false
			continue
		}
		if have {
			p.addSegment(prev, q, hw)
			if i+1 < len(pts) && pts[i+1].finite() && hw > 0.5 && p.near(q, hw) && turns(prev, q, pts[i+1]) {
				p.addDisc(q, hw)
			}
		}
		prev, have = q, true
	}
}

// turns reports whether the path a→b→c changes direction at b by more
// than the join threshold.
func turns(a, b, c Point) bool {
	ux, uy := b.X-a.X, b.Y-a.Y
	vx, vy := c.X-b.X, c.Y-b.Y
	lu, lv := math.Hypot(ux, uy), math.Hypot(vx, vy)
	if lu == 0 || lv == 0 {
		return false
	}
	return (ux*vx+uy*vy)/(lu*lv) < joinAngleCos
}

// near reports whether q lies within the clip rectangle grown by d.
func (p *path) near(q Point, d float64) bool {
	c := p.clip
	return q.X >= c.x0-d && q.X <= c.x1+d && q.Y >= c.y0-d && q.Y <= c.y1+d
}

// fill rasterises the union of the path's polygons onto dst in colour c.
func (p *path) fill(dst *image.RGBA, c color.RGBA) {
	if dst == nil || len(p.ends) == 0 || c.A == 0 || p.bbox.empty() {
		return
	}
	r := image.Rect(int(math.Floor(p.bbox.x0)), int(math.Floor(p.bbox.y0)),
		int(math.Ceil(p.bbox.x1))+1, int(math.Ceil(p.bbox.y1))+1).Intersect(dst.Rect)
	if r.Empty() {
		return
	}
	z := rasterPool.Get().(*raster)
	z.Reset(r.Dx(), r.Dy())
	ox, oy := float32(r.Min.X), float32(r.Min.Y)
	start := 0
	for _, end := range p.ends {
		z.MoveTo(p.xs[start]-ox, p.ys[start]-oy)
		for i := start + 1; i < end; i++ {
			z.LineTo(p.xs[i]-ox, p.ys[i]-oy)
		}
		z.ClosePath()
		start = end
	}
	// Rasterise the coverage into an alpha mask (the rasteriser's fast
	// path), then blend only where the mask is non-zero: a thin line's
	// bounding box is mostly empty.
	n := r.Dx() * r.Dy()
	if cap(z.mask.Pix) < n {
		z.mask.Pix = make([]uint8, n)
	}
	z.mask.Pix = z.mask.Pix[:n]
	z.mask.Stride = r.Dx()
	z.mask.Rect = image.Rect(0, 0, r.Dx(), r.Dy())
	z.DrawOp = draw.Src
	z.Draw(&z.mask, z.mask.Rect, image.Opaque, image.Point{})
	blendMask(dst, r, &z.mask, c)
	rasterPool.Put(z)
}

// over8 returns (src + dst·inv) / 255², rounded and clamped to 255 (only
// colours that are not validly premultiplied can exceed it); src and inv
// are scaled by 255².
func over8(src uint32, dst uint8, inv uint32) uint8 {
	return uint8(min((src+uint32(dst)*inv+255*255/2)/(255*255), 255))
}

// raster is a pooled rasteriser with its coverage mask.
type raster struct {
	vector.Rasterizer
	mask image.Alpha
}

// blendMask composites colour c onto dst over r with per-pixel coverage
// mask (whose origin is r.Min), skipping uncovered pixels.
func blendMask(dst *image.RGBA, r image.Rectangle, mask *image.Alpha, c color.RGBA) {
	w := r.Dx()
	cr, cg, cb, ca := uint32(c.R), uint32(c.G), uint32(c.B), uint32(c.A)
	for y := 0; y < r.Dy(); y++ {
		mrow := mask.Pix[y*mask.Stride : y*mask.Stride+w]
		drow := dst.Pix[dst.PixOffset(r.Min.X, r.Min.Y+y):][:4*w]
		for x := 0; x < w; x++ {
			// Skip runs of empty coverage eight pixels at a time.
			if x+8 <= w && binary.LittleEndian.Uint64(mrow[x:]) == 0 {
				x += 7
				continue
			}
			m := uint32(mrow[x])
			if m == 0 {
				continue
			}
			i := 4 * x
			if m == 255 && ca == 255 {
				drow[i], drow[i+1], drow[i+2], drow[i+3] = c.R, c.G, c.B, c.A
				continue
			}
			// Source scaled by coverage, then "over": d = s·m + d·(1 − a·m).
			inv := 255*255 - ca*m
			drow[i] = over8(cr*m*255, drow[i], inv)
			drow[i+1] = over8(cg*m*255, drow[i+1], inv)
			drow[i+2] = over8(cb*m*255, drow[i+2], inv)
			drow[i+3] = over8(ca*m*255, drow[i+3], inv)
		}
	}
}

// clipSegment clips a-b to r (Liang–Barsky) and reports whether any of it
// remains.
func clipSegment(a, b Point, r rect) (Point, Point, bool) {
	t0, t1 := 0.0, 1.0
	dx, dy := b.X-a.X, b.Y-a.Y
	for _, e := range [4][2]float64{{-dx, a.X - r.x0}, {dx, r.x1 - a.X}, {-dy, a.Y - r.y0}, {dy, r.y1 - a.Y}} {
		pp, q := e[0], e[1]
		if pp == 0 {
			if q < 0 {
				return a, b, false
			}
			continue
		}
		t := q / pp
		if pp < 0 {
			if t > t1 {
				return a, b, false
			}
			t0 = math.Max(t0, t)
		} else {
			if t < t0 {
				return a, b, false
			}
			t1 = math.Min(t1, t)
		}
	}
	if math.IsNaN(t0) || math.IsNaN(t1) {
		return a, b, false
	}
	na := Point{a.X + t0*dx, a.Y + t0*dy}
	nb := Point{a.X + t1*dx, a.Y + t1*dy}
	return na, nb, true
}

// Line draws an anti-aliased line of the given width from (x0, y0) to
// (x1, y1) with butt ends.
func Line(dst *image.RGBA, x0, y0, x1, y1, width float64, c color.RGBA) {
	Polyline(dst, []Point{{x0, y0}, {x1, y1}}, width, c)
}

// Polyline draws an anti-aliased line of the given width through pts, with
// round joins. NaN points break the line; non-positive or NaN widths draw
// nothing.
func Polyline(dst *image.RGBA, pts []Point, width float64, c color.RGBA) {
	if dst == nil || !(width > 0) || len(pts) < 2 {
		return
	}
	p := newPath(dst.Rect)
	p.addPolyline(pts, width/2)
	p.fill(dst, c)
	p.release()
}

// DashedLine draws an anti-aliased dashed line from (x0, y0) to (x1, y1)
// with dashes and gaps of the given lengths in pixels.
func DashedLine(dst *image.RGBA, x0, y0, x1, y1, width, dash, gap float64, c color.RGBA) {
	DashedPolyline(dst, []Point{{x0, y0}, {x1, y1}}, width, []float64{dash, gap}, c)
}

// DashedPolyline draws an anti-aliased dashed line through pts. pattern
// alternates dash and gap lengths in pixels ({6, 4} is a common choice) and
// continues across vertices. An empty pattern, or one with a non-positive
// or non-finite entry, draws a solid line.
func DashedPolyline(dst *image.RGBA, pts []Point, width float64, pattern []float64, c color.RGBA) {
	if dst == nil || !(width > 0) || len(pts) < 2 {
		return
	}
	total := 0.0
	for _, d := range pattern {
		if !(d > 0) || math.IsInf(d, 0) {
			total = 0
			break
		}
		total += d
	}
	if len(pattern) == 0 || total == 0 {
		Polyline(dst, pts, width, c)
		return
	}
	p := newPath(dst.Rect)
	defer p.release()
	hw := width / 2
	idx, left := 0, pattern[0] // current pattern entry and length left in it
	var prev Point
	have := false
	for _, q := range pts {
		if !q.finite() {
			have = false
			continue
		}
		if !have {
			prev, have = q, true
			continue
		}
		seg := math.Hypot(q.X-prev.X, q.Y-prev.Y)
		// Skip whole pattern periods of very long segments outside view.
		if !p.near(prev, seg) && !p.near(q, seg) {
			prev = q
			continue
		}
		pos := 0.0
		for pos < seg && seg-pos > 1e-9 {
			step := math.Min(left, seg-pos)
			if idx%2 == 0 {
				a := lerpPoint(prev, q, pos/seg)
				b := lerpPoint(prev, q, (pos+step)/seg)
				p.addSegment(a, b, hw)
			}
			pos += step
			left -= step
			if left <= 1e-9 {
				idx = (idx + 1) % len(pattern)
				left = pattern[idx]
			}
		}
		prev = q
	}
	p.fill(dst, c)
}

func lerpPoint(a, b Point, t float64) Point {
	return Point{a.X + (b.X-a.X)*t, a.Y + (b.Y-a.Y)*t}
}

// FillPolygon fills the polygon through pts (closed automatically) with
// anti-aliased edges. Polygons with fewer than three points or a NaN vertex
// draw nothing.
func FillPolygon(dst *image.RGBA, pts []Point, c color.RGBA) {
	if dst == nil {
		return
	}
	p := newPath(dst.Rect)
	p.addPolygon(pts)
	p.fill(dst, c)
	p.release()
}

// FillCircle fills a disc of radius r centred at (cx, cy).
func FillCircle(dst *image.RGBA, cx, cy, r float64, c color.RGBA) {
	if dst == nil {
		return
	}
	p := newPath(dst.Rect)
	p.addDisc(Point{cx, cy}, r)
	p.fill(dst, c)
	p.release()
}

// StrokeCircle draws a ring of the given width centred on the circle of
// radius r around (cx, cy).
func StrokeCircle(dst *image.RGBA, cx, cy, r, width float64, c color.RGBA) {
	if dst == nil || !(r > 0) || !(width > 0) {
		return
	}
	unit := unitCircle(discSides(r + width/2))
	pts := make([]Point, 0, len(unit)+2)
	for _, u := range unit {
		pts = append(pts, Point{cx + r*u.X, cy + r*u.Y})
	}
	pts = append(pts, pts[0])
	p := newPath(dst.Rect)
	p.addPolyline(append(pts, pts[1]), width/2)
	p.fill(dst, c)
	p.release()
}

// nan is a quiet NaN, used to mark points that break a line.
var nan = math.NaN()
