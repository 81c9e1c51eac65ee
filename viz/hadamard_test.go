package viz

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHadamardSpreadsTheOutlier(t *testing.T) {
	s, err := New("hadamard")
	require.NoError(t, err)
	for _, p := range [][2]string{{"format", "E4M3FN"}, {"outlier", "10"}, {"n", "1024"}, {"block", "full"}, {"random_signs", "false"}} {
		require.NoError(t, s.Set(p[0], p[1]))
	}
	f := s.Facts()
	assert.Equal(t, "1024", f["amax_before"])
	// One outlier of 1024 spread over 1024 elements: ±32 plus the bulk.
	after := factFloat(t, f, "amax_after")
	assert.Greater(t, after, 32.0)
	assert.Less(t, after, 32.0+6)
	// The bimodal case: every rotated value is near ±32.
	h := s.(*hadamardScene).after
	mid := 0.0
	for i, c := range h.counts {
		if math.Abs((h.edges[i]+h.edges[i+1])/2) < 16 {
			mid += c
		}
	}
	assert.Zero(t, mid, "no rotated value should be near zero")
	// A block of 16 spreads it less: 1024/4 = 256.
	require.NoError(t, s.Set("block", "16"))
	assert.InDelta(t, 256, factFloat(t, s.Facts(), "amax_after"), 6)
}

func TestHadamardRescuesFP4(t *testing.T) {
	s, _, err := Render("hadamard", nil, 640, 360) // defaults: E2M1, outlier 2^6
	require.NoError(t, err)
	f := s.Facts()
	assert.Equal(t, "E2M1", f["format"])
	assert.Greater(t, factFloat(t, f, "rotated_bulk_sqnr_db"), factFloat(t, f, "plain_bulk_sqnr_db")+6)
	assert.Greater(t, factFloat(t, f, "plain_underflow"), factFloat(t, f, "rotated_underflow"))
}

func TestHadamardRefusesBadCombination(t *testing.T) {
	s, err := New("hadamard")
	require.NoError(t, err)
	require.NoError(t, s.Set("format", "E4M3FNUZ"))
	assert.ErrorIs(t, s.Set("granularity", "mx"), ErrParam, "MX has no FNUZ element type")
	g, _ := s.Get("granularity")
	assert.Equal(t, "tensor", g)
	render(t, s, 640, 360)
}
