package fp8

import (
	"fmt"
	"math"
)

// Rounding selects how a value between two representable numbers is rounded.
type Rounding uint8

const (
	// NearestEven rounds to the nearest value, ties to the even code (IEEE 754 default).
	NearestEven Rounding = iota
	// TowardZero truncates the magnitude. As in IEEE 754, it never rounds a
	// finite input to infinity: an overflow gives ±Max whatever the Overflow policy.
	TowardZero
	// AwayFromZero rounds the magnitude up to the next value when inexact
	// (the "ceil" rule for positive scales).
	AwayFromZero
	// Stochastic adds Mode.RandomBits random bits just below the last kept bit,
	// then truncates, so that E[round(x)] = x when enough bits are used.
	Stochastic
)

var roundingNames = [...]string{"nearest", "zero", "away", "stochastic"}

// String returns the rounding's short name, as the CLI spells it.
func (r Rounding) String() string {
	if int(r) < len(roundingNames) {
		return roundingNames[r]
	}
	return fmt.Sprintf("Rounding(%d)", uint8(r))
}

// ParseRounding parses a rounding name: nearest, zero, away or stochastic.
func ParseRounding(s string) (Rounding, error) {
	for i, n := range roundingNames {
		if s == n {
			return Rounding(i), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown rounding %q (nearest, zero, away, stochastic)", ErrInvalidMode, s)
}

// Overflow selects what happens to values beyond the largest finite value
// after rounding, and to ±Inf inputs.
type Overflow uint8

const (
	// Saturate clamps finite overflow and ±Inf inputs to ±Max, as NVIDIA's
	// satfinite conversions and ONNX saturate=1 do. It is the default.
	Saturate Overflow = iota
	// SaturateKeepInf clamps finite overflow to ±Max but encodes ±Inf inputs as
	// Inf (or NaN where the format has no Inf), as ml_dtypes does.
	SaturateKeepInf
	// NoSaturate is OCP's non-saturating mode: overflow gives Inf in IEEE-like
	// formats and NaN in FN and FNUZ formats. Formats with neither (the MX
	// element types) still saturate, as the MX specification requires.
	NoSaturate
)

var overflowNames = [...]string{"saturate", "saturate-keep-inf", "no-saturate"}

// String returns the policy's name as the CLI spells it.
func (o Overflow) String() string {
	if int(o) < len(overflowNames) {
		return overflowNames[o]
	}
	return fmt.Sprintf("Overflow(%d)", uint8(o))
}

// StochasticRule says how stochastic rounding turns the dropped fraction δ
// (the input's position between its two neighbours, 0 < δ < 1) and r random
// bits rnd into a decision: it rounds away from zero when d + rnd >= 2^r,
// where d is δ·2^r made an integer. The rules differ only when the format
// drops more than r bits; then neither is unbiased, and they err differently
// (TestStochasticRuleBias computes the numbers; docs/conformance.md shows
// them). With E5M2 and r = 3, v = 277 (δ = 21/64) rounds to 256 or 320 with
// mean 272 under StochasticFloor (bias -5) and 280 under StochasticNearest
// (bias +3).
type StochasticRule uint8

const (
	// StochasticFloor truncates: d = floor(δ·2^r). It is what adding r random
	// bits below the last kept bit and truncating computes (fp8lab's
	// historical rule, its GPU kernels, and gfloat's RoundMode.StochasticFastest).
	// Its bias is never positive: E[round(v)] - v = -ULP·frac(δ·2^r)/2^r, a
	// pull toward zero of up to one 2^-r ULP.
	StochasticFloor StochasticRule = iota
	// StochasticNearest rounds δ·2^r to the nearest integer, ties to even,
	// before the comparison: gfloat's RoundMode.Stochastic (see
	// graphcore-research/gfloat src/gfloat/round.py). Its bias is at most half
	// a 2^-r ULP in either direction, ULP·(d - δ·2^r)/2^r.
	StochasticNearest
)

var stochasticRuleNames = [...]string{"floor", "nearest"}

// String returns the rule's name as the CLI spells it.
func (r StochasticRule) String() string {
	if int(r) < len(stochasticRuleNames) {
		return stochasticRuleNames[r]
	}
	return fmt.Sprintf("StochasticRule(%d)", uint8(r))
}

// ParseStochasticRule parses floor or nearest.
func ParseStochasticRule(s string) (StochasticRule, error) {
	for i, n := range stochasticRuleNames {
		if s == n {
			return StochasticRule(i), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown stochastic rule %q (floor, nearest)", ErrInvalidMode, s)
}

// ParseOverflow parses an overflow policy: saturate, saturate-keep-inf or
// no-saturate.
func ParseOverflow(s string) (Overflow, error) {
	for i, n := range overflowNames {
		if s == n {
			return Overflow(i), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown overflow policy %q (saturate, saturate-keep-inf, no-saturate)", ErrInvalidMode, s)
}

// Mode is a complete rounding configuration. The zero Mode is round to
// nearest even with saturation, the project's default.
type Mode struct {
	Round      Rounding
	Overflow   Overflow
	RandomBits int // for Stochastic: how many low bits of the random word are used, 1..32
	// SRRule is the stochastic rule (Stochastic only); the zero value is
	// StochasticFloor.
	SRRule StochasticRule
}

func (m Mode) check() error {
	if m.Round > Stochastic || m.Overflow > NoSaturate || m.SRRule > StochasticNearest {
		return fmt.Errorf("%w: %+v", ErrInvalidMode, m)
	}
	if m.Round == Stochastic && (m.RandomBits < 1 || m.RandomBits > 32) {
		return fmt.Errorf("%w: stochastic rounding needs 1..32 random bits, got %d", ErrInvalidMode, m.RandomBits)
	}
	return nil
}

// status records what happened while encoding one value.
type status uint8

const (
	inexact    status = 1 << iota // the code's value differs from the input
	overflowed                    // a finite input rounded beyond Max
	underflown                    // a nonzero input rounded to zero (or, in E8M0, was raised to the minimum)
)

const (
	f64Inf      = 0x7FF0000000000000
	f64FracMask = 1<<52 - 1
)

// Encode rounds x to a code of f in mode m. The input is rounded once, from
// its exact value: float64 inputs are never rounded through float32 first.
//
// Rules beyond rounding: NaN gives the format's NaN (keeping the sign where
// the format has signed NaNs) or ErrNaN where it has none; ±Inf follows
// m.Overflow; -0 and negative values that round to zero give the negative-zero
// code except in FNUZ formats, which have none and give 0x00. Unsigned formats
// reject negative values with ErrNegative, and E8M0 rejects zero with ErrZero.
// Stochastic rounding needs random bits: use EncodeStochastic.
func (f *Format) Encode(x float64, m Mode) (uint8, error) {
	if err := f.check(); err != nil {
		return 0, err
	}
	if m.Round == Stochastic {
		return 0, fmt.Errorf("%w: stochastic rounding needs random bits, use EncodeStochastic", ErrInvalidMode)
	}
	if err := m.check(); err != nil {
		return 0, err
	}
	c, _, err := f.encode(x, m, 0)
	return c, err
}

// Encode32 is Encode for a float32 input (exactly representable as float64,
// so the result is the same as Encode(float64(x), m)).
func (f *Format) Encode32(x float32, m Mode) (uint8, error) {
	return f.Encode(float64(x), m)
}

// EncodeStochastic rounds x stochastically: the low m.RandomBits bits of
// random are added just below the last mantissa bit the format keeps (in
// subnormals, the subnormal ULP), then the sum is truncated. With r bits the
// rounding probability is quantized to multiples of 2^-r, so E[round(x)] = x
// only when r covers all the dropped bits; m.SRRule says how the dropped
// fraction is cut to r bits (StochasticFloor, the default, truncates it as
// the addition does; StochasticNearest rounds it first, as gfloat does).
// m.Round must be Stochastic.
func (f *Format) EncodeStochastic(x float64, random uint32, m Mode) (uint8, error) {
	if err := f.check(); err != nil {
		return 0, err
	}
	if m.Round != Stochastic {
		return 0, fmt.Errorf("%w: EncodeStochastic needs Round: Stochastic", ErrInvalidMode)
	}
	if err := m.check(); err != nil {
		return 0, err
	}
	c, _, err := f.encode(x, m, random)
	return c, err
}

// encode is the single rounding core. m has been checked.
func (f *Format) encode(x float64, m Mode, random uint32) (uint8, status, error) {
	u := math.Float64bits(x)
	neg := u>>63 != 0
	a := u &^ (1 << 63)
	if a >= f64Inf {
		return f.encodeSpecial(a > f64Inf, neg, m)
	}
	if neg && f.signBit == 0 && a != 0 {
		return 0, 0, fmt.Errorf("%w: %s cannot hold %g", ErrNegative, f.spec.Name, x)
	}
	if a == 0 && f.spec.Specials == ExponentOnly {
		return 0, 0, fmt.Errorf("%w: %s", ErrZero, f.spec.Name)
	}
	mag, st := f.grid.roundMagnitude(a, m, random)
	if st&overflowed != 0 {
		if m.Overflow == NoSaturate && m.Round != TowardZero && f.hasNaN {
			return f.specialCode(f.hasInf, neg), st, nil
		}
		mag = uint64(f.maxMag)
	}
	if neg && f.signBit != 0 && (mag != 0 || f.spec.Specials != FNUZ) {
		return uint8(mag) | f.signBit, st, nil
	}
	return uint8(mag), st, nil
}

// encodeSpecial handles NaN and ±Inf inputs.
func (f *Format) encodeSpecial(isNaN, neg bool, m Mode) (uint8, status, error) {
	if neg && f.signBit == 0 && !isNaN {
		return 0, 0, fmt.Errorf("%w: %s cannot hold -Inf", ErrNegative, f.spec.Name)
	}
	if !isNaN && (m.Overflow == Saturate || !f.hasNaN) {
		if neg {
			return f.maxMag | f.signBit, inexact, nil
		}
		return f.maxMag, inexact, nil
	}
	if !f.hasNaN {
		return 0, 0, fmt.Errorf("%w: %s", ErrNaN, f.spec.Name)
	}
	return f.specialCode(!isNaN && f.hasInf, neg), 0, nil
}

// specialCode returns ±Inf (inf true, IEEE formats only) or the NaN code with
// the sign kept where the format's NaNs are signed.
func (f *Format) specialCode(inf, neg bool) uint8 {
	sign := uint8(0)
	if neg {
		sign = f.signBit
	}
	switch {
	case inf:
		return f.infMag | sign
	case f.spec.Specials == FNUZ || f.spec.Specials == ExponentOnly:
		return f.nanCode
	}
	return f.nanCode | sign
}

// Overflows reports whether the finite value x rounds beyond the largest
// finite value of f in mode m: rounding comes first, then the comparison, so
// 464 does not overflow E4M3FN under NearestEven (it is a tie that goes to
// 448) while 465 does. For Stochastic it reports whether x can overflow,
// that is, whether it overflows with the largest random word. NaN and ±Inf
// give false: they are not finite values that overflow, and so does a nil or
// zero Format.
func (f *Format) Overflows(x float64, m Mode) bool {
	a := math.Float64bits(x) &^ (1 << 63)
	if a >= f64Inf || m.check() != nil || !f.usable() {
		return false
	}
	_, st := f.grid.roundMagnitude(a, m, ^uint32(0))
	return st&overflowed != 0
}
