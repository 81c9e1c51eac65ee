package stochastic

import (
	"fmt"
	"math"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/rng"
)

// ErrorCorrelation rounds a with stream sa and b with stream sb
// stochastically into f (r random bits), and returns the Pearson correlation
// of their rounding errors dec(enc(a[i])) - a[i] and dec(enc(b[i])) - b[i].
//
// It shows the shared-seed bug: when sa == sb, element i of both tensors
// sees the same random word, so both round up or down together. For equal
// tensors the correlation is exactly 1; for unrelated values it is still
// strongly positive (about 1/2 for positions spread uniformly between
// neighbours). Errors that should cancel when the tensors are added then add
// up. Distinct streams give a correlation within a few 1/sqrt(n) of 0.
//
// a and b must have the same nonzero length and finite values, and both
// error vectors must vary (not every value exactly representable).
func ErrorCorrelation(f *fp8.Format, a, b []float32, sa, sb rng.Stream, r int) (float64, error) {
	if len(a) != len(b) || len(a) == 0 {
		return 0, fmt.Errorf("%w: lengths %d and %d", ErrInvalidArgument, len(a), len(b))
	}
	if f == nil {
		return 0, fmt.Errorf("%w: nil format", ErrInvalidArgument)
	}
	if err := checkRandomBits(r); err != nil {
		return 0, err
	}
	ea, err := roundingErrors(f, a, sa, r)
	if err != nil {
		return 0, err
	}
	eb, err := roundingErrors(f, b, sb, r)
	if err != nil {
		return 0, err
	}
	c := pearson(ea, eb)
	if math.IsNaN(c) {
		return 0, fmt.Errorf("%w: the rounding errors do not vary (every value is exact)", ErrInvalidArgument)
	}
	return c, nil
}

// roundingErrors returns dec(enc(src[i])) - src[i] under stochastic rounding.
func roundingErrors(f *fp8.Format, src []float32, s rng.Stream, r int) ([]float64, error) {
	for i, v := range src {
		if !isFinite(float64(v)) {
			return nil, fmt.Errorf("%w: element %d is %g", ErrNaN, i, v)
		}
	}
	codes := make([]uint8, len(src))
	if err := s.Encode(f, codes, src, 0, r); err != nil {
		return nil, err
	}
	errs := make([]float64, len(src))
	for i, c := range codes {
		errs[i] = f.Decode(c) - float64(src[i])
	}
	return errs, nil
}

// pearson returns the Pearson correlation of x and y (same length), or NaN
// when either does not vary.
func pearson(x, y []float64) float64 {
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(len(x))
	my /= float64(len(y))
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return math.NaN()
	}
	return sxy / math.Sqrt(sxx*syy)
}
