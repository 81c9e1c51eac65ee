package quality

import (
	"fmt"
	"math"

	"github.com/fp8lab/fp8lab/dither"
)

// The constants of SSIM as Wang, Bovik, Sheikh and Simoncelli define them
// ("Image quality assessment: from error visibility to structural
// similarity", IEEE Trans. Image Processing 13(4), 2004): an 11×11
// circular-symmetric Gaussian window of standard deviation 1.5 pixels,
// K1 = 0.01 and K2 = 0.03, for a dynamic range L = 1 (pixels in [0, 1]).
const (
	SSIMWindow = 11
	SSIMSigma  = 1.5
	SSIMK1     = 0.01
	SSIMK2     = 0.03
)

// SSIM returns the mean structural similarity of b against a (Wang et al.
// 2004, with the constants above): for every position of the Gaussian
// window that lies wholly inside the images (as the authors' reference
// code computes it, without padding), the product of a luminance term
// (2μaμb + C1)/(μa² + μb² + C1) and a contrast-structure term
// (2σab + C2)/(σa² + σb² + C2), with C1 = (K1·L)² and C2 = (K2·L)², L = 1.
// Equal images give 1. Unlike PSNR it compares local means, contrasts and
// correlations, so noise that keeps the local mean (dithering) costs less
// than a lost gradient. Both images must be at least 11×11.
func SSIM(a, b *dither.Gray) (float64, error) {
	if err := sameSize(a, b); err != nil {
		return 0, err
	}
	if a.Width() < SSIMWindow || a.Height() < SSIMWindow {
		return 0, fmt.Errorf("%w: SSIM needs at least %d×%d pixels, got %dx%d", dither.ErrInvalidArgument, SSIMWindow, SSIMWindow, a.Width(), a.Height())
	}
	k := gaussianKernel(SSIMSigma, SSIMWindow/2)
	w, h := a.Width(), a.Height()
	n := w * h
	ap, bp := a.Pix(), b.Pix()
	x, y := make([]float64, n), make([]float64, n)
	xx, yy, xy := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i] = float64(ap[i]), float64(bp[i])
		xx[i], yy[i], xy[i] = x[i]*x[i], y[i]*y[i], x[i]*y[i]
	}
	var mx, my, mxx, myy, mxy []float64
	var vw, vh int
	for _, f := range []struct {
		src []float64
		dst *[]float64
	}{{x, &mx}, {y, &my}, {xx, &mxx}, {yy, &myy}, {xy, &mxy}} {
		*f.dst, vw, vh = filterValid(f.src, w, h, k)
	}
	c1, c2 := SSIMK1*SSIMK1, SSIMK2*SSIMK2
	var sum float64
	for i := 0; i < vw*vh; i++ {
		ua, ub := mx[i], my[i]
		va, vb, cov := mxx[i]-ua*ua, myy[i]-ub*ub, mxy[i]-ua*ub
		sum += (2*ua*ub + c1) * (2*cov + c2) / ((ua*ua + ub*ub + c1) * (va + vb + c2))
	}
	return sum / float64(vw*vh), nil
}

// gaussianKernel returns the 2r+1 weights exp(-d²/2σ²), normalized to sum
// to 1. The 2-D window is the outer product of two of them, which is the
// circular-symmetric Gaussian normalized over the square. Each exp is
// rounded to float32 first: math.Exp is assembly on amd64 and Go elsewhere,
// and may differ in the last bit, while the WebAssembly playground must
// print the same SSIM as the CLI.
func gaussianKernel(sigma float64, r int) []float64 {
	k := make([]float64, 2*r+1)
	var s float64
	for i := range k {
		d := float64(i - r)
		k[i] = float64(float32(math.Exp(-d * d / (2 * sigma * sigma))))
		s += k[i]
	}
	for i := range k {
		k[i] /= s
	}
	return k
}

// filterValid correlates a w×h image with the separable window k×k at
// every position where the window lies inside it, returning the
// (w-len(k)+1)×(h-len(k)+1) result and its size.
func filterValid(src []float64, w, h int, k []float64) ([]float64, int, int) {
	n := len(k)
	vw, vh := w-n+1, h-n+1
	tmp := make([]float64, vw*h)
	for y := 0; y < h; y++ {
		for x := 0; x < vw; x++ {
			var s float64
			for i, c := range k {
				s += c * src[y*w+x+i]
			}
			tmp[y*vw+x] = s
		}
	}
	out := make([]float64, vw*vh)
	for y := 0; y < vh; y++ {
		for x := 0; x < vw; x++ {
			var s float64
			for i, c := range k {
				s += c * tmp[(y+i)*vw+x]
			}
			out[y*vw+x] = s
		}
	}
	return out, vw, vh
}
