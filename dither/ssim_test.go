package dither

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// grayOf makes a w×h image from f(x, y).
func grayOf(t *testing.T, w, h int, f func(x, y int) float64) *Gray {
	t.Helper()
	g, err := NewGray(w, h)
	require.NoError(t, err)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			g.Set(x, y, float32(f(x, y)))
		}
	}
	return g
}

// naiveSSIM is an independent SSIM: every window's weighted sums taken
// directly with the 2-D Gaussian exp(-(i²+j²)/2σ²), normalized over the
// 11×11 square, in float64 (no separable filtering, no shared arrays).
func naiveSSIM(a, b *Gray) float64 {
	const r = 5
	var wt [2*r + 1][2*r + 1]float64
	var tot float64
	for i := -r; i <= r; i++ {
		for j := -r; j <= r; j++ {
			wt[i+r][j+r] = math.Exp(-float64(i*i+j*j) / (2 * 1.5 * 1.5))
			tot += wt[i+r][j+r]
		}
	}
	c1, c2 := 0.01*0.01, 0.03*0.03
	var sum float64
	n := 0
	for y := r; y < a.Height()-r; y++ {
		for x := r; x < a.Width()-r; x++ {
			var ma, mb float64
			for i := -r; i <= r; i++ {
				for j := -r; j <= r; j++ {
					w := wt[i+r][j+r] / tot
					ma += w * float64(a.At(x+j, y+i))
					mb += w * float64(b.At(x+j, y+i))
				}
			}
			var va, vb, cov float64
			for i := -r; i <= r; i++ {
				for j := -r; j <= r; j++ {
					w := wt[i+r][j+r] / tot
					da, db := float64(a.At(x+j, y+i))-ma, float64(b.At(x+j, y+i))-mb
					va, vb, cov = va+w*da*da, vb+w*db*db, cov+w*da*db
				}
			}
			sum += (2*ma*mb + c1) * (2*cov + c2) / ((ma*ma + mb*mb + c1) * (va + vb + c2))
			n++
		}
	}
	return sum / float64(n)
}

func TestSSIMIdentityAndConstants(t *testing.T) {
	img, err := Mystery(64, 48)
	require.NoError(t, err)
	s, err := SSIM(img, img)
	require.NoError(t, err)
	assert.InDelta(t, 1, s, 1e-12, "SSIM(x, x) = 1")
	// Two flat images a and b: every σ is zero, so SSIM is the luminance
	// term alone, (2ab + C1)/(a² + b² + C1), computable by hand.
	for _, c := range [][2]float64{{0.25, 0.75}, {0.5, 0.5}, {0, 1}, {0.1, 0.2}} {
		a := grayOf(t, 20, 15, func(int, int) float64 { return c[0] })
		b := grayOf(t, 20, 15, func(int, int) float64 { return c[1] })
		want := (2*c[0]*c[1] + 1e-4) / (c[0]*c[0] + c[1]*c[1] + 1e-4)
		got, err := SSIM(a, b)
		require.NoError(t, err)
		assert.InDelta(t, want, got, 1e-6, "flat %v", c)
	}
	// 0.25 against 0.75: 0.3751/0.6251.
	a := grayOf(t, 11, 11, func(int, int) float64 { return 0.25 })
	b := grayOf(t, 11, 11, func(int, int) float64 { return 0.75 })
	got, err := SSIM(a, b)
	require.NoError(t, err)
	assert.InDelta(t, 0.3751/0.6251, got, 1e-6)
}

func TestSSIMMatchesNaiveFloat64(t *testing.T) {
	img, err := Mystery(40, 30)
	require.NoError(t, err)
	for _, m := range []Method{Nearest, FloydSteinberg, Bayer4} {
		out, err := Dither(img, Options{Method: m, Levels: 2})
		require.NoError(t, err)
		got, err := SSIM(img, out)
		require.NoError(t, err)
		// The window weights are rounded to float32 (see gaussianKernel):
		// agreement to 1e-8, far below the 3 decimals shown.
		assert.InDelta(t, naiveSSIM(img, out), got, 1e-8, "method %v", m)
		assert.Less(t, got, 1.0)
	}
}

func TestSSIMRefusesBadInput(t *testing.T) {
	a := grayOf(t, 10, 20, func(int, int) float64 { return 0 })
	_, err := SSIM(a, a)
	assert.ErrorIs(t, err, ErrInvalidArgument, "smaller than the window")
	b := grayOf(t, 20, 10, func(int, int) float64 { return 0 })
	_, err = SSIM(a, b)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, err = SSIM(nil, a)
	assert.Error(t, err)
}

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
		assert.ErrorIs(t, err, ErrInvalidArgument, "sigma %g", s)
	}
}
