package rng_test

import (
	"fmt"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/rng"
)

// The first four words of seed 0, stream 0 are the first Philox4x32-10
// known-answer vector of Random123.
func ExampleBits() {
	for i := uint64(0); i < 4; i++ {
		fmt.Printf("%08x ", rng.Bits(0, 0, i))
	}
	fmt.Println()
	// Output: 6627e8d5 e169c58d bc57ac4c 9b00dbd8
}

// Rounding 1.04 to E4M3FN gives 1 or 1.125; stochastic rounding picks
// 1.125 about a third of the time, so the mean is 1.04.
func ExampleEncodeStochastic() {
	src := make([]float32, 100000)
	for i := range src {
		src[i] = 1.04
	}
	codes := make([]uint8, len(src))
	if err := rng.EncodeStochastic(fp8.E4M3FN, codes, src, 2024, 0, 32); err != nil {
		fmt.Println(err)
		return
	}
	var sum float64
	for _, c := range codes {
		sum += fp8.E4M3FN.Decode(c)
	}
	nearest, _ := fp8.E4M3FN.Encode(1.04, fp8.Mode{})
	fmt.Printf("nearest %.3f, mean of stochastic %.3f\n", fp8.E4M3FN.Decode(nearest), sum/float64(len(src)))
	// Output: nearest 1.000, mean of stochastic 1.040
}
