package fp8

import (
	"fmt"
	"math"
)

// ScaleRounding is a rule for turning a positive scale into a power of two,
// as stored in an E8M0 (UE8M0) code. Four rules are offered; which library
// uses which is listed on each (docs/conformance.md has the citations).
type ScaleRounding uint8

const (
	// ScaleFloor rounds down: the OCP MX shared-exponent rule, ONNX Cast
	// round_mode "down" and CUDA's cvt.rz.
	ScaleFloor ScaleRounding = iota
	// ScaleCeil rounds up: Transformer Engine and CUDA's cvt.rp, which never
	// shrink the scale and so never push the block maximum past the format;
	// ONNX Cast round_mode "up" (its default for float8e8m0).
	ScaleCeil
	// ScaleNearestEven rounds to the nearest power of two with ties (1.5·2^k)
	// to the even exponent code: 3 -> 2, 6 -> 8. It is fp8lab's own rule,
	// kept for compatibility: none of ml_dtypes, PyTorch and ONNX rounds ties
	// this way (see ScaleNearestUp).
	ScaleNearestEven
	// ScaleNearestUp rounds to the nearest power of two with ties (1.5·2^k)
	// up: 3 -> 4, 6 -> 8. This is what ml_dtypes' float8_e8m0fnu cast
	// (ml_dtypes/include/float8.h: its round-to-nearest-even step sees the
	// implicit leading 1 as the last kept bit), PyTorch's
	// fp8e8m0fnu_from_fp32_value (c10/util/Float8_e8m0fnu.h: its "lsb" is the
	// implicit bit) and ONNX Cast round_mode "nearest"
	// (onnx/numpy_helper.py to_float8e8m0) compute for normal inputs.
	ScaleNearestUp
)

var scaleRoundingNames = [...]string{"floor", "ceil", "nearest-even", "nearest-up"}

// String returns the rule's name as the CLI spells it.
func (r ScaleRounding) String() string {
	if int(r) < len(scaleRoundingNames) {
		return scaleRoundingNames[r]
	}
	return fmt.Sprintf("ScaleRounding(%d)", uint8(r))
}

// ParseScaleRounding parses floor, ceil, nearest-even or nearest-up. The
// older name "nearest" still means nearest-even, fp8lab's rule before the
// libraries' ties-up rule was offered; write the full name to be clear.
func ParseScaleRounding(s string) (ScaleRounding, error) {
	if s == "nearest" {
		return ScaleNearestEven, nil
	}
	for i, n := range scaleRoundingNames {
		if s == n {
			return ScaleRounding(i), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown scale rounding %q (floor, ceil, nearest-even, nearest-up)", ErrInvalidMode, s)
}

// EncodeE8M0 rounds a positive scale to an E8M0 code with rule r. Values
// beyond 2^127 saturate to 0xFE; values below 2^-127 give 0x00 (2^-127), the
// smallest scale. NaN gives 0xFF. Zero, negative values and -Inf are errors;
// +Inf saturates.
func EncodeE8M0(x float64, r ScaleRounding) (uint8, error) {
	var round Rounding
	switch r {
	case ScaleFloor, ScaleNearestUp:
		round = TowardZero
	case ScaleCeil:
		round = AwayFromZero
	case ScaleNearestEven:
		round = NearestEven
	default:
		return 0, fmt.Errorf("%w: scale rounding %d", ErrInvalidMode, r)
	}
	c, err := E8M0.Encode(x, Mode{Round: round})
	if err != nil || r != ScaleNearestUp || c >= 0xFE {
		return c, err
	}
	if x >= 1.5*E8M0.Decode(c) { // x/2^k in [1.5, 2): up, ties included
		c++
	}
	return c, nil
}

// MXScale returns the E8M0 code of the shared scale X = 2^k of an MX block
// whose largest magnitude is amax, for element type elem; the block's
// elements are stored as enc(x / X). This is the one MX scale rule of
// fp8lab: scaling.Quantize and the CUDA kernels compute it.
//
// With r = ScaleFloor (the zero value) it follows OCP MX v1.0 section 6.3
// (torchao's default FLOOR, gfloat's compute_scale_amax): k =
// floor(log2(amax)) - emax, where emax is the exponent of elem's largest
// value (E4M3FN 8, E5M2 15, E3M2 4, E2M3 2, E2M1 2). The block maximum then
// lands in [2^emax, 2^(emax+1)), so elements above Max (for E4M3FN,
// 448 < |x/X| < 512) saturate, as the specification allows. The other rules
// round amax/Max to a power of two with EncodeE8M0: ScaleCeil is torchao's
// RCEIL, the UE8M0 rule of cuBLAS and Transformer Engine's MXFP8, which never
// saturates. (torchao's CEIL and EVEN modes are not offered.)
//
// k is clamped to [-127, 127]; an all-zero block (amax 0) gets 2^-127
// (code 0x00); a NaN or ±Inf amax gives the NaN code 0xFF, as OCP MX and
// torchao do. A negative amax is an error wrapping ErrNegative.
func MXScale(amax float64, elem *Format, r ScaleRounding) (uint8, error) {
	if err := elem.check(); err != nil {
		return 0, err
	}
	if r > ScaleNearestUp {
		return 0, fmt.Errorf("%w: MX scale rounding %d", ErrInvalidMode, r)
	}
	switch {
	case math.IsNaN(amax) || math.IsInf(amax, 0):
		return 0xFF, nil
	case amax < 0:
		return 0, fmt.Errorf("%w: amax %g", ErrNegative, amax)
	case amax == 0:
		return E8M0FromExponent(-127), nil
	}
	if r != ScaleFloor {
		return EncodeE8M0(amax/elem.Max(), r)
	}
	_, emax := math.Frexp(elem.Max()) // Max in [2^(emax-1), 2^emax)
	_, e := math.Frexp(amax)          // amax in [2^(e-1), 2^e)
	return E8M0FromExponent(e - emax), nil
}

// E8M0Exponent returns the unbiased exponent k of an E8M0 code, whose value
// is 2^k, or an error for the NaN code 0xFF.
func E8M0Exponent(c uint8) (int, error) {
	if c == 0xFF {
		return 0, fmt.Errorf("%w: E8M0 code 0xFF is NaN", ErrCode)
	}
	return int(c) - 127, nil
}

// E8M0FromExponent returns the E8M0 code of 2^k, clamping k to [-127, 127]
// as the MX shared-exponent rule does.
func E8M0FromExponent(k int) uint8 {
	k = min(max(k, -127), 127)
	return uint8(k + 127)
}
