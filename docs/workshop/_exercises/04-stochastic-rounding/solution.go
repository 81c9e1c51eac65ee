//go:build solutions

// Package sr is workshop exercise 4: stochastic rounding onto E4M3FN.
package sr

import (
	"errors"
	"math"

	"github.com/fp8lab/fp8lab/fp8"
)

// Round rounds x (|x| ≤ 448) to one of the two E4M3FN values that bracket
// it, lo ≤ x ≤ hi: it returns hi when u < (x-lo)/(hi-lo) and lo otherwise,
// where u is a uniform random number in [0, 1). Exact values are returned
// unchanged whatever u is.
func Round(x, u float64) (float64, error) {
	if math.IsNaN(x) || math.Abs(x) > 448 {
		return 0, errors.New("sr: x out of range")
	}
	// Truncate the magnitude to get the value nearer zero, then step one code
	// away from zero (codes of one sign are ordered by magnitude).
	c, err := fp8.E4M3FN.Encode(x, fp8.Mode{Round: fp8.TowardZero})
	if err != nil {
		return 0, err
	}
	near := fp8.E4M3FN.Decode(c)
	if near == x {
		return x, nil
	}
	far := fp8.E4M3FN.Decode(c + 1)
	if p := (x - near) / (far - near); u < p {
		return far, nil
	}
	return near, nil
}
