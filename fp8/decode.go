package fp8

import "math"

// Decode returns the exact value of code c: ±Inf and NaN for the special
// codes. Codes with bits set above the format's width (for example 0x10 in the
// 4-bit E2M1) are not codes of the format and decode to NaN; use Valid to
// tell them apart from a real NaN. A nil or zero Format decodes every code
// to NaN.
func (f *Format) Decode(c uint8) float64 {
	if !f.usable() {
		return math.NaN()
	}
	return f.values[c]
}

// Decode32 returns the value of code c as a float32. Every value of every
// format that NewFormat accepts is exactly representable as a float32. A nil
// or zero Format decodes every code to NaN.
func (f *Format) Decode32(c uint8) float32 {
	if !f.usable() {
		return float32(math.NaN())
	}
	return f.values32[c]
}

// IsNaN reports whether c is a NaN code (or not a code of the format; every
// code of a nil or zero Format).
func (f *Format) IsNaN(c uint8) bool { v := f.Decode(c); return v != v }

// IsInf reports whether c is an infinity.
func (f *Format) IsInf(c uint8) bool {
	return f.HasInf() && c&f.magMask == f.infMag && f.Valid(c)
}

// Codes returns every code of the format in increasing code order (none for
// a nil or zero Format).
func (f *Format) Codes() []uint8 {
	out := make([]uint8, f.NumCodes())
	for i := range out {
		out[i] = uint8(i)
	}
	return out
}

// PositiveFinite returns every positive finite value of the format in
// increasing order (no zero, no Inf, no NaN; none for a nil or zero Format).
func (f *Format) PositiveFinite() []float64 {
	var out []float64
	if !f.usable() {
		return nil
	}
	for mag := 0; mag <= int(f.maxMag); mag++ {
		if v := f.values[mag]; v > 0 {
			out = append(out, v)
		}
	}
	return out
}
