package viz

import (
	"math"
	"strconv"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/stretchr/testify/require"
)

func init() {
	sweeps["explorer"] = sweepSpec{
		texts: map[string][]string{"value": {"", "nan", "-nan", "inf", "-inf", "0", "-0", "-3", "3", "465", "464", "61440", "1e-30",
			"0.0001", "1e300", "0x1p-9", "2^-9", "-431.99999999999994", "1.5", "not a number"}},
		fixed: map[string][]string{"code": {"0", "1", "2", "56", "126", "127", "128", "255"}},
		short: 400,
		truth: explorerTruth,
	}
}

// explorerTruth recomputes every claim the explorer can make from the
// decoded codes and refRound.
func explorerTruth(t *testing.T, s Scene) truths {
	get := func(k string) string { v, err := s.Get(k); require.NoError(t, err); return v }
	name := get("format")
	sp, codes := refDecode(t, name)
	code, err := strconv.Atoi(get("code"))
	require.NoError(t, err)
	tr := truths{}
	r := codes[code]
	tr["code"] = float64(code)
	tr["code.value"] = exact(r.value)
	tr["code.class"] = r.class.String()
	tr["code.exponent_field"] = float64(r.exp)
	tr["code.mantissa_field"] = float64(r.man)
	tr["code.power"] = float64(r.power)
	tr["code.implicit_bit"] = map[bool]string{true: "1", false: "0"}[r.implicitOne]
	if r.implicitOne && !math.IsNaN(r.value) && !math.IsInf(r.value, 0) {
		tr["code.is_normal"] = "normal"
	}
	// Neighbours: the nearest distinct values below and above among all
	// codes (±Inf included where the format has them).
	lo, hi := math.Inf(-1), math.Inf(1)
	hasLo, hasHi := false, false
	for _, o := range codes {
		v := o.value
		if math.IsNaN(v) || math.IsNaN(r.value) {
			continue
		}
		if v < r.value && (!hasLo || v > lo) {
			lo, hasLo = v, true
		}
		if v > r.value && (!hasHi || v < hi) {
			hi, hasHi = v, true
		}
	}
	finiteHi := hasHi && !math.IsInf(hi, 0)
	finiteLo := hasLo && !math.IsInf(lo, 0)
	tr["code.lower"], tr["code.upper"] = lo, hi
	tr["code.has_upper"], tr["code.has_lower"] = finiteHi, finiteLo
	tr["code.upper_is_inf"] = hasHi && math.IsInf(hi, 1)
	tr["code.lower_is_inf"] = hasLo && math.IsInf(lo, -1)
	tr["code.gap_up_vs_down"] = [2]float64{hi - r.value, r.value - lo}
	if r.value != 0 {
		rel := r.ulp / math.Abs(r.value)
		tr["code.relative_step"] = rel
		tr["code.relative_step_vs_normal"] = [2]float64{rel, math.Ldexp(1, -sp.ManBits)}
	}
	// The format.
	vals, _, maxULP := refMagnitudes(sp, codes)
	max := vals[len(vals)-1]
	tr["format.max"] = max
	tr["format.min_normal"] = math.Ldexp(1, 1-sp.Bias)
	tr["format.min_subnormal"] = math.Ldexp(1, 1-sp.Bias-sp.ManBits)
	for _, v := range vals {
		if v > 0 {
			tr["format.min_positive"] = v
			break
		}
	}
	nans := 0
	for _, o := range codes {
		if math.IsNaN(o.value) {
			nans++
		}
	}
	tr["format.nan_codes"] = nans
	// The overflow edge, in the scene's mode.
	rounding, overflow := get("rounding"), get("overflow")
	next, mid := max+maxULP, max+maxULP/2
	probe := mid + maxULP/32
	tr["edge.next"], tr["edge.mid"] = next, mid
	tie, _ := refRound(t, name, mid, rounding, overflow)
	above, _ := refRound(t, name, probe, rounding, overflow)
	tr["edge.tie_result"], tr["edge.probe_result"] = exact(tie.value), exact(above.value)
	tr["edge.tie_outcome"] = refOutcome(tie, max)
	tr["edge.probe_outcome"] = refOutcome(above, max)
	// Where overflow begins: the first of max, the tie and the next step
	// just above which a value overflows.
	tr["edge.overflows"] = false
	for _, c := range []float64{max, mid, next} {
		if o, _ := refRound(t, name, math.Nextafter(c, math.Inf(1)), rounding, overflow); o.overflow {
			at, _ := refRound(t, name, c, rounding, overflow)
			tr["edge.overflows"], tr["edge.start"], tr["edge.start_inclusive"] = true, c, at.overflow
			break
		}
	}
	// The typed number.
	if in := get("value"); in != "" {
		explorerInputTruth(t, tr, name, codes, in, rounding, overflow, max)
	}
	return tr
}

// refOutcome names what refRound did at the edge, as outcomeOf does.
func refOutcome(o refRounded, max float64) string {
	switch {
	case !o.overflow && math.Abs(o.value) == max:
		return "max"
	case !o.overflow:
		return "value"
	case math.IsNaN(o.value):
		return "nan"
	case math.IsInf(o.value, 0):
		return "inf"
	}
	return "saturated"
}

// explorerInputTruth adds the truths about a typed number.
func explorerInputTruth(t *testing.T, tr truths, name string, codes []refCode, in, rounding, overflow string, max float64) {
	x, err := fp8.ParseText(in)
	if err != nil {
		return
	}
	var o refRounded
	switch {
	case math.IsNaN(x):
		special, ok := refSpecial(fp8.Spec{}, codes, false, false)
		if !ok {
			return
		}
		o = refRounded{code: special.code, value: math.NaN()}
	case math.IsInf(x, 0):
		if overflow == "saturate" {
			o, _ = refRound(t, name, math.Copysign(max, x), rounding, overflow)
		} else if special, ok := refSpecial(fp8.Spec{}, codes, true, x < 0); ok {
			o = refRounded{code: special.code, value: special.value}
		} else {
			o, _ = refRound(t, name, math.Copysign(max, x), rounding, overflow)
		}
	default:
		var ok bool
		if o, ok = refRound(t, name, x, rounding, overflow); !ok {
			return
		}
	}
	tr["input.result_text"] = exact(o.value)
	if math.IsNaN(o.value) {
		tr["input.code_class"] = "nan" // which NaN code is the codec's choice
	} else {
		tr["input.code"] = float64(o.code)
	}
	tr["input.outcome"] = refOutcome(o, max)
	tr["input.underflow"] = o.underflow
	tr["input.in_range"] = !o.overflow && !o.underflow
	tr["input.exact"] = o.value == x
	if !math.IsNaN(x) && !math.IsInf(x, 0) {
		tr["input.abs_error"] = math.Abs(x - o.value)
		tr["input.rel_error"] = math.Abs(x-o.value) / math.Abs(x)
		tr["input.lower"], tr["input.upper"] = o.lower, o.hi
		tr["input.beyond_next_step"] = o.beyondNext
		tr["input.result_class"] = codes[o.code].class.String()
	}
}
