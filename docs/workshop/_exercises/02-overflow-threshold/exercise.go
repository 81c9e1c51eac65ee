//go:build !solutions

// Package overflow is workshop exercise 2: find where a format overflows.
package overflow

import (
	"errors"

	"github.com/fp8lab/fp8lab/fp8"
)

// Threshold returns the value t at which round-to-nearest-even encoding of a
// positive input in f stops giving a finite value: inputs below t round to
// at most f.Max(), inputs above t overflow, and t itself overflows when
// inclusive is true (a tie that goes to the step beyond Max).
func Threshold(f *fp8.Format) (t float64, inclusive bool, err error) {
	return 0, false, errors.New("exercise: write this function — see README.md")
}
