package fp8

import "fmt"

// ScaleRounding is a rule for turning a positive scale into a power of two,
// as stored in an E8M0 (UE8M0) code. Three rules are in use.
type ScaleRounding uint8

const (
	// ScaleFloor rounds down: the OCP MX shared-exponent rule.
	ScaleFloor ScaleRounding = iota
	// ScaleCeil rounds up: Transformer Engine and CUDA's cvt.rp, which never
	// shrink the scale and so never push the block maximum past the format.
	ScaleCeil
	// ScaleNearestEven rounds to the nearest power of two, ties (1.5·2^k) to
	// the even exponent code, as ml_dtypes and PyTorch casts do.
	ScaleNearestEven
)

var scaleRoundingNames = [...]string{"floor", "ceil", "nearest"}

// String returns the rule's name as the CLI spells it.
func (r ScaleRounding) String() string {
	if int(r) < len(scaleRoundingNames) {
		return scaleRoundingNames[r]
	}
	return fmt.Sprintf("ScaleRounding(%d)", uint8(r))
}

// ParseScaleRounding parses floor, ceil or nearest.
func ParseScaleRounding(s string) (ScaleRounding, error) {
	for i, n := range scaleRoundingNames {
		if s == n {
			return ScaleRounding(i), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown scale rounding %q (floor, ceil, nearest)", ErrInvalidMode, s)
}

// EncodeE8M0 rounds a positive scale to an E8M0 code with rule r. Values
// beyond 2^127 saturate to 0xFE; values below 2^-127 give 0x00 (2^-127), the
// smallest scale. NaN gives 0xFF. Zero, negative values and -Inf are errors;
// +Inf saturates.
func EncodeE8M0(x float64, r ScaleRounding) (uint8, error) {
	var round Rounding
	switch r {
	case ScaleFloor:
		round = TowardZero
	case ScaleCeil:
		round = AwayFromZero
	case ScaleNearestEven:
		round = NearestEven
	default:
		return 0, fmt.Errorf("%w: scale rounding %d", ErrInvalidMode, r)
	}
	return E8M0.Encode(x, Mode{Round: round})
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
