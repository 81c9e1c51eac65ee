package plot

import (
	"image"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGridCells(t *testing.T) {
	cells, err := GridCells(image.Rect(0, 0, 1280, 720), 2, 3, 10)
	require.NoError(t, err)
	require.Len(t, cells, 6)
	assert.Equal(t, image.Rect(0, 0, 420, 355), cells[0])
	assert.Equal(t, 430, cells[1].Min.X, "gap of 10")
	assert.Equal(t, 1280, cells[2].Max.X)
	assert.Equal(t, 720, cells[5].Max.Y)
	assert.Equal(t, 365, cells[3].Min.Y)
	for _, c := range cells {
		assert.InDelta(t, 420, c.Dx(), 1)
		assert.InDelta(t, 355, c.Dy(), 1)
	}
	// Cells never overlap.
	for i := range cells {
		for j := i + 1; j < len(cells); j++ {
			assert.False(t, cells[i].Overlaps(cells[j]))
		}
	}
	_, err = GridCells(image.Rect(0, 0, 10, 10), 0, 1, 0)
	assert.ErrorIs(t, err, ErrBadArgument)
	_, err = GridCells(image.Rect(0, 0, 10, 10), 1, 5, 3)
	assert.ErrorIs(t, err, ErrTooSmall)
}

func TestSplits(t *testing.T) {
	cols, err := SplitColumns(image.Rect(100, 0, 400, 50), 0, 2, 1)
	require.NoError(t, err)
	assert.Equal(t, []image.Rectangle{image.Rect(100, 0, 300, 50), image.Rect(300, 0, 400, 50)}, cols)
	rows, err := SplitRows(image.Rect(0, 0, 50, 100), 4, 1, 1, 1)
	require.NoError(t, err)
	require.Len(t, rows, 3)
	assert.Equal(t, 0, rows[0].Min.Y)
	assert.Equal(t, 100, rows[2].Max.Y)
	assert.Equal(t, rows[0].Max.Y+4, rows[1].Min.Y)
	for _, bad := range [][]float64{nil, {1, 0}, {1, math.NaN()}, {math.Inf(1)}} {
		_, err := SplitColumns(image.Rect(0, 0, 100, 100), 0, bad...)
		assert.Error(t, err, "%v", bad)
	}
	_, err = SplitRows(image.Rect(0, 0, 100, 100), -1, 1)
	assert.ErrorIs(t, err, ErrBadArgument)
}

func TestInsetsAndTitleBar(t *testing.T) {
	r := image.Rect(0, 0, 100, 50)
	assert.Equal(t, image.Rect(5, 5, 95, 45), Inset(r, 5))
	assert.Equal(t, image.Rect(-5, -5, 105, 55), Inset(r, -5))
	assert.Equal(t, image.Rect(4, 1, 97, 48), Insets{Top: 1, Right: 3, Bottom: 2, Left: 4}.Apply(r))
	assert.True(t, Inset(r, 40).Empty(), "over-inset collapses")
	bar, body := TitleBar(r, 20)
	assert.Equal(t, image.Rect(0, 0, 100, 20), bar)
	assert.Equal(t, image.Rect(0, 20, 100, 50), body)
	bar, body = TitleBar(r, 80)
	assert.Equal(t, r, bar)
	assert.True(t, body.Empty())

	img := NewCanvas(400, 100, white)
	rest := DrawTitleBar(img, img.Rect, "Title", "subtitle", nil)
	assert.Equal(t, 100, rest.Max.Y)
	assert.Greater(t, rest.Min.Y, 15)
	ink := inkBounds(img.SubImage(image.Rect(0, 0, 400, rest.Min.Y-1)).(*image.RGBA), white)
	assert.False(t, ink.Empty())
}

// A title bar too narrow for its title and subtitle wraps them below each
// other, and every line stays inside the bar; a wide one keeps one line.
func TestDrawTitleBarWraps(t *testing.T) {
	th := LightTheme()
	title, sub := "Hadamard rotation and outliers", "rotating a row spreads an outlier over the block, shrinking amax so the scale fits the bulk"
	wide := image.NewRGBA(image.Rect(0, 0, 2000, 600))
	oneLine := DrawTitleBar(wide, wide.Rect, title, sub, &th)
	narrow := image.NewRGBA(image.Rect(0, 0, 340, 1100))
	var body image.Rectangle
	texts := recordText(narrow, func() { body = DrawTitleBar(narrow, narrow.Rect, title, sub, &th) })
	require.NotEmpty(t, texts)
	smallest := texts[0].Size
	for _, tx := range texts {
		smallest = min(smallest, tx.Size)
	}
	assert.Equal(t, th.LabelSize, smallest)
	assert.Greater(t, body.Min.Y, 2*oneLine.Min.Y, "the subtitle goes on lines of its own")
	// Nothing is drawn right of the margin: the last columns are background.
	for y := 0; y < body.Min.Y-1; y++ {
		for x := narrow.Rect.Max.X - 2*outerPad + 1; x < narrow.Rect.Max.X; x++ {
			require.Equal(t, th.Background, narrow.RGBAAt(x, y), "pixel %d,%d", x, y)
		}
	}
	// A thumbnail keeps one line.
	small := th
	small.TitleSize, small.LabelSize = 9, 8
	thumb := image.NewRGBA(image.Rect(0, 0, 340, 200))
	assert.Less(t, DrawTitleBar(thumb, thumb.Rect, title, sub, &small).Min.Y, 30)
}
