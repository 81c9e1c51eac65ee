package quality

import (
	"fmt"
	"math"

	"github.com/fp8lab/fp8lab/dither"
)

// BlurredPSNR returns the PSNR of b against a after blurring both with the
// same Gaussian of standard deviation sigma pixels (truncated at 3σ, edges
// repeated): a crude model of looking from farther away, where the eye
// averages neighbouring pixels. Dithering trades pixel error for a correct
// local mean, which this measure rewards and raw PSNR does not. sigma must
// be in (0, 16].
func BlurredPSNR(a, b *dither.Gray, sigma float64) (float64, error) {
	if err := sameSize(a, b); err != nil {
		return 0, err
	}
	if !(sigma > 0 && sigma <= 16) {
		return 0, fmt.Errorf("%w: blur sigma %g must be in (0, 16]", dither.ErrInvalidArgument, sigma)
	}
	ba, err := Blur(a, sigma)
	if err != nil {
		return 0, err
	}
	bb, err := Blur(b, sigma)
	if err != nil {
		return 0, err
	}
	return PSNR(ba, bb)
}

// Blur returns g blurred by a Gaussian of standard deviation sigma pixels
// (truncated at 3σ, normalized, edge pixels repeated), in float64 and
// rounded to float32 once. sigma must be in (0, 16].
func Blur(g *dither.Gray, sigma float64) (*dither.Gray, error) {
	if err := g.Check(); err != nil {
		return nil, err
	}
	if !(sigma > 0 && sigma <= 16) {
		return nil, fmt.Errorf("%w: blur sigma %g must be in (0, 16]", dither.ErrInvalidArgument, sigma)
	}
	k := gaussianKernel(sigma, int(math.Ceil(3*sigma)))
	r := len(k) / 2
	w, h := g.Width(), g.Height()
	out, err := dither.NewGray(w, h)
	if err != nil {
		return nil, err
	}
	src, dst := g.Pix(), out.Pix()
	tmp := make([]float64, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var s float64
			for i, c := range k {
				s += c * float64(src[y*w+min(max(x+i-r, 0), w-1)])
			}
			tmp[y*w+x] = s
		}
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var s float64
			for i, c := range k {
				s += c * tmp[min(max(y+i-r, 0), h-1)*w+x]
			}
			dst[y*w+x] = float32(s)
		}
	}
	return out, nil
}
