package stochastic

import "errors"

// Errors returned by the package. Wrapped errors carry details; test with errors.Is.
var (
	// ErrInvalidArgument reports a nil format, mismatched lengths, a
	// random-bit count outside 1..32, a bad count, a negative value for an
	// unsigned format, or a Rounder not made by its constructors.
	ErrInvalidArgument = errors.New("stochastic: invalid argument")
	// ErrNaN reports a NaN or infinite input where a finite number is needed.
	ErrNaN = errors.New("stochastic: not a finite number")
)
