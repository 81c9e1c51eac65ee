package fp8

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Class is the kind of value a code holds.
type Class uint8

// The classes of codes.
const (
	ClassZero Class = iota
	ClassSubnormal
	ClassNormal
	ClassMax // the largest finite magnitude (either sign)
	ClassInf
	ClassNaN
)

var classNames = [...]string{"zero", "subnormal", "normal", "max", "inf", "nan"}

// String returns the class's lower-case name.
func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return fmt.Sprintf("Class(%d)", uint8(c))
}

// MarshalText implements encoding.TextMarshaler, so JSON shows the name.
func (c Class) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// CodeInfo describes one code: its bit fields, value and class.
type CodeInfo struct {
	Code     uint8  `json:"code"`
	Bits     string `json:"bits"` // fields separated by dots, e.g. "0.1111.110"
	Sign     int    `json:"sign"`
	Exponent int    `json:"exponent_field"`
	Mantissa int    `json:"mantissa_field"`
	// Power is the unbiased exponent of the value's binade (for subnormals,
	// that of the smallest normal binade).
	Power int    `json:"power"`
	Value Number `json:"value"`
	Class Class  `json:"class"`
	// ULP is the spacing of values at this code's magnitude: 2^(Power-ManBits).
	ULP Number `json:"ulp"`
}

// Describe returns the fields, value and class of code c, or an error
// wrapping ErrCode when c is wider than the format (ErrInvalidFormat for a
// nil or zero Format).
func (f *Format) Describe(c uint8) (CodeInfo, error) {
	if err := f.check(); err != nil {
		return CodeInfo{}, err
	}
	if !f.Valid(c) {
		return CodeInfo{}, fmt.Errorf("%w: %#x in %d-bit %s", ErrCode, c, f.Bits(), f.spec.Name)
	}
	s := f.spec
	mag := c & f.magMask
	ci := CodeInfo{
		Code:     c,
		Exponent: int(mag >> s.ManBits),
		Mantissa: int(mag) & (1<<s.ManBits - 1),
		Value:    Number(f.values[c]),
	}
	if c&f.signBit != 0 {
		ci.Sign = 1
	}
	ci.Bits = f.bitString(c)
	ci.Power = ci.Exponent - s.Bias
	if ci.Exponent == 0 && s.Specials != ExponentOnly {
		ci.Power = f.grid.emin
	}
	ci.ULP = Number(math.Ldexp(1, ci.Power-s.ManBits))
	ci.Class = f.classes[c]
	return ci, nil
}

// Class returns the class of code c; codes wider than the format, and every
// code of a nil or zero Format, are NaN.
func (f *Format) Class(c uint8) Class {
	if !f.usable() {
		return ClassNaN
	}
	return f.classes[c]
}

// classify computes the class of code c from its value and fields.
func (f *Format) classify(c uint8) Class {
	v := f.values[c]
	mag := c & f.magMask
	switch {
	case math.IsNaN(v):
		return ClassNaN
	case math.IsInf(v, 0):
		return ClassInf
	case mag == f.maxMag:
		return ClassMax
	case v == 0:
		return ClassZero
	case mag>>f.spec.ManBits == 0 && f.spec.Specials != ExponentOnly:
		return ClassSubnormal
	}
	return ClassNormal
}

// bitString writes the code's fields, most significant first, separated by dots.
func (f *Format) bitString(c uint8) string {
	s := f.spec
	var b strings.Builder
	bit := func(i int) {
		b.WriteByte('0' + (c>>i)&1)
	}
	i := s.Bits() - 1
	if s.Signed {
		bit(i)
		b.WriteByte('.')
		i--
	}
	for j := 0; j < s.ExpBits; j, i = j+1, i-1 {
		bit(i)
	}
	if s.ManBits > 0 {
		b.WriteByte('.')
		for ; i >= 0; i-- {
			bit(i)
		}
	}
	return b.String()
}

// Explanation tells what happens to one input under one rounding mode.
type Explanation struct {
	Format string   `json:"format"`
	Input  Number   `json:"input"`
	Mode   string   `json:"mode"`
	Result CodeInfo `json:"result"`
	// Lower and Upper are the representable values that bracket the input
	// (equal to it when it is exact); ±Inf or NaN when it lies beyond Max.
	Lower Number `json:"lower"`
	Upper Number `json:"upper"`
	// UpProbability is the chance that stochastic rounding with enough random
	// bits picks the value farther from zero: the input's position between
	// the two magnitudes that bracket it.
	UpProbability float64 `json:"up_probability"`
	AbsError      Number  `json:"abs_error"`
	RelError      Number  `json:"rel_error"`
	Overflow      bool    `json:"overflow"`  // a finite input rounded beyond Max
	Underflow     bool    `json:"underflow"` // a nonzero input became zero (E8M0: was raised to 2^-127)
}

// Explain encodes x with mode m (not Stochastic) and reports the code, its
// fields, the bracketing values and the rounding error.
func (f *Format) Explain(x float64, m Mode) (Explanation, error) {
	if err := f.check(); err != nil {
		return Explanation{}, err
	}
	if m.Round == Stochastic {
		return Explanation{}, fmt.Errorf("%w: Explain needs a deterministic rounding; see UpProbability for stochastic", ErrInvalidMode)
	}
	if err := m.check(); err != nil {
		return Explanation{}, err
	}
	c, st, err := f.encode(x, m, 0)
	if err != nil {
		return Explanation{}, err
	}
	ci, _ := f.Describe(c)
	ex := Explanation{
		Format: f.spec.Name, Input: Number(x), Result: ci,
		Mode:      fmt.Sprintf("%s, %s", m.Round, overflowNames[m.Overflow]),
		Overflow:  st&overflowed != 0,
		Underflow: st&underflown != 0,
	}
	v := f.values[c]
	ex.AbsError = Number(math.Abs(v - x))
	if x != 0 {
		ex.RelError = Number(math.Abs(v-x) / math.Abs(x))
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		ex.AbsError, ex.RelError = Number(math.NaN()), Number(math.NaN())
	}
	lo, hi := f.bracket(math.Abs(x))
	if lo < hi && !math.IsInf(hi, 0) {
		ex.UpProbability = (math.Abs(x) - lo) / (hi - lo)
	}
	if math.Signbit(x) {
		lo, hi = -hi, -lo
	}
	ex.Lower, ex.Upper = Number(lo), Number(hi)
	return ex, nil
}

// bracket returns the representable magnitudes lo <= a <= hi closest to a.
// Beyond Max, hi is +Inf; NaN gives NaN for both.
func (f *Format) bracket(a float64) (lo, hi float64) {
	if math.IsNaN(a) {
		return a, a
	}
	mags := f.magnitudes()
	i := sort.SearchFloat64s(mags, a) // first index with mags[i] >= a
	switch {
	case i == len(mags):
		return mags[len(mags)-1], math.Inf(1)
	case mags[i] == a:
		return a, a
	case i == 0:
		return 0, mags[0] // only E8M0 has no zero: below 2^-127
	}
	return mags[i-1], mags[i]
}

// magnitudes returns the non-negative finite values in increasing order.
func (f *Format) magnitudes() []float64 {
	out := make([]float64, 0, int(f.maxMag)+1)
	for mag := 0; mag <= int(f.maxMag); mag++ {
		out = append(out, f.values[mag])
	}
	return out
}
