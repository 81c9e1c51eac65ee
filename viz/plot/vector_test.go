package plot

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func countPixels(img *image.RGBA, r image.Rectangle, pred func(color.RGBA) bool) int {
	n := 0
	r = r.Intersect(img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if pred(img.RGBAAt(x, y)) {
				n++
			}
		}
	}
	return n
}

func TestLineColoursPixelsNearItsMidpoint(t *testing.T) {
	for _, seg := range [][4]float64{
		{10, 10, 90, 70},    // diagonal
		{5, 50.5, 95, 50.5}, // horizontal, on a pixel centre
		{30.5, 5, 30.5, 95},
		{90, 10, 10, 90},
	} {
		img := NewCanvas(100, 100, white)
		Line(img, seg[0], seg[1], seg[2], seg[3], 3, Blue)
		mx, my := (seg[0]+seg[2])/2, (seg[1]+seg[3])/2
		assert.Equal(t, Blue, img.RGBAAt(int(mx), int(my)), "midpoint of %v", seg)
		// Far from the line nothing is drawn.
		dx, dy := seg[2]-seg[0], seg[3]-seg[1]
		l := math.Hypot(dx, dy)
		ox, oy := mx-dy/l*10, my+dx/l*10
		assert.Equal(t, white, img.RGBAAt(int(ox), int(oy)), "10 px off %v", seg)
	}
}

func TestLineIsAntiAliased(t *testing.T) {
	img := NewCanvas(100, 100, white)
	Line(img, 10, 10, 90, 37, 1.5, Black)
	partial := countPixels(img, img.Rect, func(c color.RGBA) bool { return c != white && c != Black })
	assert.Positive(t, partial, "a sloped line has partially covered pixels")
}

func TestPolylineSkipsNaNAndFarPoints(t *testing.T) {
	img := NewCanvas(100, 100, white)
	pts := []Point{{10, 20}, {50, 20}, {math.NaN(), 0}, {60, 80}, {1e300, 80}, {-1e12, -1e12}, {math.Inf(1), 5}}
	require.NotPanics(t, func() { Polyline(img, pts, 2, Vermillion) })
	assert.Equal(t, Vermillion, img.RGBAAt(30, 20))
	// No segment joins the two pieces across the NaN.
	assert.Equal(t, white, img.RGBAAt(55, 50))
	// The segment towards the far point is clipped but drawn.
	assert.Equal(t, Vermillion, img.RGBAAt(90, 80))
}

func TestPolylineOverlapHasNoHoles(t *testing.T) {
	// Back and forth over the same pixels: segments of opposite direction
	// must not cancel under the winding rule.
	img := NewCanvas(100, 40, white)
	Polyline(img, []Point{{10, 20}, {90, 20}, {10, 20.2}, {90, 20}}, 4, Black)
	for x := 15; x < 85; x += 5 {
		assert.Equal(t, Black, img.RGBAAt(x, 20), "x=%d", x)
	}
}

func TestTranslucentPolylineDoesNotDoubleBlendAtJoins(t *testing.T) {
	img := NewCanvas(100, 100, white)
	c := WithAlpha(Blue, 0x80)
	Polyline(img, []Point{{10, 50}, {50, 50}, {50, 90}}, 6, c)
	corner := img.RGBAAt(50, 50)
	mid := img.RGBAAt(30, 50)
	assert.Equal(t, mid, corner, "the join is blended once, like the rest of the line")
}

func TestDashedLineHasGaps(t *testing.T) {
	img := NewCanvas(200, 20, white)
	DashedLine(img, 0, 10, 200, 10, 2, 10, 10, Black)
	on, off := 0, 0
	for x := 0; x < 200; x++ {
		if img.RGBAAt(x, 9) == Black || img.RGBAAt(x, 10) == Black {
			on++
		} else {
			off++
		}
	}
	assert.InDelta(t, 100, on, 12)
	assert.InDelta(t, 100, off, 12)
	assert.Equal(t, Black, img.RGBAAt(5, 10))
	assert.Equal(t, white, img.RGBAAt(15, 10))
	// A bad pattern draws a solid line.
	solid := NewCanvas(200, 20, white)
	DashedPolyline(solid, []Point{{0, 10}, {200, 10}}, 2, []float64{5, -1}, Black)
	assert.Equal(t, Black, solid.RGBAAt(15, 10))
}

