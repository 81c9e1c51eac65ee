package dither_test

import (
	"fmt"

	"github.com/fp8lab/fp8lab/dither"
	"github.com/fp8lab/fp8lab/fp8"
)

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
