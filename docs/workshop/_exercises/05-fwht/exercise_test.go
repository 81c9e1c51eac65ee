package fwht

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/scaling"
)

func TestMatchesTheHadamardMatrix(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 8, 128} {
		h, err := scaling.HadamardMatrix(n)
		require.NoError(t, err)
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		got := append([]float64(nil), x...)
		require.NoError(t, Transform(got), "n=%d", n)
		norm0, norm1 := 0.0, 0.0
		for i := 0; i < n; i++ {
			want := 0.0 // (H·x)_i / √n from the matrix
			for j := 0; j < n; j++ {
				want += float64(h.At(i, j)) * x[j]
			}
			want /= math.Sqrt(float64(n))
			assert.InDelta(t, want, got[i], 1e-9, "n=%d i=%d", n, i)
			norm0 += x[i] * x[i]
			norm1 += got[i] * got[i]
		}
		assert.InDelta(t, norm0, norm1, 1e-9*norm0, "orthogonal: norm kept")
		// Symmetric and orthogonal: a second transform gives x back.
		require.NoError(t, Transform(got))
		assert.InDeltaSlice(t, x, got, 1e-9)
	}
}

func TestSpreadsAnOutlier(t *testing.T) {
	x := make([]float64, 64)
	x[5] = 64
	require.NoError(t, Transform(x))
	for i := range x {
		assert.InDelta(t, 8.0, math.Abs(x[i]), 1e-12, "one spike becomes 64 values of ±8")
	}
}

func TestRejectsOtherLengths(t *testing.T) {
	assert.Error(t, Transform(make([]float64, 12)))
	assert.Error(t, Transform(nil))
}
