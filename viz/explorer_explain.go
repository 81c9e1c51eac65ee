package viz

import (
	"fmt"
	"math"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/viz/claim"
)

// The explorer's explanation: the selected code (or the typed number's
// rounding) first, then its bits, its neighbours and the spacing there,
// the format's properties, the overflow edge and the typed number. Every
// property is read from fp8.Format, so E8M0, FNUZ and FP4 are described
// truly.

// classWords says what a class of code is, after its value.
var classWords = map[fp8.Class]string{
	fp8.ClassZero:      "a zero",
	fp8.ClassSubnormal: "a subnormal value",
	fp8.ClassNormal:    "a normal value",
	fp8.ClassMax:       "its largest finite magnitude",
	fp8.ClassInf:       "an infinity",
	fp8.ClassNaN:       "not a number",
}

// codeClass is the claim of a code's class.
func codeClass(key string, c fp8.Class) claim.Is {
	return claim.Is{Key: key, Value: c.String(), Words: classWords[c]}
}

// Explain implements Scene.
func (s *explorer) Explain() claim.Explanation {
	var e claim.Explanation
	f, c := s.f, s.code()
	ci, _ := f.Describe(c)
	if s.explain != nil {
		e.Add(s.inputTakeaway(*s.explain))
	} else {
		e.Addf("Code %s of %s is %s, %s.", codeQty("code", c), f.Name(), valueIs("code.value", float64(ci.Value)), codeClass("code.class", ci.Class))
	}
	e.Add(s.bitsParagraph(ci))
	e.Add(s.spacingParagraph(ci))
	e.Add(formatParagraph(f))
	if s.edgeOK {
		e.Add(explorerEdge(f, s.edge))
	}
	switch {
	case s.explain != nil:
		e.Add(s.inputParagraph(*s.explain))
	case s.valueProblem != nil:
		e.Add(s.problemParagraph())
	}
	e.Add(claim.Lit("Click a bit in the picture to flip it, or a cell of the grid to pick a code; the keyboard works on the controls."))
	return e
}

// codeQty is a code as the text writes it, 0x7E.
func codeQty(key string, c uint8) claim.Quantity {
	return claim.Quantity{Key: key, V: float64(c), Show: func(v float64) string { return fmt.Sprintf("0x%02X", int(v)) }}
}

// valueQty is a value of a format, written exactly as the picture writes
// it (2⁻¹²⁷ rather than 5.877471754111438e-39).
func valueQty(key string, v float64) claim.Quantity {
	return claim.Quantity{Key: key, V: v, Show: valueText}
}

// valueText writes a value of a format as the picture does.
func valueText(v float64) string { return fullValue(fp8.Number(v)) }

// valueIs is a value as a class of its own, so that NaN reads "NaN"
// instead of leaving a Quantity undecided: the value of a NaN code is a
// fact, not a comparison.
func valueIs(key string, v float64) claim.Is {
	return claim.Is{Key: key, Value: exact(v), Words: valueText(v)}
}

// bitsParagraph shows the code's fields and the value they make.
func (s *explorer) bitsParagraph(ci fp8.CodeInfo) claim.Phrase {
	f := s.f
	sp := f.Spec()
	sign := claim.Of(f, claim.SignBit, fmt.Sprintf("sign %d, ", ci.Sign), "")
	fields := claim.Sprintf("%sexponent field %s", sign, claim.Quantity{Key: "code.exponent_field", V: float64(ci.Exponent)})
	if sp.ManBits > 0 {
		fields = claim.Sprintf("%s and mantissa field %s", fields, claim.Quantity{Key: "code.mantissa_field", V: float64(ci.Mantissa)})
	}
	head := claim.Sprintf("Its bits are %s: %s", ci.Bits, fields)
	switch ci.Class {
	case fp8.ClassNaN, fp8.ClassInf:
		return claim.Sprintf("%s, which %s reserves for %s.", head, f.Name(), codeClass("code.class", ci.Class))
	case fp8.ClassZero:
		return claim.Sprintf("%s: with both fields zero it is %s.", head, codeClass("code.class", ci.Class))
	}
	power := claim.Quantity{Key: "code.power", V: float64(ci.Power)}
	if sp.ManBits == 0 {
		return claim.Sprintf("%s, so the value is 2^%s.", head, power)
	}
	lead := claim.Is{Key: "code.implicit_bit", Value: "1", Words: "1"}
	if ci.Class == fp8.ClassSubnormal {
		lead = claim.Is{Key: "code.implicit_bit", Value: "0", Words: "0"}
	}
	return claim.Sprintf("%s, so the value is %s2^%s × (%s + %d/%d).", head, signWord(ci.Sign), power, lead, ci.Mantissa, 1<<sp.ManBits)
}

// signWord writes a negative sign before a formula.
func signWord(sign int) string {
	if sign == 1 {
		return "−"
	}
	return ""
}

