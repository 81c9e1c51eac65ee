package viz

import (
	"bytes"
	"image"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/dither"
)

func TestDitherNearestAndStochasticDiffer(t *testing.T) {
	s, err := New("dither")
	require.NoError(t, err)
	img := render(t, s, 1280, 720)
	d := s.(*ditherScene)
	assert.NotEqual(t, d.nearest.Pix(), d.frame0.Pix(), "a stochastic frame equals round to nearest")
	// On the picture: the nearest panel and the stochastic panel differ.
	cells := panelCells(t, 1280, 720)
	assert.False(t, bytes.Equal(crop(img, cells[1]), crop(img, cells[2])))
	f := s.Facts()
	assert.Greater(t, factFloat(t, f, "psnr_average_db"), factFloat(t, f, "psnr_stochastic_1_db")+6, "averaging 16 frames must help")
	// The running mean is the dither package's own mean of N frames.
	o := dither.Options{Method: dither.Stochastic, Levels: 2, Frames: 16, Seed: 1, RandomBits: 32}
	want, err := dither.Dither(d.img, o)
	require.NoError(t, err)
	assert.Equal(t, want.Pix(), d.avg.Pix())
}

// panelCells recomputes the six image cells of a w×h dither picture, as
// Render lays them out.
func panelCells(t *testing.T, w, h int) []image.Rectangle {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	st, body, err := begin(img, "Dithering and stochastic rounding", "x")
	require.NoError(t, err)
	cols := splitCols(t, body, st.px(24), 1.85, 1)
	return gridCells(t, cols[0], 2, 3, st.px(10))
}

func crop(img *image.RGBA, r image.Rectangle) []byte {
	var out []byte
	for y := r.Min.Y; y < r.Max.Y; y++ {
		out = append(out, img.Pix[img.PixOffset(r.Min.X, y):img.PixOffset(r.Max.X, y)]...)
	}
	return out
}

func TestDitherGrowsN(t *testing.T) {
	s, err := New("dither")
	require.NoError(t, err)
	require.NoError(t, s.Set("frames", "1"))
	a, ok := s.(Animator)
	require.True(t, ok)
	for i := 0; i < 10; i++ {
		require.True(t, a.Animate())
	}
	n, _ := s.Get("frames")
	assert.Equal(t, "11", n)
	f := s.Facts()
	assert.Greater(t, factFloat(t, f, "psnr_average_db"), factFloat(t, f, "psnr_stochastic_1_db"))
	// Going back to fewer frames recomputes the mean.
	require.NoError(t, s.Set("frames", "4"))
	o := dither.Options{Method: dither.Stochastic, Levels: 2, Frames: 4, Seed: 1, RandomBits: 32}
	want, err := dither.Dither(s.(*ditherScene).img, o)
	require.NoError(t, err)
	assert.Equal(t, want.Pix(), s.(*ditherScene).avg.Pix())
	require.NoError(t, s.Set("animate", "false"))
	assert.False(t, a.Animate())
	require.NoError(t, s.Set("animate", "true"))
	require.NoError(t, s.Set("frames", "256"))
	assert.False(t, a.Animate(), "N stops at 256")
}

func TestDitherTinyUpdates(t *testing.T) {
	s, err := New("dither")
	require.NoError(t, err)
	f := s.Facts()
	assert.Equal(t, "1", f["tiny_nearest_final"], "round to nearest stalls: 2^-10 is below half of BF16's spacing at 1")
	exact := factFloat(t, f, "tiny_exact_final")
	assert.InDelta(t, exact, factFloat(t, f, "tiny_stochastic_final"), 0.05*exact)
	// With one random bit stochastic rounding is biased toward zero and
	// with an update this small it never moves (probability floor(u/step·2)/2 = 0).
	require.NoError(t, s.Set("bits", "1"))
	assert.Equal(t, "1", s.Facts()["tiny_stochastic_final"])
}
