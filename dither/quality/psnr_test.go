package quality

import (
	"math"
	"testing"

	"github.com/fp8lab/fp8lab/dither"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPSNRAndMSE(t *testing.T) {
	a, _ := dither.GrayFromPixels(2, 1, []float32{0, 1})
	b, _ := dither.GrayFromPixels(2, 1, []float32{0.1, 1})
	mse, err := MSE(a, b)
	require.NoError(t, err)
	assert.InDelta(t, 0.005, mse, 1e-9)
	p, err := PSNR(a, b)
	require.NoError(t, err)
	assert.InDelta(t, 23.0103, p, 1e-3)
	p, err = PSNR(a, a)
	require.NoError(t, err)
	assert.True(t, math.IsInf(p, 1))
	c, _ := dither.NewGray(1, 2)
	_, err = PSNR(a, c)
	assert.ErrorIs(t, err, dither.ErrInvalidArgument)
	_, err = PSNR(nil, a)
	assert.ErrorIs(t, err, dither.ErrInvalidArgument)
	_, err = MSE(a, nil)
	assert.ErrorIs(t, err, dither.ErrInvalidArgument)
}

// TestEmptyImagesAreErrors: MSE of two empty (zero-value) images returned
// NaN with no error, and AveragePSNR divided by zero (issue 12 item 7).
func TestEmptyImagesAreErrors(t *testing.T) {
	empty := &dither.Gray{}
	_, err := MSE(empty, &dither.Gray{})
	assert.ErrorIs(t, err, dither.ErrInvalidArgument)
	_, err = PSNR(&dither.Gray{}, empty)
	assert.ErrorIs(t, err, dither.ErrInvalidArgument)
	_, err = AveragePSNR(empty, dither.Options{Levels: 2}, 3)
	assert.ErrorIs(t, err, dither.ErrInvalidArgument)
}

func TestAveragePSNRRejectsBadInput(t *testing.T) {
	src, err := dither.NewGray(3, 3)
	require.NoError(t, err)
	_, err = AveragePSNR(src, dither.Options{Levels: 2}, 0)
	assert.ErrorIs(t, err, dither.ErrInvalidArgument)
	_, err = AveragePSNR(src, dither.Options{Levels: 2}, dither.MaxFrames+1)
	assert.ErrorIs(t, err, dither.ErrInvalidArgument)
	_, err = AveragePSNR(nil, dither.Options{Levels: 2}, 3)
	assert.ErrorIs(t, err, dither.ErrInvalidArgument)
	_, err = AveragePSNR(src, dither.Options{}, 3)
	assert.ErrorIs(t, err, dither.ErrInvalidArgument)
	src.Pix()[4] = float32(math.NaN())
	_, err = AveragePSNR(src, dither.Options{Levels: 2}, 3)
	assert.ErrorIs(t, err, dither.ErrNaN)
}

// TestAveragePSNRRisesForStochasticOnly: averaging N independent stochastic
// frames divides the noise variance by N, so PSNR rises by about 10·log10(N)
// dB; nearest rounding gives the same frame every time.
func TestAveragePSNRRisesForStochasticOnly(t *testing.T) {
	img, err := dither.Mystery(64, 64)
	require.NoError(t, err)
	sr, err := AveragePSNR(img, dither.Options{Method: dither.Stochastic, Levels: 2, Seed: 1}, 64)
	require.NoError(t, err)
	require.Len(t, sr, 64)
	for _, n := range []int{2, 4, 8, 16, 32, 64} {
		assert.Greater(t, sr[n-1], sr[n/2-1]+2, "PSNR after %d frames vs %d", n, n/2)
	}
	assert.InDelta(t, 10*math.Log10(64), sr[63]-sr[0], 1.5, "about 18 dB from 1 to 64 frames")

	nearest, err := AveragePSNR(img, dither.Options{Method: dither.Nearest, Levels: 2}, 64)
	require.NoError(t, err)
	for _, p := range nearest {
		assert.Equal(t, nearest[0], p)
	}
	assert.Greater(t, sr[63], nearest[0]+8)

	// The curve's points are the PSNR of Dither with that many frames.
	avg, err := dither.Dither(img, dither.Options{Method: dither.Stochastic, Levels: 2, Seed: 1, Frames: 10})
	require.NoError(t, err)
	p, err := PSNR(img, avg)
	require.NoError(t, err)
	assert.InDelta(t, sr[9], p, 1e-4)
}
