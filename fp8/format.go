package fp8

import (
	"errors"
	"fmt"
	"math"
)

// Specials says which codes of a format are reserved for infinities and NaNs,
// and whether negative zero exists.
type Specials uint8

const (
	// IEEE reserves the all-ones exponent: zero mantissa is ±Inf, any other
	// mantissa is NaN (E5M2, E4M3, E3M4, FP16).
	IEEE Specials = iota
	// FN ("finite, NaN") has no infinities; only the all-ones code S.1111.111
	// is NaN, so the top binade keeps all but one of its values (E4M3FN).
	FN
	// FNUZ ("finite, NaN, unsigned zero") has no infinities and no negative
	// zero; the code 0x80 (the would-be -0) is the single NaN (E4M3FNUZ, E5M2FNUZ).
	FNUZ
	// FiniteOnly formats have no Inf and no NaN; every code is a number
	// (the MX element types E2M1, E2M3, E3M2).
	FiniteOnly
	// ExponentOnly formats are unsigned powers of two with no mantissa, no zero
	// and no subnormals; the all-ones code is NaN (E8M0, the MX scale).
	ExponentOnly
)

var specialsNames = [...]string{"IEEE", "FN", "FNUZ", "FiniteOnly", "ExponentOnly"}

// String returns the name of the special-value policy.
func (s Specials) String() string {
	if int(s) < len(specialsNames) {
		return specialsNames[s]
	}
	return fmt.Sprintf("Specials(%d)", uint8(s))
}

// Spec describes a minifloat of at most 8 bits. Codes are laid out as
// [sign][exponent][mantissa] from the most significant used bit down; a
// format narrower than 8 bits uses the low bits of the code.
type Spec struct {
	Name     string   // display name, e.g. "E4M3FN"
	Signed   bool     // whether the top bit is a sign bit
	ExpBits  int      // exponent field width, 1..8
	ManBits  int      // mantissa (trailing significand) field width, 0..7
	Bias     int      // exponent bias
	Specials Specials // which codes are Inf/NaN
}

// Bits returns the total width of a code.
func (s Spec) Bits() int {
	n := s.ExpBits + s.ManBits
	if s.Signed {
		n++
	}
	return n
}

// Format is a validated minifloat with its decode table and the constants the
// encoder needs. Formats are immutable and safe for concurrent use; create them
// with NewFormat or use a preset such as E4M3FN.
type Format struct {
	spec Spec

	signBit uint8 // mask of the sign bit in a code, 0 if unsigned
	magMask uint8 // mask of exponent and mantissa
	maxMag  uint8 // magnitude code of the largest finite value
	nanCode uint8 // canonical positive NaN, or 0xFF sentinel when none (see hasNaN)
	infMag  uint8 // magnitude code of +Inf (IEEE only)
	hasNaN  bool  // format has at least one NaN code
	hasInf  bool  // format has infinities
	grid    grid  // rounding constants shared with the wide formats
	max     float64
	ok      bool // made by NewFormat; false for nil and zero Formats

	values   [256]float64 // exact value of every code (NaN for NaN codes)
	classes  [256]Class
	values32 [256]float32
	fast     fast32 // float32 fast path constants
	tables   tables // lookup tables, built on first use (table.go)
}

// Errors returned by NewFormat and the codecs. Wrapped errors carry details;
// test with errors.Is.
var (
	ErrInvalidFormat = errors.New("fp8: invalid format")
	ErrUnknownFormat = errors.New("fp8: unknown format")
	ErrNaN           = errors.New("fp8: NaN has no code in this format")
	ErrNegative      = errors.New("fp8: negative value in an unsigned format")
	ErrZero          = errors.New("fp8: zero has no code in this format")
	ErrInvalidMode   = errors.New("fp8: invalid rounding mode")
	ErrCode          = errors.New("fp8: code out of range for this format")
	ErrLength        = errors.New("fp8: slice lengths differ")
)