func TestCirclesAndPolygons(t *testing.T) {
	img := NewCanvas(100, 100, white)
	FillCircle(img, 50, 50, 20, BluishGreen)
	assert.Equal(t, BluishGreen, img.RGBAAt(50, 50))
	assert.Equal(t, BluishGreen, img.RGBAAt(50, 32))
	assert.Equal(t, white, img.RGBAAt(50, 27))
	assert.Equal(t, white, img.RGBAAt(66, 66)) // outside the disc, inside its box
	// The disc's area is close to πr².
	area := countPixels(img, img.Rect, func(c color.RGBA) bool { return c != white })
	assert.InDelta(t, math.Pi*400, float64(area), 90)

	ring := NewCanvas(100, 100, white)
	StrokeCircle(ring, 50, 50, 30, 2, Black)
	assert.Equal(t, white, ring.RGBAAt(50, 50))
	assert.Equal(t, Black, ring.RGBAAt(80, 50))

	tri := NewCanvas(100, 100, white)
	FillPolygon(tri, []Point{{10, 90}, {90, 90}, {50, 10}}, Orange)
	assert.Equal(t, Orange, tri.RGBAAt(50, 70))
	assert.Equal(t, white, tri.RGBAAt(15, 15))
	assert.NotPanics(t, func() {
		FillPolygon(tri, nil, Orange)
		FillPolygon(tri, []Point{{0, 0}, {math.NaN(), 1}, {5, 5}}, Orange)
		FillPolygon(nil, []Point{{0, 0}, {1, 1}, {0, 1}}, Orange)
		FillCircle(tri, 0, 0, math.NaN(), Orange)
	})
}

func TestVectorDrawingRespectsSubImageClip(t *testing.T) {
	img := NewCanvas(100, 100, white)
	sub := img.SubImage(image.Rect(20, 20, 60, 60)).(*image.RGBA)
	Line(sub, 0, 0, 100, 100, 5, Black)
	FillCircle(sub, 60, 60, 30, Black)
	DrawMarkers(sub, MarkerSquare, []Point{{20, 20}, {59, 20}}, 12, Black)
	outside := countPixels(img, img.Rect, func(c color.RGBA) bool { return c != white }) -
		countPixels(img, sub.Rect, func(c color.RGBA) bool { return c != white })
	assert.Zero(t, outside)
	assert.Equal(t, Black, img.RGBAAt(40, 40))
}

func TestMarkers(t *testing.T) {
	for m := MarkerCircle; m <= MarkerCross; m++ {
		img := NewCanvas(40, 40, white)
		DrawMarker(img, m, 20, 20, 12, Black)
		ink := inkBounds(img, white)
		assert.False(t, ink.Empty(), m.String())
		assert.True(t, ink.In(image.Rect(8, 8, 32, 32)), "%v ink %v", m, ink)
		assert.NotEqual(t, white, img.RGBAAt(20, 20), m.String())
	}
	img := NewCanvas(40, 40, white)
	DrawMarker(img, MarkerNone, 20, 20, 12, Black)
	assert.True(t, inkBounds(img, white).Empty())
}

func TestRasterPrimitives(t *testing.T) {
	img := NewCanvas(20, 20, white)
	HLine(img, 15, 5, 3, Black) // reversed order, inclusive ends
	assert.Equal(t, Black, img.RGBAAt(5, 3))
	assert.Equal(t, Black, img.RGBAAt(15, 3))
	assert.Equal(t, white, img.RGBAAt(16, 3))
	VLine(img, 2, 0, 19, Black)
	assert.Equal(t, Black, img.RGBAAt(2, 19))

	box := NewCanvas(20, 20, white)
	StrokeRect(box, image.Rect(2, 2, 18, 18), 2, Black)
	assert.Equal(t, Black, box.RGBAAt(2, 2))
	assert.Equal(t, Black, box.RGBAAt(3, 10))
	assert.Equal(t, white, box.RGBAAt(4, 10))
	assert.Equal(t, Black, box.RGBAAt(17, 17))
	assert.Equal(t, white, box.RGBAAt(18, 18))

	// Translucent fills blend with "over".
	half := NewCanvas(4, 4, white)
	FillRect(half, half.Rect, WithAlpha(Black, 128))
	got := half.RGBAAt(1, 1)
	assert.InDelta(t, 127, int(got.R), 1)
	assert.Equal(t, uint8(255), got.A)
	FillRect(half, image.Rect(-10, -10, 100, 100), Blue) // clipped, no panic
	assert.Equal(t, Blue, half.RGBAAt(3, 3))

	dashed := NewCanvas(20, 3, white)
	DashedHLine(dashed, 0, 19, 1, 3, 2, Black)
	assert.Equal(t, Black, dashed.RGBAAt(2, 1))
	assert.Equal(t, white, dashed.RGBAAt(3, 1))
	assert.Equal(t, Black, dashed.RGBAAt(5, 1))

	assert.NotPanics(t, func() {
		FillRect(nil, image.Rect(0, 0, 5, 5), Black)
		Clear(nil, Black)
		Line(nil, 0, 0, 1, 1, 1, Black)
		NewCanvas(-1, -1, Black)
	})
}
