package dither_test

import (
	"fmt"

	"github.com/fp8lab/fp8lab/dither"
	"github.com/fp8lab/fp8lab/fp8"
)

// With r random bits the probability of rounding up is a multiple of 2^-r,
// rounded down: too few bits bias stochastic rounding toward zero.
func ExampleMeasureBias() {
	res, err := dither.MeasureBias(dither.BiasConfig{
		Format: "E4M3FN", X: 1 + 0.125/3, Samples: 1 << 16, RandomBits: []int{1, 2, 4, 8, 16},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("x between %g and %g, position %.4f\n", res.Toward, res.Away, res.Position)
	for _, p := range res.Points {
		fmt.Printf("r=%2d  P(up)=%.4f  expected bias %+.6f\n", p.RandomBits, p.ExpectedProbAway, p.ExpectedBias)
	}
	// Output:
	// x between 1 and 1.125, position 0.3333
	// r= 1  P(up)=0.0000  expected bias -0.041667
	// r= 2  P(up)=0.2500  expected bias -0.010417
	// r= 4  P(up)=0.3125  expected bias -0.002604
	// r= 8  P(up)=0.3320  expected bias -0.000163
	// r=16  P(up)=0.3333  expected bias -0.000001
}

// Adding 0.001 to a BF16 weight of 1 a thousand times: round to nearest
// never moves (0.001 is below half of BF16's step 2^-7 at 1), stochastic
// rounding follows the exact sum. Its error is a random walk of mean zero
// (standard deviation about 0.08 after 1000 steps here).
func ExampleTinyUpdates() {
	res, err := dither.TinyUpdates(dither.TinyUpdateConfig{Format: "BF16", Start: 1, Update: 0.001, Steps: 1000, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, i := range []int{99, 499, 999} {
		fmt.Printf("step %4d: exact %.3f  nearest %.3f  stochastic %.3f\n", i+1, res.Exact[i], res.Nearest[i], res.Stochastic[i])
	}
	// Output:
	// step  100: exact 1.100  nearest 1.000  stochastic 1.062
	// step  500: exact 1.500  nearest 1.000  stochastic 1.445
	// step 1000: exact 2.000  nearest 1.000  stochastic 1.875
}

// Averaging stochastic frames brings the picture back: about 3 dB more
// PSNR per doubling of the frames, while nearest rounding stays put.
func ExampleAveragePSNR() {
	img, err := dither.Mystery(128, 128)
	if err != nil {
		fmt.Println(err)
		return
	}
	sr, _ := dither.AveragePSNR(img, dither.Options{Method: dither.Stochastic, Levels: 2, Seed: 7}, 16)
	rn, _ := dither.AveragePSNR(img, dither.Options{Method: dither.Nearest, Levels: 2}, 16)
	fmt.Printf("stochastic: 1 frame %.1f dB, 16 frames %.1f dB\n", sr[0], sr[15])
	fmt.Printf("nearest:    1 frame %.1f dB, 16 frames %.1f dB\n", rn[0], rn[15])
	// Output:
	// stochastic: 1 frame 7.5 dB, 16 frames 19.5 dB
	// nearest:    1 frame 11.0 dB, 16 frames 11.0 dB
}

// Quantizing onto FP4 (E2M1) with white mapped to its largest value 6:
// eight levels, dense near black, sparse near white.
func ExampleQuantizer_Levels() {
	q, err := dither.NewQuantizer(dither.Options{Method: dither.FloydSteinberg, Format: fp8.E2M1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range q.Levels() {
		fmt.Printf("%.3f ", l)
	}
	fmt.Println()
	// Output: 0.000 0.083 0.167 0.250 0.333 0.500 0.667 1.000
}

func ExampleParseMethod() {
	for _, s := range []string{"floyd", "Bayer8", "sr", "dots"} {
		m, err := dither.ParseMethod(s)
		fmt.Println(m, err)
	}
	// Output:
	// floyd <nil>
	// bayer8 <nil>
	// stochastic <nil>
	// nearest dither: unknown method "dots" (known: nearest, stochastic, bayer2, bayer4, bayer8, floyd)
}

func ExampleBayerMatrix() {
	m, _ := dither.BayerMatrix(4)
	for y := 0; y < 4; y++ {
		fmt.Println(m[4*y : 4*y+4])
	}
	// Output:
	// [0 8 2 10]
	// [12 4 14 6]
	// [3 11 1 9]
	// [15 7 13 5]
}
