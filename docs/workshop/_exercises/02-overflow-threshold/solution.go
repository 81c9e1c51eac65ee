//go:build solutions

// Package overflow is workshop exercise 2: find where a format overflows.
package overflow

import (
	"math"

	"github.com/fp8lab/fp8lab/fp8"
)

// Threshold returns the value t at which round-to-nearest-even encoding of a
// positive input in f stops giving a finite value: inputs below t round to
// at most f.Max(), inputs above t overflow, and t itself overflows when
// inclusive is true (a tie that goes to the step beyond Max).
func Threshold(f *fp8.Format) (t float64, inclusive bool, err error) {
	max := f.Max()
	_, exp := math.Frexp(max) // max = frac · 2^exp, frac in [0.5, 1)
	ulp := math.Ldexp(1, exp-1-f.Spec().ManBits)
	// The tie goes to the even neighbour: if Max's code is odd, the even one
	// is the step beyond Max, which does not exist: overflow.
	return max + ulp/2, f.MaxCode()&1 == 1, nil
}
