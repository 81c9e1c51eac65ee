//go:build !solutions

// Package decode is workshop exercise 1: decode an E4M3FN byte by hand.
package decode

import "errors"

// DecodeE4M3 returns the value of the OCP E4M3FN code c: sign bit, 4
// exponent bits (bias 7), 3 mantissa bits; exponent field 0 is subnormal,
// S.1111.111 is NaN, and there is no infinity.
func DecodeE4M3(c uint8) (float64, error) {
	return 0, errors.New("exercise: write this function — see README.md")
}