// spacingParagraph tells the code's neighbours and how far apart values
// are around it, which depends on its class: fixed steps among the
// subnormals, steps that double at every power of two among the normals.
func (s *explorer) spacingParagraph(ci fp8.CodeInfo) claim.Phrase {
	f := s.f
	v := float64(ci.Value)
	if math.IsNaN(v) {
		return claim.Sprintf("NaN has no neighbours and no spacing: it is %s.", codeClass("code.class", ci.Class))
	}
	if math.IsInf(v, 0) {
		return claim.Lit("")
	}
	lo, hi := neighbours(f, s.code())
	var p claim.Phrase
	// Infinity follows max in formats that have it: a code, but no step.
	var inf claim.Phrase
	if hi.ok && math.IsInf(hi.value, 1) {
		hi.ok, inf = false, claim.Sprintf(" %s.", claim.Has{Key: "code.upper_is_inf", Present: true, Yes: "The next code up is +∞"})
	}
	if lo.ok && math.IsInf(lo.value, -1) {
		lo.ok, inf = false, claim.Sprintf(" %s.", claim.Has{Key: "code.lower_is_inf", Present: true, Yes: "The next code down is −∞"})
	}
	dn, up := v-lo.value, hi.value-v
	switch {
	case lo.ok && hi.ok:
		gaps := claim.Compare{Key: "code.gap_up_vs_down", A: up, B: dn, Show: exact,
			Above: fmt.Sprintf("%s below and %s above: the spacing grows at this power of two", valueText(dn), valueText(up)),
			Below: fmt.Sprintf("%s below and %s above: the spacing shrinks at this power of two", valueText(dn), valueText(up)),
			Same:  fmt.Sprintf("%s away on both sides", valueText(up))}
		p = claim.Sprintf("The next values down and up are %s and %s, %s.", valueQty("code.lower", lo.value), valueQty("code.upper", hi.value), gaps)
	case lo.ok:
		p = claim.Sprintf("%s; the next value down is %s, %s below.%s", claim.Has{Key: "code.has_upper", No: "No larger finite value follows it"},
			valueQty("code.lower", lo.value), valueText(dn), inf)
	case hi.ok:
		p = claim.Sprintf("%s; the next value up is %s, %s above.%s", claim.Has{Key: "code.has_lower", No: "No smaller finite value precedes it"},
			valueQty("code.upper", hi.value), valueText(up), inf)
	}
	return claim.Join([]claim.Phrase{p, s.precisionSentence(ci)}, " ")
}

// precisionSentence says how the step compares with the value: within a
// factor of two among normal values, growing below the smallest normal,
// a whole factor of two where every value is a power of two.
func (s *explorer) precisionSentence(ci fp8.CodeInfo) claim.Phrase {
	f := s.f
	v, ulp := math.Abs(float64(ci.Value)), float64(ci.ULP)
	m := f.Spec().ManBits
	rel := claim.Quantity{Key: "code.relative_step", V: ulp / v, Show: pctText}
	switch {
	case f.PowersOfTwo():
		return claim.Sprintf("%s, so the step up from a value is the value itself.",
			claim.Of(f, claim.PowersOfTwo, "Every value of "+f.Name()+" is a power of two", "Its values are evenly spaced within each power of two"))
	case ci.Class == fp8.ClassZero:
		first := "the smallest subnormal"
		if !f.HasSubnormals() {
			first = "the smallest normal value"
		}
		return claim.Sprintf("Zero has no relative precision; the first value up is %s.", first)
	case ci.Class == fp8.ClassSubnormal:
		bound := math.Ldexp(1, -m)
		return claim.Sprintf("Below the smallest normal value, %s, the step stays fixed at %s, so the relative precision falls as values shrink: here the step is %s of the value, %s.",
			valueText(f.Info().MinNormal), valueText(ulp), rel,
			claim.Compare{Key: "code.relative_step_vs_normal", A: ulp / v, B: bound, Show: pctText,
				Above: "more than among normal values (at most " + pctText(bound) + ")",
				Below: "less than among normal values (at most " + pctText(bound) + ")",
				Same:  "as much as at the start of a normal power of two"})
	}
	return claim.Sprintf("%s the step doubles at every power of two, so the relative precision stays about the same: the step is %s of the value here, and between %s and %s for every normal value.",
		claim.Is{Key: "code.is_normal", Value: "normal", Words: "Among normal values"}, rel, pctText(math.Ldexp(1, -m-1)), pctText(math.Ldexp(1, -m)))
}

// formatParagraph states the format's range and its properties, each read
// from the format.
func formatParagraph(f *fp8.Format) claim.Phrase {
	in := f.Info()
	name := f.Name()
	var rng claim.Phrase
	if f.HasSubnormals() {
		rng = claim.Sprintf("%s reaches %s (bias %d); its smallest normal value is %s and its smallest subnormal %s.", name,
			valueQty("format.max", in.Max), in.Bias, valueQty("format.min_normal", in.MinNormal), valueQty("format.min_subnormal", in.MinSubnormal))
	} else {
		rng = claim.Sprintf("%s reaches %s (bias %d); its smallest positive value is %s.", name,
			valueQty("format.max", in.Max), in.Bias, valueQty("format.min_positive", in.MinNormal))
	}
	props := []claim.Phrase{
		claim.Sprintf("%s", claim.Of(f, claim.SignBit, "a sign bit", "no sign bit")),
		claim.Sprintf("%s", claim.Of(f, claim.Zero, "a zero", "no zero")),
	}
	if f.HasZero() && f.Signed() {
		props = append(props, claim.Sprintf("%s", claim.Of(f, claim.NegativeZero, "a separate −0", "no separate −0")))
	}
	props = append(props,
		claim.Sprintf("%s", claim.Of(f, claim.Subnormals, "subnormals", "no subnormals")),
		claim.Sprintf("%s", claim.Of(f, claim.Infinity, "infinities", "no infinity")),
		claim.Sprintf("%s", claim.Count{Key: "format.nan_codes", N: in.NaNCount, One: "NaN code", Many: "NaN codes", None: "no NaN"}))
	p := claim.Sprintf("%s It has %s.", rng, claim.JoinAnd(props))
	if f.AlwaysSaturates() {
		p = claim.Sprintf("%s %s", p, claim.Of(f, claim.AlwaysSaturates,
			"With neither infinity nor NaN to overflow to, every overflow saturates to the largest value, whatever the overflow mode.", ""))
	}
	return p
}
