package fp8

// The properties an explanation states about a format, read from its
// Spec so that no sentence assumes them from a format's name. Each is
// false for a nil or zero Format. (HasInf, HasNaN and Signed are in
// format.go.)

// HasZero reports whether some code is zero: every format but the
// exponent-only E8M0, whose smallest value is 2^-127.
func (f *Format) HasZero() bool { return f.usable() && f.spec.Specials != ExponentOnly }

// HasNegativeZero reports whether -0 has a code of its own: signed formats
// other than FNUZ, which spend that code on NaN.
func (f *Format) HasNegativeZero() bool {
	return f.Signed() && f.spec.Specials != FNUZ
}

// HasSubnormals reports whether the format has values below its smallest
// normal value: codes with a zero exponent field and a non-zero mantissa.
// Formats without a mantissa (E8M0) have none.
func (f *Format) HasSubnormals() bool {
	return f.usable() && f.spec.ManBits > 0 && f.spec.Specials != ExponentOnly
}

// AlwaysSaturates reports whether every overflow gives ±Max whatever the
// Overflow mode: formats with neither Inf nor NaN (the MX element types
// E2M1, E2M3 and E3M2) have no code to overflow to.
func (f *Format) AlwaysSaturates() bool { return f.usable() && !f.hasNaN && !f.hasInf }

// PowersOfTwo reports whether every non-zero finite value is a power of
// two, so that neighbouring values are a factor of two apart rather than
// evenly spaced within a binade: formats without mantissa bits (E8M0).
func (f *Format) PowersOfTwo() bool { return f.usable() && f.spec.ManBits == 0 }
