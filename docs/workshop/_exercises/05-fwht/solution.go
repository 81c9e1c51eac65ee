//go:build solutions

// Package fwht is workshop exercise 5: the fast Walsh–Hadamard transform.
package fwht

import (
	"errors"
	"math"
)

// Transform applies the normalized Walsh–Hadamard transform to x in place,
// x ← H·x/√n with H the Sylvester Hadamard matrix (H₁ = [1], H₂ₖ = [[Hₖ, Hₖ],
// [Hₖ, −Hₖ]]), in n·log2(n) additions. len(x) must be a power of two.
func Transform(x []float64) error {
	n := len(x)
	if n == 0 || n&(n-1) != 0 {
		return errors.New("fwht: length is not a power of two")
	}
	for h := 1; h < n; h *= 2 {
		for i := 0; i < n; i += 2 * h {
			for j := i; j < i+h; j++ {
				a, b := x[j], x[j+h]
				x[j], x[j+h] = a+b, a-b
			}
		}
	}
	s := 1 / math.Sqrt(float64(n))
	for i := range x {
		x[i] *= s
	}
	return nil
}
