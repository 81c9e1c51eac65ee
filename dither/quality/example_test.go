package quality_test

import (
	"fmt"

	"github.com/fp8lab/fp8lab/dither"
	"github.com/fp8lab/fp8lab/dither/quality"
)

// Averaging stochastic frames brings the picture back: about 3 dB more
// PSNR per doubling of the frames, while nearest rounding stays put.
func ExampleAveragePSNR() {
	img, err := dither.Mystery(128, 128)
	if err != nil {
		fmt.Println(err)
		return
	}
	sr, _ := quality.AveragePSNR(img, dither.Options{Method: dither.Stochastic, Levels: 2, Seed: 7}, 16)
	rn, _ := quality.AveragePSNR(img, dither.Options{Method: dither.Nearest, Levels: 2}, 16)
	fmt.Printf("stochastic: 1 frame %.1f dB, 16 frames %.1f dB\n", sr[0], sr[15])
	fmt.Printf("nearest:    1 frame %.1f dB, 16 frames %.1f dB\n", rn[0], rn[15])
	// Output:
	// stochastic: 1 frame 7.5 dB, 16 frames 19.5 dB
	// nearest:    1 frame 11.0 dB, 16 frames 11.0 dB
}
