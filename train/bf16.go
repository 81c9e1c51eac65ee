package train

import "math"

// BF16 rounding by bit manipulation: BF16 is the top half of a float32, so
// rounding keeps the top 16 bits. These agree with fp8.BF16's encoder (the
// tests check it) and are fast enough to round every operand of every step.

// bf16Nearest rounds x to the nearest BF16, ties to even; values beyond
// BF16's range become ±Inf, NaN stays NaN.
func bf16Nearest(x float32) float32 {
	b := math.Float32bits(x)
	if b&0x7f800000 == 0x7f800000 {
		return x
	}
	b += 0x7fff + (b>>16)&1
	return math.Float32frombits(b &^ 0xffff)
}

// bf16Stochastic rounds x to one of its two BF16 neighbours, away from zero
// with probability (dropped bits)/2^16, using the low 16 bits of r. It
// saturates at ±MaxBF16 instead of rounding to infinity, as the fp8
// package's stochastic encoders do (±Inf included); NaN stays NaN.
func bf16Stochastic(x float32, r uint32) float32 {
	b := math.Float32bits(x)
	if b&0x7f800000 == 0x7f800000 {
		if b&0x7fffff != 0 {
			return x
		}
		return math.Float32frombits(b&0x80000000 | 0x7f7f0000)
	}
	b += r & 0xffff
	b &^= 0xffff
	if b&0x7f800000 == 0x7f800000 {
		b = b&0x80000000 | 0x7f7f0000
	}
	return math.Float32frombits(b)
}

// roundBF16 rounds s in place to nearest BF16, or stochastically with
// random words when random is not nil (one per element).
func roundBF16(s []float32, random []uint32) {
	if random == nil {
		for i, v := range s {
			s[i] = bf16Nearest(v)
		}
		return
	}
	for i, v := range s {
		s[i] = bf16Stochastic(v, random[i])
	}
}
