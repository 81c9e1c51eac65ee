//go:build solutions

// Package decode is workshop exercise 1: decode an E4M3FN byte by hand.
package decode

import "math"

// DecodeE4M3 returns the value of the OCP E4M3FN code c: sign bit, 4
// exponent bits (bias 7), 3 mantissa bits; exponent field 0 is subnormal,
// S.1111.111 is NaN, and there is no infinity.
func DecodeE4M3(c uint8) (float64, error) {
	sign := 1.0
	if c&0x80 != 0 {
		sign = -1
	}
	e, m := int(c>>3)&0xF, float64(c&7)
	switch {
	case e == 0xF && c&7 == 7:
		return math.NaN(), nil
	case e == 0:
		return sign * m / 8 * math.Ldexp(1, -6), nil
	default:
		return sign * (1 + m/8) * math.Ldexp(1, e-7), nil
	}
}
