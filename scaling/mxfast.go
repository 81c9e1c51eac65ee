package scaling

import (
	"math"
	"math/bits"

	"github.com/fp8lab/fp8lab/fp8"
)

// mxScales fills codes and scales from the amax and absMaxBits of each MX
// block (all finite: the caller has rejected NaN and ±Inf); the four
// slices are the same blocks. The OCP floor rule works on the float32
// bits: floor(log2(amax)) is the biased exponent minus 127, or bits.Len32
// - 150 for a subnormal, which is exactly what fp8.MXScale's math.Frexp gives;
// the multiplier 2^-k is assembled from its exponent bits. Other roundings
// go through fp8.MXScale.
func mxScales(codes []uint8, scales, amax []float32, amaxBits []uint32, f *fp8.Format, r fp8.ScaleRounding) error {
	codes, scales, amax = codes[:len(amaxBits)], scales[:len(amaxBits)], amax[:len(amaxBits)]
	if r != fp8.ScaleFloor {
		for b, a := range amax {
			c, err := fp8.MXScale(float64(a), f, r)
			if err != nil {
				return err
			}
			codes[b], scales[b] = c, pow2Float32(127-int(c))
		}
		return nil
	}
	emax, err := MXEmax(f)
	if err != nil {
		return err
	}
	for b, v := range amaxBits {
		c := fp8.E8M0FromExponent(-127) // amax 0
		if v != 0 {
			c = fp8.E8M0FromExponent(floorLog2Bits(v) - emax)
		}
		codes[b], scales[b] = c, pow2Float32(127-int(c))
	}
	return nil
}

// floorLog2Bits returns floor(log2(x)) of the positive finite float32 whose
// bits are v.
func floorLog2Bits(v uint32) int {
	if v < 1<<23 {
		return bits.Len32(v) - 150 // subnormal: v · 2^-149
	}
	return int(v>>23) - 127
}

// pow2Float32 returns 2^e as a float32 for e in [-127, 127] (2^-127 is
// subnormal), equal to float32(math.Ldexp(1, e)).
func pow2Float32(e int) float32 {
	if e < -126 {
		return math.Float32frombits(1 << (e + 149))
	}
	return math.Float32frombits(uint32(e+127) << 23)
}
