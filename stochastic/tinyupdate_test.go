package stochastic

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTinyUpdatesNearestStallsStochasticTracks runs w += u with u below
// half a step: round to nearest never moves, stochastic rounding follows the
// exact sum. The stochastic error after n steps is a sum of n independent
// zero-mean terms, each at most one step in size with variance at most
// step²/4, so |error| < 5·step·sqrt(n)/2 holds with overwhelming probability.
func TestTinyUpdatesNearestStallsStochasticTracks(t *testing.T) {
	cases := []struct {
		format string
		update float64
		step   float64 // spacing of the format's values in [1, 2)
	}{
		{"BF16", 1e-3, 1.0 / 128},
		{"E5M2", 0.05, 0.25},
		{"E4M3FN", 0.02, 0.125},
		{"FP16", 1e-4, 1.0 / 1024},
	}
	for _, c := range cases {
		steps := int(0.9 / c.update) // stay inside [1, 2): one step size throughout
		res, err := TinyUpdates(TinyUpdateConfig{Format: c.format, Start: 1, Update: c.update, Steps: steps, Seed: 5})
		require.NoError(t, err)
		require.Len(t, res.Exact, steps)
		assert.Equal(t, 1.0, res.Start)
		for i := range res.Nearest {
			require.Equal(t, 1.0, res.Nearest[i], "%s: nearest moved at step %d", c.format, i)
		}
		exact := 1 + float64(steps)*c.update
		assert.InDelta(t, exact, res.Exact[steps-1], 1e-12)
		assert.InDelta(t, -float64(steps)*c.update, res.NearestError[steps-1], 1e-12, "%s: nearest loses every update", c.format)
		bound := 5 * c.step * math.Sqrt(float64(steps)) / 2
		assert.InDelta(t, exact, res.Stochastic[steps-1], bound, c.format)
		assert.Equal(t, res.Stochastic[steps-1]-res.Exact[steps-1], res.StochasticError[steps-1])
		// Every stochastic value is on the format's grid near the exact sum.
		for i, v := range res.Stochastic {
			require.InDelta(t, res.Exact[i], v, 10*c.step*math.Sqrt(float64(i+1)), "%s step %d", c.format, i)
		}
	}
}

// TestTinyUpdatesFewBitsBias: with too few random bits the probability of
// moving up is floored to a multiple of 2^-r. Here u/step = 0.128 and r = 2:
// floor(0.128·4)/4 = 0, so stochastic rounding stalls like nearest.
func TestTinyUpdatesFewBitsBias(t *testing.T) {
	res, err := TinyUpdates(TinyUpdateConfig{Format: "BF16", Start: 1, Update: 1e-3, Steps: 500, RandomBits: 2, Seed: 1})
	require.NoError(t, err)
	assert.Equal(t, 1.0, res.Stochastic[len(res.Stochastic)-1])
}

func TestTinyUpdatesReproducible(t *testing.T) {
	cfg := TinyUpdateConfig{Format: "E5M2", Start: 2, Update: 0.1, Steps: 3000, Seed: 9, Stream: 4}
	a, err := TinyUpdates(cfg)
	require.NoError(t, err)
	b, err := TinyUpdates(cfg)
	require.NoError(t, err)
	assert.Equal(t, a.Stochastic, b.Stochastic)
	cfg.Stream = 5
	c, err := TinyUpdates(cfg)
	require.NoError(t, err)
	assert.NotEqual(t, a.Stochastic, c.Stochastic, "another stream draws other bits")
}

func TestTinyUpdatesErrors(t *testing.T) {
	for _, cfg := range []TinyUpdateConfig{
		{Format: "nope", Start: 1, Update: 1, Steps: 1},
		{Format: "BF16", Start: 1, Update: 1, Steps: 0},
		{Format: "BF16", Start: 1, Update: 1, Steps: MaxSamples + 1},
		{Format: "BF16", Start: math.NaN(), Update: 1, Steps: 1},
		{Format: "BF16", Start: 1, Update: math.Inf(1), Steps: 1},
		{Format: "BF16", Start: 1, Update: 1, Steps: 1, RandomBits: 33},
	} {
		_, err := TinyUpdates(cfg)
		assert.Error(t, err, "%+v", cfg)
	}
}
