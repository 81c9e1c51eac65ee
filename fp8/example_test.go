package fp8_test

import (
	"fmt"
	"math"

	"github.com/fp8lab/fp8lab/fp8"
)

func ExampleFormat_Encode() {
	c, _ := fp8.E4M3FN.Encode(0.3952, fp8.Mode{})
	fmt.Printf("%#02x %v\n", c, fp8.E4M3FN.Decode(c))
	// Round first, then check for overflow: 464 is a tie that goes to 448.
	c, _ = fp8.E4M3FN.Encode(464, fp8.Mode{Overflow: fp8.NoSaturate})
	fmt.Println(fp8.E4M3FN.Decode(c))
	c, _ = fp8.E4M3FN.Encode(465, fp8.Mode{Overflow: fp8.NoSaturate})
	fmt.Println(fp8.E4M3FN.Decode(c))
	// Output:
	// 0x2d 0.40625
	// 448
	// NaN
}

func ExampleFormat_Info() {
	for _, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2, fp8.E2M1} {
		in := f.Info()
		fmt.Printf("%-6s max %-6v min subnormal %-10v %d positive values\n", in.Name, in.Max, in.MinSubnormal, in.PositiveFinite)
	}
	// Output:
	// E4M3FN max 448    min subnormal 0.001953125 126 positive values
	// E5M2   max 57344  min subnormal 1.52587890625e-05 123 positive values
	// E2M1   max 6      min subnormal 0.5        7 positive values
}

func ExampleFormat_EncodeStochastic() {
	// 0.3952 lies 64.6% of the way from 0.375 to 0.40625: with 8 random
	// bits, the words 0..90 round down and 91..255 (165/256 = 64.5%) round up.
	m := fp8.Mode{Round: fp8.Stochastic, RandomBits: 8}
	lo, _ := fp8.E4M3FN.EncodeStochastic(0.3952, 90, m)
	hi, _ := fp8.E4M3FN.EncodeStochastic(0.3952, 91, m)
	fmt.Println(fp8.E4M3FN.Decode(lo), fp8.E4M3FN.Decode(hi))
	// Output:
	// 0.375 0.40625
}

func ExampleFormat_Explain() {
	ex, _ := fp8.E4M3FN.Explain(-431.99999999999994, fp8.Mode{})
	fmt.Println(ex.Result.Bits, ex.Result.Value, ex.Lower, ex.Upper)
	// Output:
	// 1.1111.101 -416 -448 -416
}

func ExampleEncodeE8M0() {
	for _, r := range []fp8.ScaleRounding{fp8.ScaleFloor, fp8.ScaleCeil, fp8.ScaleNearestEven, fp8.ScaleNearestUp} {
		c5, _ := fp8.EncodeE8M0(5, r)
		c3, _ := fp8.EncodeE8M0(3, r) // 3 = 1.5·2 is a tie
		fmt.Println(r, fp8.E8M0.Decode(c5), fp8.E8M0.Decode(c3))
	}
	// Output:
	// floor 4 2
	// ceil 8 4
	// nearest-even 4 2
	// nearest-up 4 4
}

func ExampleFormat_EncodeSlice32() {
	src := []float32{0.1, 1, 3.3, 500, -7}
	dst := make([]uint8, len(src))
	if err := fp8.E2M1.EncodeSlice32(dst, src, fp8.Mode{}); err != nil {
		panic(err)
	}
	out := make([]float32, len(dst))
	_ = fp8.E2M1.DecodeSlice32(out, dst)
	fmt.Println(out)
	// Output:
	// [0 1 3 6 -6]
}

// The OCP MX shared exponent: floor(log2(amax)) - emax_elem.
func ExampleMXScale() {
	for _, amax := range []float64{1, 448, 500, 0} {
		code, _ := fp8.MXScale(amax, fp8.E4M3FN, fp8.ScaleFloor)
		k, _ := fp8.E8M0Exponent(code)
		fmt.Printf("amax %g: X = 2^%d, amax/X = %g\n", amax, k, amax/math.Ldexp(1, k))
	}
	// Output:
	// amax 1: X = 2^-8, amax/X = 256
	// amax 448: X = 2^0, amax/X = 448
	// amax 500: X = 2^0, amax/X = 500
	// amax 0: X = 2^-127, amax/X = 0
}
