package claim

import (
	"strconv"

	"github.com/fp8lab/fp8lab/fp8"
)

// Property is a property of a number format that a sentence may state.
// Each is read from fp8.Format, never assumed from a format's name, so
// that E8M0, the FNUZ formats and the MX element types are described
// truly.
type Property uint8

// The properties of a format.
const (
	SignBit         Property = iota // the top bit is a sign (fp8.Format.Signed)
	Zero                            // some code is zero (HasZero)
	NegativeZero                    // -0 has its own code (HasNegativeZero)
	Subnormals                      // codes below the smallest normal value (HasSubnormals)
	Infinity                        // ±Inf codes (HasInf)
	NaN                             // NaN codes (HasNaN)
	AlwaysSaturates                 // every overflow gives ±max, whatever the mode (AlwaysSaturates)
	PowersOfTwo                     // every value is a power of two (PowersOfTwo)
)

// properties is the table of properties: the name a test keys on and how
// to read it from a format.
var properties = [...]struct {
	name string
	of   func(*fp8.Format) bool
}{
	SignBit:         {"sign_bit", (*fp8.Format).Signed},
	Zero:            {"zero", (*fp8.Format).HasZero},
	NegativeZero:    {"negative_zero", (*fp8.Format).HasNegativeZero},
	Subnormals:      {"subnormals", (*fp8.Format).HasSubnormals},
	Infinity:        {"infinity", (*fp8.Format).HasInf},
	NaN:             {"nan", (*fp8.Format).HasNaN},
	AlwaysSaturates: {"always_saturates", (*fp8.Format).AlwaysSaturates},
	PowersOfTwo:     {"powers_of_two", (*fp8.Format).PowersOfTwo},
}

// Properties lists every property, in order.
func Properties() []Property {
	out := make([]Property, len(properties))
	for i := range out {
		out[i] = Property(i)
	}
	return out
}

// String returns the property's name, e.g. "subnormals".
func (p Property) String() string {
	if int(p) < len(properties) {
		return properties[p].name
	}
	return "Property(" + strconv.Itoa(int(p)) + ")"
}

// FormatFact is a property of a format: Holds as read from the format,
// worded Yes when it holds and No when it does not.
type FormatFact struct {
	Format  string
	Prop    Property
	Holds   bool
	Yes, No string
}

// Of reads property p of f and words it yes or no.
func Of(f *fp8.Format, p Property, yes, no string) FormatFact {
	holds := false
	if int(p) < len(properties) {
		holds = properties[p].of(f)
	}
	return FormatFact{Format: f.Name(), Prop: p, Holds: holds, Yes: yes, No: no}
}

// ID implements Claim: the format and the property, e.g. "E8M0.zero".
func (f FormatFact) ID() string { return f.Format + "." + f.Prop.String() }

// Kind implements Claim.
func (FormatFact) Kind() Kind { return KindProperty }

// Decided implements Claim.
func (f FormatFact) Decided() bool { return int(f.Prop) < len(properties) && f.Format != "" }

// String implements Claim.
func (f FormatFact) String() string {
	if f.Holds {
		return f.Yes
	}
	return f.No
}
