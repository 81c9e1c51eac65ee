package plot

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDrawHeatmapExtremesGetMapEnds(t *testing.T) {
	data := [][]float64{
		{0, 1, 2, 3},
		{4, 5, 6, 7},
		{8, 9, math.NaN(), 11},
	}
	img := NewCanvas(40, 30, white)
	require.NoError(t, DrawHeatmap(img, img.Rect, data, HeatmapStyle{}))
	lut := Viridis.LUT()
	// Each cell is a 10x10 block, row 0 at the top.
	assert.Equal(t, lut[0], img.RGBAAt(5, 5), "min value gets the first colour")
	assert.Equal(t, lut[lutMax], img.RGBAAt(35, 25), "max value gets the last colour")
	assert.Equal(t, Viridis.At(1), img.RGBAAt(39, 29))
	assert.Equal(t, NaNColor, img.RGBAAt(25, 25))
	assert.Equal(t, lut[lutIndex(5.0/11)], img.RGBAAt(15, 15))
	// Cells are uniform blocks.
	assert.Equal(t, img.RGBAAt(10, 10), img.RGBAAt(19, 19))
}

func TestDrawHeatmapWithValueScaleClamps(t *testing.T) {
	data := [][]float64{{-5, -1, 0, 1, 5}}
	v, err := NewLinear(-1, 1)
	require.NoError(t, err)
	img := NewCanvas(50, 10, white)
	require.NoError(t, DrawHeatmap(img, img.Rect, data, HeatmapStyle{Map: BlueWhiteRed, Value: v}))
	assert.Equal(t, BlueWhiteRed.At(0), img.RGBAAt(5, 5))
	assert.Equal(t, BlueWhiteRed.At(0), img.RGBAAt(15, 5))
	assert.Equal(t, BlueWhiteRed.At(0.5), img.RGBAAt(25, 5))
	assert.Equal(t, Hex(0xf7f7f7), img.RGBAAt(25, 5), "zero is the diverging map's white")
	assert.Equal(t, BlueWhiteRed.At(1), img.RGBAAt(45, 5))
}

func TestHeatmapErrors(t *testing.T) {
	img := NewCanvas(10, 10, white)
	assert.ErrorIs(t, DrawHeatmap(img, img.Rect, nil, HeatmapStyle{}), ErrEmptyData)
	assert.ErrorIs(t, DrawHeatmap(img, img.Rect, [][]float64{{}}, HeatmapStyle{}), ErrEmptyData)
	assert.ErrorIs(t, DrawHeatmap(img, img.Rect, [][]float64{{1, 2}, {3}}, HeatmapStyle{}), ErrLengthMismatch)
	assert.ErrorIs(t, DrawHeatmap(img, img.Rect, [][]float64{{math.NaN()}}, HeatmapStyle{}), ErrEmptyData)
	assert.ErrorIs(t, DrawHeatmap(nil, img.Rect, [][]float64{{1}}, HeatmapStyle{}), ErrNilImage)
	// A constant grid is fine: it gets the middle colour.
	require.NoError(t, DrawHeatmap(img, img.Rect, [][]float64{{3, 3}}, HeatmapStyle{}))
	assert.Equal(t, Viridis.LUT()[lutMax/2], img.RGBAAt(5, 5))
}

