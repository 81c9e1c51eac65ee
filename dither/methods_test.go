package dither

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseMethod(t *testing.T) {
	for _, m := range Methods() {
		got, err := ParseMethod(m.String())
		require.NoError(t, err)
		assert.Equal(t, m, got)
		assert.True(t, m.Valid())
	}
	for s, want := range map[string]Method{" Floyd ": FloydSteinberg, "FS": FloydSteinberg, "floyd-steinberg": FloydSteinberg, "SR": Stochastic, "noisy": Stochastic, "ordered": Bayer4, "BAYER8": Bayer8} {
		got, err := ParseMethod(s)
		require.NoError(t, err, s)
		assert.Equal(t, want, got, s)
	}
	for _, s := range []string{"", "bayer3", "floydd", "nearest!"} {
		_, err := ParseMethod(s)
		assert.ErrorIs(t, err, ErrUnknownMethod, s)
	}
	_, err := ParseMethod("x")
	assert.Contains(t, err.Error(), "nearest, stochastic, bayer2, bayer4, bayer8, floyd")
	assert.Equal(t, "Method(9)", Method(9).String())
	assert.False(t, Method(9).Valid())
	assert.True(t, Stochastic.UsesRandomBits())
	assert.False(t, FloydSteinberg.UsesRandomBits())
}

func TestParseLevels(t *testing.T) {
	for s, want := range map[string]int{"2": 2, " 16 ": 16, "256": 256, "65536": 65536} {
		got, err := ParseLevels(s)
		require.NoError(t, err, s)
		assert.Equal(t, want, got)
	}
	for _, s := range []string{"", "1", "0", "-4", "65537", "4.5", "four", "99999999999999999999"} {
		_, err := ParseLevels(s)
		assert.ErrorIs(t, err, ErrInvalidArgument, s)
	}
}

func TestBayerMatrix(t *testing.T) {
	m, err := BayerMatrix(2)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 2, 3, 1}, m)
	m, err = BayerMatrix(4)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5}, m)
	for _, n := range []int{8, 16, 64} {
		m, err := BayerMatrix(n)
		require.NoError(t, err)
		sorted := slices.Sorted(slices.Values(m))
		for i, v := range sorted {
			require.Equal(t, i, v, "n=%d is a permutation of 0..n²-1", n)
		}
		// Dispersed: each 2×2 block holds one value from each quarter of
		// 0..n²-1, so every threshold level is spread over the whole matrix.
		q := n * n / 4
		for y := 0; y < n; y += 2 {
			for x := 0; x < n; x += 2 {
				quarters := []int{m[y*n+x] / q, m[y*n+x+1] / q, m[(y+1)*n+x] / q, m[(y+1)*n+x+1] / q}
				assert.ElementsMatch(t, []int{0, 1, 2, 3}, quarters, "n=%d block (%d, %d)", n, x, y)
			}
		}
	}
	for _, n := range []int{0, 1, 3, 6, 128} {
		_, err := BayerMatrix(n)
		assert.ErrorIs(t, err, ErrInvalidArgument, "n=%d", n)
	}
}
