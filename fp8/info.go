package fp8

import "math"

// Info summarizes a format's range and precision, like ml_dtypes' finfo.
// Every number in it is computed from the codes, never written by hand.
type Info struct {
	Name         string  `json:"name"`
	Bits         int     `json:"bits"`
	ExpBits      int     `json:"exponent_bits"`
	ManBits      int     `json:"mantissa_bits"`
	Bias         int     `json:"bias"`
	Signed       bool    `json:"signed"`
	Specials     string  `json:"specials"`
	Max          float64 `json:"max"`
	MinNormal    float64 `json:"min_normal"`
	MinSubnormal float64 `json:"min_subnormal"` // 0 when the format has no subnormals
	Eps          float64 `json:"eps"`           // distance from 1 to the next larger value
	// PositiveFinite counts the positive finite values (zero excluded).
	PositiveFinite int `json:"positive_finite"`
	// Finite counts the codes that are finite numbers, zeros included.
	Finite   int `json:"finite_codes"`
	NaNCount int `json:"nan_count"`
	InfCount int `json:"inf_count"`
	// NaNCodes and InfCodes list the special codes of 8-bit formats; they are
	// left empty for the 16-bit formats, which have thousands of NaNs.
	NaNCodes []int   `json:"nan_codes,omitempty"`
	InfCodes []int   `json:"inf_codes,omitempty"`
	NegZero  bool    `json:"has_negative_zero"`
	Binades  float64 `json:"binades"` // log2(Max / smallest positive value)
}

// Info returns the format's summary; a nil or zero Format gives the zero Info.
func (f *Format) Info() Info {
	if !f.usable() {
		return Info{}
	}
	s := f.spec
	in := Info{
		Name: s.Name, Bits: s.Bits(), ExpBits: s.ExpBits, ManBits: s.ManBits, Bias: s.Bias,
		Signed: s.Signed, Specials: s.Specials.String(), Max: f.max,
	}
	minPos := math.Inf(1)
	for c := 0; c < f.NumCodes(); c++ {
		v := f.values[c]
		switch {
		case math.IsNaN(v):
			in.NaNCount++
			in.NaNCodes = append(in.NaNCodes, c)
		case math.IsInf(v, 0):
			in.InfCount++
			in.InfCodes = append(in.InfCodes, c)
		default:
			in.Finite++
			if v > 0 {
				in.PositiveFinite++
				minPos = math.Min(minPos, v)
			}
			if v == 0 && math.Signbit(v) {
				in.NegZero = true
			}
		}
	}
	in.MinNormal = math.Ldexp(1, f.grid.emin)
	if s.Specials != ExponentOnly && s.ManBits > 0 {
		in.MinSubnormal = minPos
	}
	in.Eps = math.Ldexp(1, -s.ManBits)
	in.Binades = math.Log2(f.max / minPos)
	return in
}
