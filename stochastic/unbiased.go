package stochastic

import (
	"fmt"
	"math"

	"github.com/fp8lab/fp8lab/rng"
)

// MaxSamples bounds the number of roundings or steps one experiment may ask
// for, so that a mistyped count fails fast instead of running for hours.
const MaxSamples = 1 << 27

// BiasConfig describes the unbiasedness experiment: round one value X
// stochastically Samples times with each random-bit count r in RandomBits.
type BiasConfig struct {
	Format     string  // "E4M3FN", "E5M2", "BF16", ...: see NewRounder
	X          float64 // the value rounded, best chosen between two format values
	Samples    int     // roundings per random-bit count, 1..MaxSamples
	RandomBits []int   // the counts r to measure, each 1..32; nil means 1..24
	Seed       uint64  // sample i uses the word rng.Bits(Seed, Stream, i) ...
	Stream     uint64  // ... for every r, so that the curves differ only by r
}

// BiasPoint is the measurement for one random-bit count r.
type BiasPoint struct {
	RandomBits       int     // r: how many low bits of each random word were used
	Mean             float64 // mean of the Samples roundings
	Expected         float64 // exact E[round(X)]: Toward + ExpectedProbAway·(Away - Toward)
	Bias             float64 // Mean - X, measured
	ExpectedBias     float64 // Expected - X, exact: 0 when r covers the dropped bits, else toward zero
	StdErr           float64 // standard error of Mean around Expected: |Away-Toward|·sqrt(p(1-p)/Samples)
	ProbAway         float64 // fraction of roundings that went away from zero
	ExpectedProbAway float64 // floor(f·2^r)/2^r, with f the position of X between its neighbours
}

// ConvergencePoint is the running mean after the first N roundings.
type ConvergencePoint struct {
	N     int     // roundings averaged
	Mean  float64 // mean of roundings 0..N-1
	Error float64 // Mean - X
	Sigma float64 // the standard deviation of the mean of N roundings: |Away-Toward|·sqrt(p(1-p)/N)
}

// BiasResult is what MeasureBias returns: a curve of bias against r beside
// its exact theory, and the convergence of the running mean for the largest r.
type BiasResult struct {
	Format        string             // the format's name
	X             float64            // the value rounded
	Toward, Away  float64            // the neighbours of X: toward zero and away from zero
	Position      float64            // f = (|X| - |Toward|) / (|Away| - |Toward|), in [0, 1)
	Nearest       float64            // round to nearest, for comparison: its bias never averages out
	Points        []BiasPoint        // one per random-bit count, in the order asked
	ConvergenceAt int                // the r of the convergence curve (the largest one measured)
	Convergence   []ConvergencePoint // N = 1, 2, 4, ..., and Samples
}

// MeasureBias runs the unbiasedness experiment. For every r it rounds X
// Samples times with r-bit random words and reports the sample mean beside
// the exact expectation. With r random bits the probability of rounding
// away from zero is floor(f·2^r)/2^r instead of f, so the expected value
// falls short of X by (f - floor(f·2^r)/2^r)·|Away - Toward|: a bias of
// up to 2^-r of a step, which vanishes once r covers all the bits that
// rounding drops (then floor(f·2^r) = f·2^r).
func MeasureBias(cfg BiasConfig) (*BiasResult, error) {
	rd, err := NewRounder(cfg.Format)
	if err != nil {
		return nil, err
	}
	if cfg.Samples < 1 || cfg.Samples > MaxSamples {
		return nil, fmt.Errorf("%w: samples must be in 1..%d, got %d", ErrInvalidArgument, MaxSamples, cfg.Samples)
	}
	rs := cfg.RandomBits
	if rs == nil {
		for r := 1; r <= 24; r++ {
			rs = append(rs, r)
		}
	}
	if len(rs) == 0 {
		return nil, fmt.Errorf("%w: no random-bit counts", ErrInvalidArgument)
	}
	for _, r := range rs {
		if err := checkRandomBits(r); err != nil {
			return nil, err
		}
	}
	toward, away, err := rd.Neighbors(cfg.X)
	if err != nil {
		return nil, err
	}
	nearest, err := rd.Nearest(cfg.X)
	if err != nil {
		return nil, err
	}
	res := &BiasResult{Format: rd.Name(), X: cfg.X, Toward: toward, Away: away, Nearest: nearest}
	step := math.Abs(away - toward)
	if step > 0 {
		res.Position = (math.Abs(cfg.X) - math.Abs(toward)) / step
	}
	random := make([]uint32, cfg.Samples)
	rng.Fill(random, cfg.Seed, cfg.Stream, 0)
	maxR := 0
	for _, r := range rs {
		pt, err := biasPoint(rd, cfg.X, r, random, away, step)
		if err != nil {
			return nil, err
		}
		res.Points = append(res.Points, pt)
		maxR = max(maxR, r)
	}
	res.ConvergenceAt = maxR
	res.Convergence, err = convergence(rd, cfg.X, maxR, random, step)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// biasPoint measures one random-bit count.
func biasPoint(rd *Rounder, x float64, r int, random []uint32, away, step float64) (BiasPoint, error) {
	p, err := rd.ProbAway(x, r)
	if err != nil {
		return BiasPoint{}, err
	}
	expected, err := rd.ExpectedStochastic(x, r)
	if err != nil {
		return BiasPoint{}, err
	}
	var sum float64
	aways := 0
	for _, w := range random {
		v, err := rd.Stochastic(x, w, r)
		if err != nil {
			return BiasPoint{}, err
		}
		sum += v
		if step > 0 && v == away {
			aways++
		}
	}
	n := float64(len(random))
	mean := sum / n
	return BiasPoint{
		RandomBits:       r,
		Mean:             mean,
		Expected:         expected,
		Bias:             mean - x,
		ExpectedBias:     expected - x,
		StdErr:           step * math.Sqrt(p*(1-p)/n),
		ProbAway:         float64(aways) / n,
		ExpectedProbAway: p,
	}, nil
}

// convergence returns the running mean at N = 1, 2, 4, ... and len(random).
func convergence(rd *Rounder, x float64, r int, random []uint32, step float64) ([]ConvergencePoint, error) {
	p, err := rd.ProbAway(x, r)
	if err != nil {
		return nil, err
	}
	var out []ConvergencePoint
	var sum float64
	next := 1
	for i, w := range random {
		v, err := rd.Stochastic(x, w, r)
		if err != nil {
			return nil, err
		}
		sum += v
		n := i + 1
		if n == next || n == len(random) {
			mean := sum / float64(n)
			out = append(out, ConvergencePoint{N: n, Mean: mean, Error: mean - x, Sigma: step * math.Sqrt(p*(1-p)/float64(n))})
			for next <= n {
				next *= 2
			}
		}
	}
	return out, nil
}
