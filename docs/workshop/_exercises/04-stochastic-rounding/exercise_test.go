package sr

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/fp8"
)

var inputs = []float64{0.3952, -0.3952, 1.01, 3.3, -17.5, 100, 447, 0.001, -0.0007}

func TestPicksABracketWithTheRightProbability(t *testing.T) {
	const n = 1000
	for _, x := range inputs {
		e, err := fp8.E4M3FN.Explain(x, fp8.Mode{})
		require.NoError(t, err)
		lo, hi := float64(e.Lower), float64(e.Upper)
		ups, sum := 0, 0.0
		for i := 0; i < n; i++ {
			u := (float64(i) + 0.5) / n // an even grid over [0, 1)
			got, err := Round(x, u)
			require.NoError(t, err, "x=%g", x)
			require.True(t, got == lo || got == hi, "x=%g gave %g, not %g or %g", x, got, lo, hi)
			if got == hi && lo != hi {
				ups++
			}
			sum += got
		}
		// The fraction of values rounded away from zero is the input's
		// position between the brackets; the mean is the input itself.
		if lo != hi {
			away := float64(ups) / n
			if x < 0 {
				away = 1 - away
			}
			assert.InDelta(t, e.UpProbability, away, 2.0/n, "x=%g", x)
		}
		assert.InDelta(t, x, sum/n, (hi-lo)*2/n+1e-12, "x=%g: unbiased", x)
	}
}

func TestExactValuesStay(t *testing.T) {
	for _, x := range []float64{0, 1, -448, 448, 0x1p-9, 0.40625} {
		for _, u := range []float64{0, 0.5, 0.999} {
			got, err := Round(x, u)
			require.NoError(t, err)
			assert.Equal(t, x, got)
		}
	}
}
