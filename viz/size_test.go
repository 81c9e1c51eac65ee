package viz

import (
	"image"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHostileSizes: Click with sizes near 1<<40 used to panic in
// image.NewRGBA; Render with a hand-built image whose pixels do not cover
// its bounds panicked in the drawing code (issue 12 item 8). Every scene
// refuses them.
func TestHostileSizes(t *testing.T) {
	sizes := [][2]int{{1 << 40, 1 << 40}, {math.MaxInt, 2}, {2, math.MinInt}, {MaxRenderSize + 1, 600}, {800, MaxRenderSize + 1}, {0, 0}, {-5, 600}}
	for _, name := range Names() {
		s, err := New(name)
		require.NoError(t, err)
		for _, sz := range sizes {
			assert.NotPanics(t, func() { assert.False(t, s.Click(10, 10, sz[0], sz[1])) }, "%s %v", name, sz)
			_, _, err := Render(name, nil, sz[0], sz[1])
			assert.Error(t, err, "%s %v", name, sz)
		}
		bad := []*image.RGBA{
			nil,
			{Rect: image.Rect(0, 0, 1<<40, 1<<40)},
			{Rect: image.Rect(0, 0, MaxRenderSize+1, MinHeight), Pix: make([]byte, 4), Stride: 4},
			{Rect: image.Rect(0, 0, 800, 600), Pix: make([]byte, 100), Stride: 3200},
			{Rect: image.Rect(0, 0, 800, 600), Pix: make([]byte, 800*600*4), Stride: math.MaxInt / 2},
			{Rect: image.Rect(0, 0, 800, 600), Pix: make([]byte, 800*600*4), Stride: 16},
		}
		for i, dst := range bad {
			assert.NotPanics(t, func() { assert.Error(t, s.Render(dst), "%s dst %d", name, i) }, "%s dst %d", name, i)
		}
	}
	// Subimages and the largest size still render.
	s, err := New("explorer")
	require.NoError(t, err)
	big := image.NewRGBA(image.Rect(0, 0, 900, 700))
	require.NoError(t, s.Render(big.SubImage(image.Rect(100, 100, 900, 700)).(*image.RGBA)))
	assert.NotNil(t, canvas(MaxRenderSize, MinHeight))
	assert.Nil(t, canvas(MaxRenderSize+1, MinHeight))
}
