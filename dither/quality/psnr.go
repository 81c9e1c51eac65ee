package quality

import (
	"fmt"
	"math"

	"github.com/fp8lab/fp8lab/dither"
)

// MSE returns the mean squared difference of two images of the same size.
func MSE(a, b *dither.Gray) (float64, error) {
	if err := sameSize(a, b); err != nil {
		return 0, err
	}
	var se float64
	bp := b.Pix()
	for i, v := range a.Pix() {
		d := float64(v) - float64(bp[i])
		se += d * d
	}
	return se / float64(len(bp)), nil
}

// PSNR returns the peak signal-to-noise ratio of b against a in decibels,
// 10·log10(1/MSE) for a peak value of 1: about 6 dB per bit of precision.
// Equal images give +Inf.
func PSNR(a, b *dither.Gray) (float64, error) {
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

// AveragePSNR returns, for n = 1..maxFrames, the PSNR (dB) of the mean of
// frames 0..n-1 of img quantized with opts against img (its pixels clamped
// to [0, 1], as the quantizer sees them): the curve that rises like
// 10·log10(n) for the Stochastic method and stays flat for the
// deterministic ones. The mean is kept in float64, never rounded to a
// Gray. opts.Frames is ignored; maxFrames is 1..dither.MaxFrames.
func AveragePSNR(img *dither.Gray, opts dither.Options, maxFrames int) ([]float64, error) {
	if maxFrames < 1 || maxFrames > dither.MaxFrames {
		return nil, fmt.Errorf("%w: frames must be in 1..%d, got %d", dither.ErrInvalidArgument, dither.MaxFrames, maxFrames)
	}
	q, err := dither.NewQuantizer(opts)
	if err != nil {
		return nil, err
	}
	if err := img.Check(); err != nil {
		return nil, err
	}
	frame, err := dither.NewGray(img.Width(), img.Height())
	if err != nil {
		return nil, err
	}
	ref := make([]float32, len(img.Pix()))
	for i, v := range img.Pix() {
		ref[i] = min(max(v, 0), 1)
	}
	random := q.Options().Method.UsesRandomBits()
	sum := make([]float64, len(ref))
	out := make([]float64, maxFrames)
	for n := 1; n <= maxFrames; n++ {
		if n > 1 && !random {
			out[n-1] = out[0]
			continue
		}
		if err := q.Frame(frame, img, uint64(n-1)); err != nil {
			return nil, err
		}
		var se float64
		for i, v := range frame.Pix() {
			sum[i] += float64(v)
			d := sum[i]/float64(n) - float64(ref[i])
			se += d * d
		}
		out[n-1] = psnrFromMSE(se / float64(len(ref)))
	}
	return out, nil
}

// sameSize checks two images and that their sizes agree.
func sameSize(a, b *dither.Gray) error {
	if err := a.Check(); err != nil {
		return err
	}
	if err := b.Check(); err != nil {
		return err
	}
	if a.Width() != b.Width() || a.Height() != b.Height() {
		return fmt.Errorf("%w: sizes %dx%d and %dx%d differ", dither.ErrInvalidArgument, a.Width(), a.Height(), b.Width(), b.Height())
	}
	return nil
}