// NewFormat validates s and precomputes its decode table. It returns an error
// wrapping ErrInvalidFormat when the fields do not describe a usable format.
func NewFormat(s Spec) (*Format, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	f := &Format{spec: s, ok: true}
	bits := s.Bits()
	f.magMask = uint8(1<<(s.ExpBits+s.ManBits) - 1)
	if s.Signed {
		f.signBit = uint8(1 << (bits - 1))
	}
	expAllOnes := uint8(1<<s.ExpBits-1) << s.ManBits
	switch s.Specials {
	case IEEE:
		f.hasInf, f.hasNaN = true, true
		f.infMag = expAllOnes
		f.maxMag = expAllOnes - 1
		f.nanCode = expAllOnes | 1<<(s.ManBits-1) // quiet NaN: top mantissa bit
	case FN:
		f.hasNaN = true
		f.maxMag = f.magMask - 1
		f.nanCode = f.magMask
	case FNUZ:
		f.hasNaN = true
		f.maxMag = f.magMask
		f.nanCode = f.signBit
	case FiniteOnly:
		f.maxMag = f.magMask
	case ExponentOnly:
		f.hasNaN = true
		f.maxMag = f.magMask - 1
		f.nanCode = f.magMask
	}
	f.grid = newGrid(s.ManBits, s.Bias, uint64(f.maxMag), s.Specials == ExponentOnly)
	for c := 0; c < 256; c++ {
		f.values[c] = f.decodeSlow(uint8(c))
		f.values32[c] = float32(f.values[c])
	}
	f.max = f.values[f.maxMag]
	for c := 0; c < 256; c++ {
		f.classes[c] = f.classify(uint8(c))
	}
	f.fast = newFast32(f)
	return f, nil
}

func (s Spec) validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w %q: %s", ErrInvalidFormat, s.Name, fmt.Sprintf(format, args...))
	}
	switch {
	case s.ExpBits < 1 || s.ExpBits > 8:
		return bad("exponent bits %d not in 1..8", s.ExpBits)
	case s.ManBits < 0 || s.ManBits > 7:
		return bad("mantissa bits %d not in 0..7", s.ManBits)
	case s.Bits() > 8:
		return bad("%d bits do not fit in a byte", s.Bits())
	case s.Bits() < 2:
		return bad("a format needs at least 2 bits")
	case s.Bias < -127 || s.Bias > 254:
		return bad("bias %d out of range", s.Bias)
	case s.Specials > ExponentOnly:
		return bad("unknown special-value policy %d", s.Specials)
	case s.Specials == IEEE && (s.ExpBits < 2 || s.ManBits < 1):
		return bad("IEEE-like formats need at least 2 exponent and 1 mantissa bits")
	case s.Specials == FN && s.ManBits < 1 && s.ExpBits < 2:
		return bad("FN formats need room for a NaN code besides the numbers")
	case s.Specials == FNUZ && !s.Signed:
		return bad("FNUZ formats need a sign bit (NaN is the negative-zero code)")
	case s.Specials == ExponentOnly && (s.Signed || s.ManBits != 0):
		return bad("exponent-only formats are unsigned with no mantissa")
	}
	// Every finite value must be exactly representable as a float32, so that
	// Decode32 is exact: exponents within float32's normal and subnormal range.
	top := (1<<s.ExpBits - 1) - s.Bias
	if s.Specials == IEEE || s.Specials == ExponentOnly {
		top-- // the all-ones exponent holds only Inf and NaN
	}
	bottom := 1 - s.Bias - s.ManBits
	if s.Specials == ExponentOnly {
		bottom = -s.Bias
	}
	if top > 127 || bottom < -149 {
		return bad("values outside float32 range (exponents %d..%d)", bottom, top)
	}
	return nil
}

