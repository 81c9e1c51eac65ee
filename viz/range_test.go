package viz

import (
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRangePlacesMaxima(t *testing.T) {
	for _, span := range []string{"fp8", "all"} {
		s, _, err := Render("range", map[string]string{"span": span}, 1280, 720)
		require.NoError(t, err)
		f := s.Facts()
		x := func(k string) float64 {
			v, err := strconv.ParseFloat(f[k], 64)
			require.NoError(t, err, k)
			return v
		}
		assert.Equal(t, "448", f["E4M3FN.max"])
		assert.Equal(t, "57344", f["E5M2.max"])
		assert.Equal(t, "65504", f["FP16.max"])
		assert.Greater(t, x("E5M2.max_x"), x("E4M3FN.max_x"), span)
		assert.Greater(t, x("E4M3FN.max_x"), x("E4M3FNUZ.max_x"), span)
		assert.Greater(t, x("E4M3FNUZ.max_x"), x("E2M1.max_x"), span)
		assert.Less(t, x("E5M2.min_subnormal_x"), x("E4M3FN.min_subnormal_x"), span)
		// The axis is honestly log2: distances are proportional to binades.
		got := (x("E5M2.max_x") - x("E4M3FN.max_x")) / (x("FP16.max_x") - x("E4M3FN.max_x"))
		want := (math.Log2(57344) - math.Log2(448)) / (math.Log2(65504) - math.Log2(448))
		assert.InDelta(t, want, got, 0.01, span)
	}
}

func TestRangeFormatsParam(t *testing.T) {
	s, err := New("range")
	require.NoError(t, err)
	require.NoError(t, s.Set("formats", " e4m3fn , bf16"))
	v, _ := s.Get("formats")
	assert.Equal(t, "E4M3FN,BF16", v)
	assert.ErrorIs(t, s.Set("formats", "E4M3FN,FP7"), ErrParam)
	assert.ErrorIs(t, s.Set("formats", ""), ErrParam)
	v, _ = s.Get("formats")
	assert.Equal(t, "E4M3FN,BF16", v)
	// The focus choices follow the formats.
	require.NoError(t, s.Set("focus", "bf16"))
	assert.ErrorIs(t, s.Set("focus", "E5M2"), ErrParam)
	require.NoError(t, s.Set("formats", "E5M2,E4M3FN"))
	v, _ = s.Get("focus")
	assert.Equal(t, "none", v, "the focused format left the list")
	require.NoError(t, s.Set("focus", "E5M2"))
	render(t, s, 640, 360)
	assert.Equal(t, "0.25", s.Facts()["E5M2.eps"])
}

func TestRangeClickFocusesLane(t *testing.T) {
	s, err := New("range")
	require.NoError(t, err)
	render(t, s, 1280, 720)
	lane := s.(*rangeScene).lanes[1]
	require.True(t, s.Click(lane.Min.X+20, (lane.Min.Y+lane.Max.Y)/2, 1280, 720))
	v, _ := s.Get("focus")
	assert.Equal(t, "E5M2", v)
	require.True(t, s.Click(lane.Min.X+20, (lane.Min.Y+lane.Max.Y)/2, 1280, 720))
	v, _ = s.Get("focus")
	assert.Equal(t, "none", v)
}

func TestSawtooth(t *testing.T) {
	// E2M1: 0.5 1 1.5 2 3 4 6. Spacing 0.5 until 2, then 1, then 2.
	xs, ys := sawtooth([]float64{0.5, 1, 1.5, 2, 3, 4, 6}, false)
	assert.Equal(t, []float64{0.5, 2, 2, 4, 4, 6}, xs)
	assert.Equal(t, []float64{0.5, 0.5, 1, 1, 2, 2}, ys)
	_, rel := sawtooth([]float64{0.5, 1, 1.5, 2, 3, 4, 6}, true)
	assert.Equal(t, []float64{1, 0.25, 0.5, 0.25, 0.5, 1.0 / 3}, rel)
}
