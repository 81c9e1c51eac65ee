package stochastic

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/fp8lab/fp8lab/fp8"
)

// Rounder rounds real numbers onto the values of one low-precision format,
// to nearest or stochastically, and knows the exact expectation of its
// stochastic rounding. It wraps either an fp8.Format (any minifloat) or an
// fp8.Wide (BF16, FP16), so that the experiments treat them alike. A
// Rounder is safe for concurrent use.
type Rounder struct {
	name   string
	narrow *fp8.Format
	wide   *fp8.Wide

	once   sync.Once
	values []float64 // every finite value, ascending, +0 once
}

// NewRounder returns the Rounder of a format name, any that fp8.LookupAny
// knows ("E4M3FN", "float8_e4m3fn", "BF16", "half", ...).
func NewRounder(name string) (*Rounder, error) {
	f, w, err := fp8.LookupAny(name)
	switch {
	case err != nil:
		return nil, fmt.Errorf("stochastic: %w", err)
	case w != nil:
		return WideRounder(w)
	}
	return FormatRounder(f)
}

// FormatRounder returns the Rounder of a minifloat format.
func FormatRounder(f *fp8.Format) (*Rounder, error) {
	if f == nil {
		return nil, fmt.Errorf("%w: nil format", ErrInvalidArgument)
	}
	return &Rounder{name: f.Name(), narrow: f}, nil
}

// WideRounder returns the Rounder of a 16-bit format (fp8.BF16 or fp8.FP16).
func WideRounder(w *fp8.Wide) (*Rounder, error) {
	if w == nil {
		return nil, fmt.Errorf("%w: nil format", ErrInvalidArgument)
	}
	return &Rounder{name: w.Name(), wide: w}, nil
}

// check reports a Rounder not made by NewRounder, FormatRounder or
// WideRounder (nil, or the zero value): its methods return this error, or
// "" and NaN.
func (r *Rounder) check() error {
	if r == nil || (r.narrow == nil && r.wide == nil) {
		return fmt.Errorf("%w: Rounder not made by NewRounder, FormatRounder or WideRounder", ErrInvalidArgument)
	}
	return nil
}

// Name returns the format's name.
func (r *Rounder) Name() string {
	if r == nil {
		return ""
	}
	return r.name
}

// Max returns the format's largest finite value.
func (r *Rounder) Max() float64 {
	if r.check() != nil {
		return math.NaN()
	}
	if r.wide != nil {
		return r.wide.Max()
	}
	return r.narrow.Max()
}

// Nearest rounds x to the nearest value, ties to even. Minifloats saturate
// at ±Max (fp8's default mode); BF16 and FP16 overflow to ±Inf as IEEE does.
func (r *Rounder) Nearest(x float64) (float64, error) {
	if err := r.check(); err != nil {
		return 0, err
	}
	if math.IsNaN(x) {
		return 0, fmt.Errorf("%w: NaN", ErrNaN)
	}
	if r.wide != nil {
		return float64(r.wide.Decode(r.wide.Encode(x))), nil
	}
	c, err := r.narrow.Encode(x, fp8.Mode{})
	if err != nil {
		return 0, fmt.Errorf("stochastic: %w", err)
	}
	return r.narrow.Decode(c), nil
}

// Stochastic rounds x with the low bits (1..32) bits of random, as the fp8
// codecs do: the bits are added just below the last kept mantissa bit and
// the sum is truncated. The result saturates at ±Max.
func (r *Rounder) Stochastic(x float64, random uint32, bits int) (float64, error) {
	if err := r.check(); err != nil {
		return 0, err
	}
	if math.IsNaN(x) {
		return 0, fmt.Errorf("%w: NaN", ErrNaN)
	}
	if err := checkRandomBits(bits); err != nil {
		return 0, err
	}
	if r.wide != nil {
		c, err := r.wide.EncodeStochastic(x, random, bits)
		if err != nil {
			return 0, fmt.Errorf("stochastic: %w", err)
		}
		return float64(r.wide.Decode(c)), nil
	}
	c, err := r.narrow.EncodeStochastic(x, random, fp8.Mode{Round: fp8.Stochastic, RandomBits: bits})
	if err != nil {
		return 0, fmt.Errorf("stochastic: %w", err)
	}
	return r.narrow.Decode(c), nil
}

