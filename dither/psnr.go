package dither

import (
	"fmt"
	"math"
)

// MSE returns the mean squared difference of two images of the same size.
func MSE(a, b *Gray) (float64, error) {
	if err := a.checkImage(); err != nil {
		return 0, err
	}
	if err := b.checkImage(); err != nil {
		return 0, err
	}
	if a.width != b.width || a.height != b.height {
		return 0, fmt.Errorf("%w: sizes %dx%d and %dx%d differ", ErrInvalidArgument, a.width, a.height, b.width, b.height)
	}
	var se float64
	for i, v := range a.pix {
		d := float64(v) - float64(b.pix[i])
		se += d * d
	}
	return se / float64(len(a.pix)), nil
}

// PSNR returns the peak signal-to-noise ratio of b against a in decibels,
// 10·log10(1/MSE) for a peak value of 1: about 6 dB per bit of precision.
// Equal images give +Inf.
func PSNR(a, b *Gray) (float64, error) {
	mse, err := MSE(a, b)
	if err != nil {
		return 0, err
	}
	return psnrFromMSE(mse), nil
}

// psnrFromMSE converts a mean squared error (peak 1) to decibels.
func psnrFromMSE(mse float64) float64 {
	if mse == 0 {
		return math.Inf(1)
	}
	return -10 * math.Log10(mse)
}
