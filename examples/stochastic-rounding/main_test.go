package main

import (
	"bytes"
	"math"
	"testing"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStochasticBeatsNearest(t *testing.T) {
	var out bytes.Buffer
	res, err := run(&out, true)
	require.NoError(t, err)
	require.Len(t, res, 3)
	for _, r := range res {
		n := len(r.Exact)
		require.Equal(t, 2000, n)
		exact := r.Exact[n-1]
		require.InDelta(t, 3.0, exact, 1e-9)
		// Nearest stalls at the start: every update is swallowed.
		assert.Equal(t, 1.0, r.Nearest[n-1], r.Format)
		// A single stochastic run moves; on average it ends near the exact sum.
		assert.Greater(t, r.Stochastic[n-1], 1.5, r.Format)
		assert.InDelta(t, exact, r.MeanEnd, 0.1*exact, r.Format)
	}
	// In BF16 the spacing is fine enough for one run to track the sum.
	assert.InDelta(t, 3.0, res[0].Stochastic[1999], 0.15)
	assert.Less(t, math.Abs(res[0].StochasticError[1999]), math.Abs(res[0].NearestError[1999])/10)
}

// TestReadmeShowsTheRealOutput keeps the README's output block equal to what
// `go run ./examples/stochastic-rounding` prints.
func TestReadmeShowsTheRealOutput(t *testing.T) {
	var out bytes.Buffer
	_, err := run(&out, false)
	require.NoError(t, err)
	testenv.ReadmeOutput(t, "go run ./examples/stochastic-rounding", out.String())
}
