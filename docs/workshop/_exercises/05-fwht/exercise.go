//go:build !solutions

// Package fwht is workshop exercise 5: the fast Walsh–Hadamard transform.
package fwht

import "errors"

// Transform applies the normalized Walsh–Hadamard transform to x in place,
// x ← H·x/√n with H the Sylvester Hadamard matrix (H₁ = [1], H₂ₖ = [[Hₖ, Hₖ],
// [Hₖ, −Hₖ]]), in n·log2(n) additions. len(x) must be a power of two.
func Transform(x []float64) error {
	return errors.New("exercise: write this function — see README.md")
}