// decodeSlow computes the exact value of code c from its fields. It is used
// once per code to build the table and independently of the encoder.
func (f *Format) decodeSlow(c uint8) float64 {
	s := f.spec
	if c > f.signBit|f.magMask {
		return math.NaN() // bits above the format's width
	}
	neg := f.signBit != 0 && c&f.signBit != 0
	mag := c & f.magMask
	switch {
	case f.hasNaN && s.Specials == FNUZ && c == f.nanCode:
		return math.NaN()
	case s.Specials == FN && mag == f.magMask,
		s.Specials == ExponentOnly && mag == f.magMask:
		return math.NaN()
	case s.Specials == IEEE && mag >= f.infMag:
		if mag == f.infMag {
			return math.Copysign(math.Inf(1), sign(neg))
		}
		return math.NaN()
	}
	e := int(mag >> s.ManBits)
	m := int(mag) & (1<<s.ManBits - 1)
	var v float64
	if s.Specials == ExponentOnly {
		v = math.Ldexp(1, e-s.Bias)
	} else if e == 0 {
		v = math.Ldexp(float64(m), 1-s.Bias-s.ManBits)
	} else {
		v = math.Ldexp(float64(1<<s.ManBits+m), e-s.Bias-s.ManBits)
	}
	return math.Copysign(v, sign(neg))
}

func sign(neg bool) float64 {
	if neg {
		return -1
	}
	return 1
}

// A nil *Format and the zero Format{} are not formats: they were not made by
// NewFormat. The methods never panic on them. Those that return an error
// report ErrInvalidFormat; the others return the neutral results documented
// below (empty names, zero counts, false, NaN values), so that a program that
// forgot to call NewFormat fails at its first error check, never with a crash.

// errNotMade is returned by every method of a nil or zero Format.
var errNotMade = fmt.Errorf("%w: nil or zero Format (make one with NewFormat or use a preset)", ErrInvalidFormat)

// usable reports whether f was made by NewFormat.
func (f *Format) usable() bool { return f != nil && f.ok }

// check returns errNotMade for a nil or zero Format.
func (f *Format) check() error {
	if !f.usable() {
		return errNotMade
	}
	return nil
}

// Spec returns the fields the format was made from (the zero Spec for a nil
// or zero Format).
func (f *Format) Spec() Spec {
	if !f.usable() {
		return Spec{}
	}
	return f.spec
}

// Name returns the format's display name ("" for a nil or zero Format).
func (f *Format) Name() string { return f.Spec().Name }

// String returns the format's name, or "invalid Format" for a nil or zero Format.
func (f *Format) String() string {
	if !f.usable() {
		return "invalid Format"
	}
	return f.spec.Name
}

// Bits returns the width of a code in bits (0 for a nil or zero Format).
func (f *Format) Bits() int {
	if !f.usable() {
		return 0
	}
	return f.spec.Bits()
}

// NumCodes returns the number of distinct codes, 2^Bits (0 for a nil or zero Format).
func (f *Format) NumCodes() int {
	if !f.usable() {
		return 0
	}
	return 1 << f.Bits()
}

// Max returns the largest finite value (NaN for a nil or zero Format).
func (f *Format) Max() float64 {
	if !f.usable() {
		return math.NaN()
	}
	return f.max
}

// MaxCode returns the code of the largest finite value (0 for a nil or zero Format).
func (f *Format) MaxCode() uint8 {
	if !f.usable() {
		return 0
	}
	return f.maxMag
}

// HasInf reports whether the format encodes infinities.
func (f *Format) HasInf() bool { return f.usable() && f.hasInf }

// HasNaN reports whether the format has a NaN code.
func (f *Format) HasNaN() bool { return f.usable() && f.hasNaN }

// NaNCode returns the canonical (positive, quiet) NaN code and true, or
// 0 and false when the format has no NaN (or is nil or zero).
func (f *Format) NaNCode() (uint8, bool) {
	if !f.HasNaN() {
		return 0, false
	}
	return f.nanCode, true
}

// InfCode returns the code of +Inf (negative: -Inf) and true, or 0 and false
// when the format has no infinities (or is nil or zero).
func (f *Format) InfCode(negative bool) (uint8, bool) {
	if !f.HasInf() {
		return 0, false
	}
	if negative {
		return f.infMag | f.signBit, true
	}
	return f.infMag, true
}

// Signed reports whether the format has a sign bit.
func (f *Format) Signed() bool { return f.usable() && f.spec.Signed }

// Valid reports whether c is a code of this format (narrow formats use only
// the low Bits of a byte). A nil or zero Format has no codes.
func (f *Format) Valid(c uint8) bool { return f.usable() && c <= f.signBit|f.magMask }
