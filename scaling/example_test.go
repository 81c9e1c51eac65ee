package scaling_test

import (
	"fmt"
	"math"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
)

// Quantize a small matrix per row to E4M3FN and look at the scales and the
// round trip.
func ExampleQuantize() {
	x, _ := scaling.FromRows([][]float32{
		{0.5, -1, 2},
		{100, 300, -448},
	})
	q, err := scaling.Quantize(x, fp8.E4M3FN, scaling.PerRow, scaling.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("scales:", q.Scales) // 448/2 and 448/448
	// 100 lies halfway between E4M3FN's 96 and 104: ties go to the even code.
	back, _ := q.Dequantize()
	fmt.Println("back:", back.Data)
	// Output:
	// scales: [224 1]
	// back: [0.5 -1 2 96 288 -448]
}

// ParseGranularity reads the names the CLI accepts.
func ExampleParseGranularity() {
	for _, name := range []string{"tensor", "tile1x128", "block128", "block64x32", "mx", "nvfp4"} {
		g, _ := scaling.ParseGranularity(name)
		r, c, _ := g.BlockShape(256, 512)
		fmt.Printf("%-10s blocks of %d×%d\n", g, r, c)
	}
	// Output:
	// tensor     blocks of 256×512
	// tile1x128  blocks of 1×128
	// block128   blocks of 128×128
	// block64x32 blocks of 64×32
	// mx         blocks of 1×32
	// nvfp4      blocks of 1×16
}

// Current scaling, with and without power-of-two rounding.
func ExampleScaleRule_Scale() {
	for _, r := range []scaling.ScaleRule{{}, {Pow2: scaling.Pow2Down}, {Margin: 1}} {
		s, _ := r.Scale(3, fp8.E4M3FN)
		fmt.Printf("%+v: %g\n", r, s)
	}
	_, err := scaling.ScaleRule{}.Scale(math.NaN(), fp8.E4M3FN)
	fmt.Println(err)
	// Output:
	// {Pow2:none Margin:0 Eps:0}: 149.33333
	// {Pow2:down Margin:0 Eps:0}: 128
	// {Pow2:none Margin:1 Eps:0}: 74.666664
	// scaling: non-finite value: amax NaN has no scale
}

// NVFP4's two-level scales for a tensor whose amax is 26.88.
func ExampleNVFP4TensorScale() {
	enc, dec, _ := scaling.NVFP4TensorScale(26.88)
	// A block with amax 3: 3/6·100 = 50, a tie between E4M3FN's 48 and 52.
	code, mult, _ := scaling.NVFP4BlockScale(3, enc)
	fmt.Printf("tensor encode %g, decode %g\n", enc, dec)
	fmt.Printf("block scale %g (E4M3FN), element multiplier %g\n", fp8.E4M3FN.Decode(code), mult)
	// Output:
	// tensor encode 100, decode 0.01
	// block scale 48 (E4M3FN), element multiplier 2.0833333
}

// The normalized Walsh–Hadamard transform of an impulse is flat.
func ExampleFWHT() {
	x := []float32{4, 0, 0, 0}
	_ = scaling.FWHT(x)
	fmt.Println(x)
	_ = scaling.FWHT(x) // its own inverse
	fmt.Println(x)
	// Output:
	// [2 2 2 2]
	// [4 0 0 0]
}

// A rotation of the K dimension leaves a matrix product unchanged:
// (A·R)(Rᵀ·B) = A·B.
func ExampleRotation() {
	a, _ := scaling.FromRows([][]float32{{1, 2, 3, 4}})
	b, _ := scaling.FromRows([][]float32{{1}, {0}, {-1}, {2}})
	ab, _ := scaling.MatMul(a, b)
	r, _ := scaling.NewRandomRotation(4, 4, 7)
	_ = r.RotateRows(a)
	_ = r.RotateCols(b)
	rotated, _ := scaling.MatMul(a, b)
	fmt.Println(ab.Data, rotated.Data)
	// Output:
	// [6] [6]
}

// Delayed scaling meets a spike: the step with the spike saturates, and the
// "max" history keeps the scale small for HistoryLen steps afterwards.
func ExampleSimulateDelayed() {
	seq := scaling.Sequence{Steps: 6, Rows: 8, Cols: 64, Seed: 1, SpikeStep: 2, SpikeFactor: 1e6}
	tensors, _ := seq.Generate()
	steps, _ := scaling.SimulateDelayed(scaling.DelayedConfig{Format: fp8.E4M3FN, HistoryLen: 2}, tensors)
	for _, s := range steps {
		fmt.Printf("step %d: overflow %3d, underflow %3d, SQNR %5.1f dB\n", s.Step, s.Overflow, s.Underflow, s.SQNR)
	}
	// Output:
	// step 0: overflow   0, underflow   0, SQNR  31.4 dB
	// step 1: overflow   0, underflow   0, SQNR  31.7 dB
	// step 2: overflow 512, underflow   0, SQNR   0.0 dB
	// step 3: overflow   0, underflow 512, SQNR   0.0 dB
	// step 4: overflow   0, underflow 512, SQNR   0.0 dB
	// step 5: overflow   0, underflow   0, SQNR  31.2 dB
}

// Fast accumulation loses the small terms of a long sum: with 13 fraction
// bits, once the sum holds 2^14 its grid is 2, and adding 1 no longer
// changes it. Promotion to float32 every 128 products restarts the
// tensor-core sum, so only the ones in the first 128 products are lost.
func ExampleAccumulator_Dot() {
	x := make([]float32, 4096)
	ones := make([]float32, 4096)
	for i := range x {
		x[i], ones[i] = 1, 1
	}
	x[0] = 16384
	for _, acc := range []struct {
		name string
		acc  scaling.Accumulator
	}{{"float32", scaling.Float32Accumulator}, {"fast", scaling.FastAccumulator}, {"promoted", scaling.PromotedAccumulator}} {
		s, _ := acc.acc.Dot(x, ones)
		fmt.Printf("%-8s %g\n", acc.name, s)
	}
	// Output:
	// float32  20479
	// fast     16384
	// promoted 20352
}

// Measure shows what one tensor scale does to small rows that a per-row
// scale keeps.
func ExampleMeasure() {
	x, _ := scaling.FromRows([][]float32{{1, 2, 3, 4}, {1e-6, 2e-6, 3e-6, 4e-6}})
	for _, g := range []scaling.Granularity{scaling.PerTensor, scaling.PerRow} {
		q, _ := scaling.Quantize(x, fp8.E4M3FN, g, scaling.Options{})
		m, _ := scaling.Measure(x, q)
		fmt.Printf("%-6s underflow %d, worst row SQNR %.1f dB\n", g, m.Underflow, m.Rows.Worst)
	}
	// Output:
	// tensor underflow 4, worst row SQNR 0.0 dB
	// row    underflow 0, worst row SQNR 31.7 dB
}
