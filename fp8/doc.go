// Package fp8 encodes and decodes FP8 and other minifloats bit-exactly.
//
// A Format describes any binary floating-point format of at most 8 bits:
// sign or not, exponent and mantissa widths, bias, and which codes are Inf or
// NaN. Presets cover OCP FP8 (E4M3FN, E5M2), the FNUZ variants E4M3FNUZ and
// E5M2FNUZ, the IEEE-like E4M3 and E3M4 of ml_dtypes and its TPU format
// E4M3B11FNUZ, the MX scale E8M0 and the MX element types E2M3, E3M2 (FP6) and
// E2M1 (FP4). FP16 and BF16 are available as Wide formats for comparison.
//
// Encoding rounds the exact input once. float64 inputs are never rounded
// through float32 first, so -431.99999999999994 becomes -416 in E4M3FN, not
// -448. Rounding happens before the overflow check: 464 rounds to 448 in
// E4M3FN (a tie, to even) while anything above 464 overflows. The default Mode
// rounds to nearest, ties to even, and saturates: overflow and ±Inf give ±Max.
// Other modes truncate, round away from zero, round stochastically with
// caller-supplied random bits, or follow OCP's non-saturating rule (Inf in
// E5M2, NaN in E4M3FN and the FNUZ formats).
//
// Every function reports bad input (NaN for a format without NaN, a negative
// value for an unsigned format, an unknown format name, mismatched slice
// lengths) as an error; none panics.
package fp8
