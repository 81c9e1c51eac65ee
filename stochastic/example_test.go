package stochastic_test

import (
	"fmt"

	"github.com/fp8lab/fp8lab/stochastic"
)

// With r random bits the probability of rounding up is a multiple of 2^-r,
// rounded down: too few bits bias stochastic rounding toward zero.
func ExampleMeasureBias() {
	res, err := stochastic.MeasureBias(stochastic.BiasConfig{
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
	res, err := stochastic.TinyUpdates(stochastic.TinyUpdateConfig{Format: "BF16", Start: 1, Update: 0.001, Steps: 1000, Seed: 1})
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
