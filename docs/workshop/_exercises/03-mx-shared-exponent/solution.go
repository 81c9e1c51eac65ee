//go:build solutions

// Package mx is workshop exercise 3: the shared exponent of an MX block.
package mx

import (
	"errors"
	"math"
)

// SharedExponent returns k, the shared scale X = 2^k of an MX block
// (OCP MX v1.0, floor rule) for elements whose largest power of two is
// 2^emaxElem (8 for E4M3, 15 for E5M2, 2 for E2M1): k = floor(log2(amax))
// - emaxElem, clamped to [-127, 127]; an all-zero block gives -127.
func SharedExponent(block []float32, emaxElem int) (int, error) {
	amax := 0.0
	for _, v := range block {
		a := math.Abs(float64(v))
		if math.IsNaN(a) || math.IsInf(a, 0) {
			return 0, errors.New("mx: non-finite element")
		}
		amax = math.Max(amax, a)
	}
	if amax == 0 {
		return -127, nil
	}
	_, e := math.Frexp(amax) // amax = f·2^e, f in [0.5, 1): floor(log2) = e-1
	return min(127, max(-127, e-1-emaxElem)), nil
}
