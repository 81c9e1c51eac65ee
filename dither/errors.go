package dither

import (
	"errors"
	"fmt"
)

// Errors returned by the package. Wrapped errors carry details; test with errors.Is.
var (
	// ErrInvalidArgument reports a nil or empty image, a nil reader or
	// writer, a random-bit count outside 1..32, or a bad size, count,
	// scale or pair of options. Package quality reports images of
	// different sizes and a bad blur with it too.
	ErrInvalidArgument = errors.New("dither: invalid argument")
	// ErrUnknownMethod reports a dithering method name ParseMethod does not know.
	ErrUnknownMethod = errors.New("dither: unknown method")
	// ErrNaN reports a NaN or infinite pixel.
	ErrNaN = errors.New("dither: not a finite number")
)

// checkRandomBits validates a random-bit count.
func checkRandomBits(r int) error {
	if r < 1 || r > 32 {
		return fmt.Errorf("%w: random bits must be in 1..32, got %d", ErrInvalidArgument, r)
	}
	return nil
}
