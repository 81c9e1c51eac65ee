//go:build !solutions

// Package mx is workshop exercise 3: the shared exponent of an MX block.
package mx

import "errors"

// SharedExponent returns k, the shared scale X = 2^k of an MX block
// (OCP MX v1.0, floor rule) for elements whose largest power of two is
// 2^emaxElem (8 for E4M3, 15 for E5M2, 2 for E2M1): k = floor(log2(amax))
// - emaxElem, clamped to [-127, 127]; an all-zero block gives -127.
func SharedExponent(block []float32, emaxElem int) (int, error) {
	return 0, errors.New("exercise: write this function — see README.md")
}
