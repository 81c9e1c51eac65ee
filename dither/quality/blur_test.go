package quality

import (
	"math"
	"testing"

	"github.com/fp8lab/fp8lab/dither"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBlurredPSNR(t *testing.T) {
	// A constant difference c survives any blur: PSNR = -10·log10(c²).
	a := grayOf(t, 32, 32, func(x, y int) float64 { return 0.2 + 0.01*float64(x) })
	b := grayOf(t, 32, 32, func(x, y int) float64 { return 0.2 + 0.01*float64(x) + 0.125 })
	p, err := BlurredPSNR(a, b, 1.5)
	require.NoError(t, err)
	assert.InDelta(t, -10*math.Log10(0.125*0.125), p, 1e-4)
	// A 0/1 checkerboard against flat grey 0.5: raw MSE 0.25 (6.02 dB);
	// after a blur its local mean is 0.5, so the blurred PSNR is far higher.
	cb := grayOf(t, 32, 32, func(x, y int) float64 { return float64((x + y) % 2) })
	grey := grayOf(t, 32, 32, func(int, int) float64 { return 0.5 })
	raw, err := PSNR(cb, grey)
	require.NoError(t, err)
	assert.InDelta(t, 10*math.Log10(4), raw, 1e-9)
	bl, err := BlurredPSNR(cb, grey, 1.5)
	require.NoError(t, err)
	assert.Greater(t, bl, raw+20)
	// Blur keeps a flat image flat, edges included.
	fl, err := Blur(grey, 2)
	require.NoError(t, err)
	for _, v := range fl.Pix() {
		assert.InDelta(t, 0.5, v, 1e-6)
	}
	for _, s := range []float64{0, -1, 17, math.NaN()} {
		_, err := BlurredPSNR(cb, grey, s)
		assert.ErrorIs(t, err, dither.ErrInvalidArgument, "sigma %g", s)
	}
}
