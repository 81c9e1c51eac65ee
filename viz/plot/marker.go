package plot

import (
	"image"
	"image/color"
	"math"
)

// Marker is the shape of a point marker.
type Marker int

// Marker shapes. The zero value, MarkerNone, draws nothing.
const (
	MarkerNone Marker = iota
	MarkerCircle
	MarkerSquare
	MarkerDiamond
	MarkerTriangleUp
	MarkerTriangleDown
	MarkerPlus
	MarkerCross
)

// String returns the marker's name.
func (m Marker) String() string {
	switch m {
	case MarkerNone:
		return "none"
	case MarkerCircle:
		return "circle"
	case MarkerSquare:
		return "square"
	case MarkerDiamond:
		return "diamond"
	case MarkerTriangleUp:
		return "triangle-up"
	case MarkerTriangleDown:
		return "triangle-down"
	case MarkerPlus:
		return "plus"
	case MarkerCross:
		return "cross"
	}
	return "unknown"
}

// addMarker adds marker m of the given size (the diameter of the circle
// marker; other shapes have a similar visual weight) centred on c.
func (p *path) addMarker(m Marker, c Point, size float64) {
	if !(size > 0) || !c.finite() || !p.near(c, size) {
		return
	}
	r := size / 2
	switch m {
	case MarkerCircle:
		p.addDisc(c, r)
	case MarkerSquare:
		h := r * 0.886 // same area as the circle
		p.quad = [4]Point{{c.X - h, c.Y - h}, {c.X + h, c.Y - h}, {c.X + h, c.Y + h}, {c.X - h, c.Y + h}}
		p.addPolygon(p.quad[:])
	case MarkerDiamond:
		h := r * 1.2
		p.quad = [4]Point{{c.X, c.Y - h}, {c.X + h, c.Y}, {c.X, c.Y + h}, {c.X - h, c.Y}}
		p.addPolygon(p.quad[:])
	case MarkerTriangleUp, MarkerTriangleDown:
		h := r * 1.3
		s := 1.0
		if m == MarkerTriangleDown {
			s = -1
		}
		dx := h * math.Sqrt(3) / 2
		p.quad = [4]Point{{c.X, c.Y - s*h}, {c.X + dx, c.Y + s*h/2}, {c.X - dx, c.Y + s*h/2}}
		p.addPolygon(p.quad[:3])
	case MarkerPlus:
		w := math.Max(1, size/5)
		p.addSegment(Point{c.X - r, c.Y}, Point{c.X + r, c.Y}, w/2)
		p.addSegment(Point{c.X, c.Y - r}, Point{c.X, c.Y + r}, w/2)
	case MarkerCross:
		w := math.Max(1, size/5)
		d := r * 0.8
		p.addSegment(Point{c.X - d, c.Y - d}, Point{c.X + d, c.Y + d}, w/2)
		p.addSegment(Point{c.X - d, c.Y + d}, Point{c.X + d, c.Y - d}, w/2)
	}
}

// DrawMarker draws one marker of shape m and the given size centred at
// (x, y).
func DrawMarker(dst *image.RGBA, m Marker, x, y, size float64, c color.RGBA) {
	DrawMarkers(dst, m, []Point{{x, y}}, size, c)
}

// DrawMarkers draws a marker at every finite point of pts in one pass;
// overlapping markers merge instead of darkening each other.
func DrawMarkers(dst *image.RGBA, m Marker, pts []Point, size float64, c color.RGBA) {
	if dst == nil || m == MarkerNone {
		return
	}
	p := newPath(dst.Rect)
	for _, q := range pts {
		p.addMarker(m, q, size)
	}
	p.fill(dst, c)
	p.release()
}
