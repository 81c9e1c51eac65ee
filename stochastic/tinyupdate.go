package stochastic

import (
	"fmt"
	"math"

	"github.com/fp8lab/fp8lab/rng"
)

// TinyUpdateConfig describes the tiny-update experiment: a weight w starts
// at Start and receives the same update Update Steps times, w ← round(w +
// Update), in a low-precision format. When Update is below half the spacing
// of the format's values around w, round to nearest returns w unchanged at
// every step (the update is "swamped"), while stochastic rounding moves w up
// one step with probability Update/step, so it follows the exact sum on average.
type TinyUpdateConfig struct {
	Format     string  // "BF16", "E5M2", "E4M3FN", ...: see NewRounder
	Start      float64 // w before the first update
	Update     float64 // u added at every step
	Steps      int     // number of updates, 1..MaxSamples
	RandomBits int     // r for the stochastic run, 1..32; 0 means rng.DefaultRandomBits
	Seed       uint64  // step i (0-based) of the stochastic run uses the word ...
	Stream     uint64  // ... rng.Bits(Seed, Stream, i)
}

// TinyUpdateResult holds the per-step series: index i is the state after
// i+1 updates.
type TinyUpdateResult struct {
	Format          string    // the format's name
	Start           float64   // Start rounded to nearest in the format: where both runs begin
	Exact           []float64 // Start + (i+1)·Update, in float64
	Nearest         []float64 // w with round to nearest even at every step
	Stochastic      []float64 // w with stochastic rounding at every step
	NearestError    []float64 // Nearest[i] - Exact[i]
	StochasticError []float64 // Stochastic[i] - Exact[i]
}

// TinyUpdates runs the tiny-update experiment. Both runs compute w + u
// exactly (in float64, which holds every sum of a 16-bit value and a float64
// update to well below the format's resolution) and round the sum once.
func TinyUpdates(cfg TinyUpdateConfig) (*TinyUpdateResult, error) {
	rd, err := NewRounder(cfg.Format)
	if err != nil {
		return nil, err
	}
	if cfg.Steps < 1 || cfg.Steps > MaxSamples {
		return nil, fmt.Errorf("%w: steps must be in 1..%d, got %d", ErrInvalidArgument, MaxSamples, cfg.Steps)
	}
	if !isFinite(cfg.Start) || !isFinite(cfg.Update) {
		return nil, fmt.Errorf("%w: start %g, update %g", ErrNaN, cfg.Start, cfg.Update)
	}
	r := cfg.RandomBits
	if r == 0 {
		r = rng.DefaultRandomBits
	}
	if err := checkRandomBits(r); err != nil {
		return nil, err
	}
	// Both runs start from Start rounded to the format.
	start, err := rd.Nearest(cfg.Start)
	if err != nil {
		return nil, err
	}
	n := cfg.Steps
	res := &TinyUpdateResult{
		Format:          rd.Name(),
		Start:           start,
		Exact:           make([]float64, n),
		Nearest:         make([]float64, n),
		Stochastic:      make([]float64, n),
		NearestError:    make([]float64, n),
		StochasticError: make([]float64, n),
	}
	// The random words are drawn updateChunk at a time.
	const updateChunk = 2048
	var random [updateChunk]uint32
	wn, ws := start, start
	for i := 0; i < n; i++ {
		if i%updateChunk == 0 {
			rng.Fill(random[:], cfg.Seed, cfg.Stream, uint64(i))
		}
		exact := start + float64(i+1)*cfg.Update
		if wn, err = rd.Nearest(wn + cfg.Update); err != nil {
			return nil, fmt.Errorf("step %d: %w", i, err)
		}
		if ws, err = rd.Stochastic(ws+cfg.Update, random[i%updateChunk], r); err != nil {
			return nil, fmt.Errorf("step %d: %w", i, err)
		}
		res.Exact[i], res.Nearest[i], res.Stochastic[i] = exact, wn, ws
		res.NearestError[i], res.StochasticError[i] = wn-exact, ws-exact
	}
	return res, nil
}

// isFinite reports whether x is neither NaN nor infinite.
func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
