package plot

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestImagePanel(t *testing.T) {
	pix := []float32{0, 1, 0.5, float32(math.NaN()), 2, -1} // 3x2
	img := NewCanvas(200, 200, white)
	r, err := DrawImagePanel(img, image.Rect(0, 0, 200, 200), pix, 3, 2, ImageStyle{Caption: "caption"})
	require.NoError(t, err)
	// Whole-number zoom: 3x2 into ~198x(198-caption) gives 66 px blocks.
	assert.Equal(t, 0, r.Dx()%3)
	assert.Equal(t, r.Dx()/3, r.Dy()/2)
	bw := r.Dx() / 3
	at := func(col, row int) any { return img.RGBAAt(r.Min.X+col*bw+bw/2, r.Min.Y+row*bw+bw/2) }
	assert.Equal(t, Black, at(0, 0))
	assert.Equal(t, white, at(1, 0))
	assert.Equal(t, Grays.At(0.5), at(2, 0))
	assert.Equal(t, NaNColor, at(0, 1))
	assert.Equal(t, white, at(1, 1), "clamped above")
	assert.Equal(t, Black, at(2, 1), "clamped below")
	// A frame around, a caption below.
	assert.Equal(t, LightTheme().Frame, img.RGBAAt(r.Min.X-1, r.Min.Y))
	assert.Positive(t, countPixels(img, image.Rect(0, r.Max.Y+1, 200, 200), func(c color.RGBA) bool { return c != white }))

	_, err = DrawImagePanel(img, img.Rect, pix, 4, 2, ImageStyle{})
	assert.ErrorIs(t, err, ErrLengthMismatch)
	_, err = DrawImagePanel(img, img.Rect, nil, 0, 0, ImageStyle{})
	assert.ErrorIs(t, err, ErrEmptyData)
	_, err = DrawImagePanel(img, img.Rect, pix, 3, 2, ImageStyle{Min: 1, Max: 1})
	assert.ErrorIs(t, err, ErrBadDomain)
	_, err = DrawImagePanel(img, image.Rect(0, 0, 2, 2), pix, 3, 2, ImageStyle{})
	assert.ErrorIs(t, err, ErrTooSmall)
}

func TestImagePanelDownscales(t *testing.T) {
	pix := make([]float32, 400*100)
	img := NewCanvas(120, 60, white)
	r, err := DrawImagePanel(img, img.Rect, pix, 400, 100, ImageStyle{})
	require.NoError(t, err)
	assert.LessOrEqual(t, r.Dx(), 118)
	assert.InDelta(t, float64(r.Dx())/4, float64(r.Dy()), 1)
}

func TestLegend(t *testing.T) {
	img := NewCanvas(400, 300, white)
	area := image.Rect(0, 0, 400, 300)
	entries := []LegendEntry{
		{Label: "E4M3FN", Color: Blue},
		{Label: "E5M2", Color: Vermillion, Dash: []float64{4, 2}, Marker: MarkerSquare},
		{Label: "window", Color: SkyBlue, Kind: LegendSwatch},
		{Label: "samples", Color: BluishGreen, Kind: LegendMarker},
	}
	for _, corner := range []Corner{TopRight, TopLeft, BottomLeft, BottomRight} {
		box, err := DrawLegend(img, area, corner, entries, nil)
		require.NoError(t, err)
		assert.True(t, box.In(area), "%v", box)
		assert.Greater(t, box.Dy(), 4*14)
		switch corner {
		case TopRight:
			assert.Equal(t, area.Max.X-legendMargin, box.Max.X)
			assert.Equal(t, legendMargin, box.Min.Y)
		case BottomLeft:
			assert.Equal(t, legendMargin, box.Min.X)
			assert.Equal(t, area.Max.Y-legendMargin, box.Max.Y)
		}
	}
	box, err := DrawLegend(img, area, TopLeft, entries[2:3], nil)
	require.NoError(t, err)
	// The swatch is drawn in its colour.
	assert.Positive(t, countPixels(img, box, func(c color.RGBA) bool { return c == SkyBlue }))
	_, err = DrawLegend(img, area, TopLeft, nil, nil)
	assert.ErrorIs(t, err, ErrEmptyData)
	_, err = DrawLegend(nil, area, TopLeft, entries, nil)
	assert.ErrorIs(t, err, ErrNilImage)
}
