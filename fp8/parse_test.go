package fp8

import (
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseNumber(t *testing.T) {
	for s, want := range map[string]float64{
		"1.5": 1.5, " -2e-3 ": -2e-3, ".5": 0.5, "0x1.8p-3": 0.1875, "inf": math.Inf(1),
		"-Infinity": math.Inf(-1), "+INF": math.Inf(1), "1e-400": 0,
	} {
		v, err := ParseNumber(s, 64)
		require.NoError(t, err, s)
		assert.Equal(t, want, v, s)
	}
	v, err := ParseNumber("-nan", 64)
	require.NoError(t, err)
	assert.True(t, math.IsNaN(v) && math.Signbit(v), "-nan keeps its sign")
	v, err = ParseNumber("NaN", 32)
	require.NoError(t, err)
	assert.True(t, math.IsNaN(v) && !math.Signbit(v))
	// One rounding, to the requested width.
	v, err = ParseNumber("1.00000005960464477539062500000001", 32)
	require.NoError(t, err)
	assert.Equal(t, float64(float32(1.0000001)), v)
	for _, s := range []string{"", "1_000", "1_0", "0x1_0p0", "abc", "1.5x", "--1", "nan(1)", "1 2"} {
		_, err := ParseNumber(s, 64)
		assert.ErrorIs(t, err, strconv.ErrSyntax, "%q", s)
	}
	v, err = ParseNumber("1e39", 32)
	assert.ErrorIs(t, err, strconv.ErrRange)
	assert.True(t, math.IsInf(v, 1))
	_, err = ParseNumber("1e400", 64)
	assert.ErrorIs(t, err, strconv.ErrRange)
	_, err = ParseNumber("1", 16)
	assert.Error(t, err)
}
