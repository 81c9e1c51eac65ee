package stochastic

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/rng"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestErrorCorrelationSharedSeed shows the shared-seed bug and its fix:
// tensors rounded with the same (seed, stream) have correlated rounding
// errors; distinct streams make them uncorrelated within 5/sqrt(n).
func TestErrorCorrelationSharedSeed(t *testing.T) {
	const n = 1 << 15
	prng := rand.New(rand.NewPCG(1, 2))
	a := make([]float32, n)
	b := make([]float32, n)
	for i := range a {
		a[i] = float32(1 + prng.Float64()) // both in [1, 2): equal steps
		b[i] = float32(1 + prng.Float64())
	}
	shared := rng.NewStream(7, 0)
	same, err := ErrorCorrelation(fp8.E4M3FN, a, a, shared, shared, 32)
	require.NoError(t, err)
	assert.InDelta(t, 1, same, 1e-12, "equal tensors, shared stream: identical errors")

	corr, err := ErrorCorrelation(fp8.E4M3FN, a, b, shared, shared, 32)
	require.NoError(t, err)
	// Theory: corr = (E[min(fa, fb)] - 1/4) / E[f(1-f)] = (1/3 - 1/4)/(1/6) = 1/2.
	assert.InDelta(t, 0.5, corr, 0.03, "different tensors, shared stream")

	for _, other := range []rng.Stream{rng.NewStream(7, 1), rng.NewStream(8, 0)} {
		c, err := ErrorCorrelation(fp8.E4M3FN, a, b, shared, other, 32)
		require.NoError(t, err)
		assert.Less(t, math.Abs(c), 5/math.Sqrt(n), "distinct streams %+v", other)
		c, err = ErrorCorrelation(fp8.E4M3FN, a, a, shared, other, 32)
		require.NoError(t, err)
		assert.Less(t, math.Abs(c), 5/math.Sqrt(n), "same tensor, distinct streams %+v", other)
	}
}

func TestErrorCorrelationErrors(t *testing.T) {
	s := rng.NewStream(0, 0)
	_, err := ErrorCorrelation(fp8.E4M3FN, nil, nil, s, s, 8)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, err = ErrorCorrelation(fp8.E4M3FN, []float32{1}, []float32{1, 2}, s, s, 8)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, err = ErrorCorrelation(fp8.E4M3FN, []float32{1, 2}, []float32{1, 2}, s, s, 8)
	assert.ErrorIs(t, err, ErrInvalidArgument, "exact values: no variance")
	_, err = ErrorCorrelation(fp8.E4M3FN, []float32{1.1, float32(math.NaN())}, []float32{1.1, 1.2}, s, s, 8)
	assert.ErrorIs(t, err, ErrNaN)
	_, err = ErrorCorrelation(nil, []float32{1.1, 1.2}, []float32{1.1, 1.2}, s, s, 8)
	assert.ErrorIs(t, err, ErrInvalidArgument)
}
