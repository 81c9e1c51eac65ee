package viz

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/scaling"
)

func factFloat(t *testing.T, f map[string]string, k string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(f[k], 64)
	require.NoError(t, err, "%s=%q", k, f[k])
	return v
}

func TestWindowScaleMovesTheWindow(t *testing.T) {
	s, err := New("window")
	require.NoError(t, err)
	prevOver, prevUnder := -1.0, 2.0
	for k := -4; k <= 30; k += 2 {
		require.NoError(t, s.Set("scale", strconv.Itoa(k)))
		f := s.Facts()
		over, under := factFloat(t, f, "overflow_fraction"), factFloat(t, f, "underflow_fraction")
		assert.GreaterOrEqual(t, over, prevOver, "overflow must grow with the scale (k=%d)", k)
		assert.LessOrEqual(t, under, prevUnder, "underflow must shrink with the scale (k=%d)", k)
		assert.InDelta(t, 448/float64(int64(1)<<max(k, 0))*pow2neg(min(k, 0)), factFloat(t, f, "window_high"), 1e-9)
		prevOver, prevUnder = over, under
	}
	// The gradients are tiny: at scale 1 most are flushed; near the scale
	// current scaling picks, none clip and the SQNR is far better.
	require.NoError(t, s.Set("scale", "0"))
	at0 := s.Facts()
	assert.Greater(t, factFloat(t, at0, "underflow_fraction"), 0.5)
	cur := factFloat(t, at0, "current_scale_log2")
	require.NoError(t, s.Set("scale", strconv.Itoa(int(cur)))) // rounded down: amax·scale <= 448
	atCur := s.Facts()
	assert.Equal(t, 0.0, factFloat(t, atCur, "overflow_fraction"))
	assert.Greater(t, factFloat(t, atCur, "sqnr_db"), factFloat(t, at0, "sqnr_db")+20)
}

func pow2neg(k int) float64 {
	v := 1.0
	for ; k < 0; k++ {
		v *= 2
	}
	return v
}

func TestWindowClickPlacesMax(t *testing.T) {
	s, err := New("window")
	require.NoError(t, err)
	render(t, s, 1280, 720)
	ax := s.(*windowScene).hx
	// Click where |x| = 2^-6: the scale that puts 448 there is 2^15 (448/2^-6 = 2^14.8).
	x := int(ax.X.Map(1.0 / 64))
	require.True(t, s.Click(x, (ax.Plot.Min.Y+ax.Plot.Max.Y)/2, 1280, 720))
	v, _ := s.Get("scale")
	assert.Equal(t, "15", v)
}

// Scenes never open files (issue 11): the window scene has no "file"
// parameter, and a tensor arrives through TensorLoader.
func TestWindowLoadsTensor(t *testing.T) {
	s, err := New("window")
	require.NoError(t, err)
	for _, p := range s.Params() {
		assert.NotEqual(t, "file", p.Name, "scenes take tensors, not paths")
	}
	assert.ErrorIs(t, s.Set("file", "/dev/zero"), ErrParam)
	assert.ErrorIs(t, s.Set("tensor", "loaded"), ErrParam, "nothing loaded yet")
	tl, ok := s.(TensorLoader)
	require.True(t, ok)
	tt, err := scaling.FromRows([][]float32{{1, 2, 3}, {4, 5, 1000}})
	require.NoError(t, err)
	require.NoError(t, tl.LoadTensor(tt))
	v, _ := s.Get("tensor")
	assert.Equal(t, "loaded", v)
	f := s.Facts()
	assert.Equal(t, "6", f["elements"])
	assert.Equal(t, "1000", f["amax"])
	tt, err = scaling.FromRows([][]float32{{0.5, -0.25}})
	require.NoError(t, err)
	require.NoError(t, tl.LoadTensor(tt))
	assert.Equal(t, "0.5", s.Facts()["amax"])
	render(t, s, 640, 360)
}