func TestAxesHeatmapOrientation(t *testing.T) {
	data := [][]float64{{0, 0}, {1, 1}} // row 1 holds the max
	for _, reversed := range []bool{false, true} {
		x, _ := NewLinear(0, 2)
		y, _ := NewLinear(0, 2)
		if reversed {
			y, _ = NewLinear(2, 0)
		}
		ax, err := NewAxes(image.Rect(0, 0, 300, 300), x, y, AxesOptions{})
		require.NoError(t, err)
		img := NewCanvas(300, 300, white)
		ax.Draw(img)
		require.NoError(t, ax.Heatmap(img, data, HeatmapStyle{}))
		p := ax.Plot
		top := img.RGBAAt((p.Min.X+p.Max.X)/2, p.Min.Y+2)
		bottom := img.RGBAAt((p.Min.X+p.Max.X)/2, p.Max.Y-3)
		lut := Viridis.LUT()
		if reversed {
			assert.Equal(t, lut[0], top, "reversed y puts row 0 at the top")
			assert.Equal(t, lut[lutMax], bottom)
		} else {
			assert.Equal(t, lut[lutMax], top, "row 1 (max) at the top of an ordinary y axis")
			assert.Equal(t, lut[0], bottom)
		}
		// The heatmap covers the whole plot area and nothing outside it.
		covered := countPixels(img, p, func(c color.RGBA) bool { return c == lut[0] || c == lut[lutMax] })
		assert.Equal(t, p.Dx()*p.Dy(), covered)
		assert.NotEqual(t, lut[0], img.RGBAAt(p.Min.X-1, p.Max.Y-3))
	}
}

func TestColorBar(t *testing.T) {
	v, err := NewLinear(-0.05, 0.05)
	require.NoError(t, err)
	img := NewCanvas(100, 220, white)
	r := image.Rect(10, 10, 100, 210)
	require.NoError(t, DrawColorBar(img, r, ColorBarStyle{Map: BlueWhiteRed, Value: v, Label: "error"}, nil))
	assert.Equal(t, BlueWhiteRed.At(1), img.RGBAAt(15, 10), "top of the bar is the map's last colour")
	assert.Equal(t, BlueWhiteRed.At(0), img.RGBAAt(15, 209))
	// Tick labels are drawn right of the bar.
	ink := inkBounds(img.SubImage(image.Rect(35, 0, 100, 220)).(*image.RGBA), white)
	assert.False(t, ink.Empty())

	assert.ErrorIs(t, DrawColorBar(img, r, ColorBarStyle{}, nil), ErrBadArgument)
	assert.ErrorIs(t, DrawColorBar(img, image.Rect(0, 0, 5, 5), ColorBarStyle{Value: v}, nil), ErrTooSmall)
	assert.ErrorIs(t, DrawColorBar(nil, r, ColorBarStyle{Value: v}, nil), ErrNilImage)
}

func TestValueRanges(t *testing.T) {
	data := [][]float64{{math.NaN(), -3}, {2, math.Inf(1)}}
	lo, hi, err := ValueRange(data)
	require.NoError(t, err)
	assert.Equal(t, [2]float64{-3, 2}, [2]float64{lo, hi})
	lo, hi, err = SymmetricRange(data)
	require.NoError(t, err)
	assert.Equal(t, [2]float64{-3, 3}, [2]float64{lo, hi})
	lo, hi, err = SymmetricRange([][]float64{{0}})
	require.NoError(t, err)
	assert.Equal(t, [2]float64{-1, 1}, [2]float64{lo, hi})
	_, _, err = ValueRange([][]float64{{math.NaN()}})
	assert.ErrorIs(t, err, ErrEmptyData)
}

// A single extreme row survives a map drawn smaller than its data.
func TestHeatmapPoolKeepsExtremes(t *testing.T) {
	data := make([][]float64, 256)
	for i := range data {
		data[i] = make([]float64, 256)
	}
	for j := range data[101] {
		data[101][j] = 1
	}
	for _, h := range []int{37, 64, 100} {
		img := image.NewRGBA(image.Rect(0, 0, h, h))
		v, _ := NewLinear(0, 1)
		if err := DrawHeatmap(img, img.Rect, data, HeatmapStyle{Value: v, Pool: PoolMax}); err != nil {
			t.Fatal(err)
		}
		y := 101 * h / 256
		if img.RGBAAt(h/2, y) != Viridis.At(1) {
			t.Errorf("size %d: the outlier row is not drawn at pixel row %d", h, y)
		}
	}
}