// Neighbors returns the two format values that stochastic rounding chooses
// between for a finite x: toward is the nearest value toward zero (|toward|
// <= |x|) and away the next value away from zero (|away| >= |x|). Both are x
// when x is a format value; beyond ±Max both are ±Max (saturation).
func (r *Rounder) Neighbors(x float64) (toward, away float64, err error) {
	if err := r.check(); err != nil {
		return 0, 0, err
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, 0, fmt.Errorf("%w: %g", ErrNaN, x)
	}
	vals := r.sortedValues()
	a := math.Abs(x)
	if x < 0 && r.narrow != nil && !r.narrow.Signed() {
		return 0, 0, fmt.Errorf("%w: %s has no negative values", ErrInvalidArgument, r.name)
	}
	i, found := slices.BinarySearch(vals, a) // vals[i] >= a
	switch {
	case found:
		toward, away = a, a
	case i == len(vals):
		toward, away = vals[len(vals)-1], vals[len(vals)-1]
	case i == 0:
		// Below the smallest value: only formats without zero (E8M0) get here;
		// they raise such values to the minimum.
		toward, away = vals[0], vals[0]
	default:
		toward, away = vals[i-1], vals[i]
	}
	return math.Copysign(toward, x), math.Copysign(away, x), nil
}

// ProbAway returns the exact probability that stochastic rounding of x with
// bits random bits picks the neighbour away from zero: floor(f·2^bits)/2^bits,
// where f = (|x| - |toward|) / (|away| - |toward|) is the position of x
// between its neighbours. The adder of the codec makes the probability a
// multiple of 2^-bits, rounded down: with too few bits every x is pulled
// toward zero, by up to one 2^-bits of a step.
func (r *Rounder) ProbAway(x float64, bits int) (float64, error) {
	if err := checkRandomBits(bits); err != nil {
		return 0, err
	}
	toward, away, err := r.Neighbors(x)
	if err != nil || toward == away {
		return 0, err
	}
	// Exact in float64: |x| - |toward| is exact (Sterbenz, or toward = 0)
	// and the step is a power of two, so f and f·2^bits are exact too.
	f := (math.Abs(x) - math.Abs(toward)) / (math.Abs(away) - math.Abs(toward))
	return math.Floor(math.Ldexp(f, bits)) / math.Ldexp(1, bits), nil
}

// ExpectedStochastic returns the exact expected value of Stochastic(x, U,
// bits) over a uniform random word U: toward + ProbAway·(away - toward). It
// equals x when bits covers every bit that rounding drops, and otherwise
// falls short of x by less than 2^-bits of the step between the neighbours.
func (r *Rounder) ExpectedStochastic(x float64, bits int) (float64, error) {
	p, err := r.ProbAway(x, bits)
	if err != nil {
		return 0, err
	}
	toward, away, _ := r.Neighbors(x)
	return toward + p*(away-toward), nil
}

// sortedValues returns the non-negative finite values of the format in
// ascending order: zero (where the format has it) and the positive values.
func (r *Rounder) sortedValues() []float64 {
	r.once.Do(func() {
		var pos []float64
		hasZero := true
		if r.wide != nil {
			pos = r.wide.PositiveFinite()
		} else {
			pos = r.narrow.PositiveFinite()
			hasZero = r.narrow.Spec().Specials != fp8.ExponentOnly
		}
		if hasZero {
			r.values = append([]float64{0}, pos...)
		} else {
			r.values = pos
		}
	})
	return r.values
}

// checkRandomBits validates a random-bit count.
func checkRandomBits(r int) error {
	if r < 1 || r > 32 {
		return fmt.Errorf("%w: random bits must be in 1..32, got %d", ErrInvalidArgument, r)
	}
	return nil
}
