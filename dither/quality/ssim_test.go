package quality

import (
	"math"
	"testing"

	"github.com/fp8lab/fp8lab/dither"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// grayOf makes a w×h image from f(x, y).
func grayOf(t *testing.T, w, h int, f func(x, y int) float64) *dither.Gray {
	t.Helper()
	g, err := dither.NewGray(w, h)
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
func naiveSSIM(a, b *dither.Gray) float64 {
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
	img, err := dither.Mystery(64, 48)
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
	img, err := dither.Mystery(40, 30)
	require.NoError(t, err)
	for _, m := range []dither.Method{dither.Nearest, dither.FloydSteinberg, dither.Bayer4} {
		out, err := dither.Dither(img, dither.Options{Method: m, Levels: 2})
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
	assert.ErrorIs(t, err, dither.ErrInvalidArgument, "smaller than the window")
	b := grayOf(t, 20, 10, func(int, int) float64 { return 0 })
	_, err = SSIM(a, b)
	assert.ErrorIs(t, err, dither.ErrInvalidArgument)
	_, err = SSIM(nil, a)
	assert.Error(t, err)
}
