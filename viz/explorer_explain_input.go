package viz

import (
	"fmt"
	"math"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/viz/claim"
)

// The explorer's words about a typed number and about the overflow edge.

// outcomeOf names how a value came to its result at the overflow edge:
// "max" (rounded back to the largest value), "saturated" (an overflow
// clamped to it), "nan" or "inf" (an overflow to a special), "value"
// (anything else).
func outcomeOf(f *fp8.Format, ex fp8.Explanation) string {
	v := float64(ex.Result.Value)
	switch {
	case !ex.Overflow && math.Abs(v) == f.Max():
		return "max"
	case !ex.Overflow:
		return "value"
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 0):
		return "inf"
	}
	return "saturated"
}

// outcomeClaim words an outcome after "becomes 448".
func outcomeClaim(key string, f *fp8.Format, ex fp8.Explanation) claim.Is {
	o := outcomeOf(f, ex)
	words := map[string]string{
		"max":       ", back to the largest value",
		"value":     "",
		"nan":       fmt.Sprintf(", an overflow that gives NaN because %s has no infinity", f.Name()),
		"inf":       ", an overflow to infinity",
		"saturated": ", an overflow saturated to the largest value",
	}[o]
	return claim.Is{Key: key, Value: o, Words: words}
}

// explorerEdge explains the overflow boundary: the step beyond max, the
// tie halfway to it, and what the codec does there in the current mode.
func explorerEdge(f *fp8.Format, e overflowEdge) claim.Phrase {
	p := claim.Sprintf("Beyond %s, %s's largest value, the next step would be %s, which has no code; halfway lies %s. "+
		"Rounding comes first and the overflow check second: in this mode (%s) %s becomes %s%s, and %s becomes %s%s.",
		valueText(e.max), f.Name(), valueQty("edge.next", e.next), valueQty("edge.mid", e.mid),
		e.tie.Mode, valueText(e.mid), valueIs("edge.tie_result", float64(e.tie.Result.Value)), outcomeClaim("edge.tie_outcome", f, e.tie),
		valueText(e.probe), valueIs("edge.probe_result", float64(e.above.Result.Value)), outcomeClaim("edge.probe_outcome", f, e.above))
	if !e.ok {
		return claim.Sprintf("%s %s.", p, claim.Has{Key: "edge.overflows", No: "Nothing finite overflows in this mode"})
	}
	where, itself := claim.Has{Key: "edge.start_inclusive", Present: e.inclusive, Yes: "at", No: "just above"}, ""
	if e.inclusive {
		itself = " itself"
	}
	return claim.Sprintf("%s %s %s %s%s.", p, claim.Has{Key: "edge.overflows", Present: true, Yes: "Overflow begins"},
		where, valueQty("edge.start", e.start), itself)
}

// resultCode is the claim of the code a typed number became: its value
// for a number, its class for a NaN (which NaN code is the codec's choice).
func (s *explorer) resultCode(ex fp8.Explanation) claim.Claim {
	if math.IsNaN(float64(ex.Result.Value)) {
		return claim.Is{Key: "input.code_class", Value: s.f.Class(ex.Result.Code).String(), Words: fmt.Sprintf("0x%02X", ex.Result.Code)}
	}
	return codeQty("input.code", ex.Result.Code)
}

// inputTakeaway is the first sentence when a number is typed: where it
// rounds, and the judgement that matters most (overflow, underflow, the
// error).
func (s *explorer) inputTakeaway(ex fp8.Explanation) claim.Phrase {
	f := s.f
	x := float64(ex.Input)
	res := valueQty("input.result", float64(ex.Result.Value))
	code := s.resultCode(ex)
	switch {
	case math.IsNaN(x):
		return claim.Sprintf("NaN has nothing to round: in %s it becomes %s, code %s.", f.Name(), valueIs("input.result_text", float64(ex.Result.Value)), code)
	case math.IsInf(x, 0):
		return claim.Sprintf("%s is not a finite number: in this mode (%s) %s turns it into %s, code %s.", valueText(float64(ex.Input)), ex.Mode, f.Name(),
			valueIs("input.result_text", float64(ex.Result.Value)), code)
	}
	return claim.Sprintf("%s rounds (%s) to %s in %s, code %s%s.", valueText(float64(ex.Input)), ex.Mode, valueIs("input.result_text", float64(ex.Result.Value)), f.Name(), code,
		s.inputVerdict(ex, res))
}

// inputVerdict is the short judgement after where a finite input rounds.
func (s *explorer) inputVerdict(ex fp8.Explanation, res claim.Quantity) claim.Phrase {
	f := s.f
	switch {
	case ex.Overflow:
		return claim.Sprintf(": %s", outcomeClaimTail("input.outcome", f, ex))
	case ex.Underflow && f.HasZero():
		return claim.Sprintf(": %s", claim.Has{Key: "input.underflow", Present: true, Yes: "it is too small and becomes zero"})
	case ex.Underflow:
		return claim.Sprintf(": %s", claim.Has{Key: "input.underflow", Present: true, Yes: "it is below the smallest value and is raised to it"})
	case float64(ex.AbsError) == 0:
		return claim.Sprintf(", %s", claim.Has{Key: "input.exact", Present: true, Yes: "exactly: it is a value of the format"})
	}
	return claim.Sprintf(", an error of %s", claim.Quantity{Key: "input.rel_error", V: float64(ex.RelError), Show: pctText})
}

// outcomeClaimTail words an overflow's outcome as a clause of its own.
func outcomeClaimTail(key string, f *fp8.Format, ex fp8.Explanation) claim.Is {
	o := outcomeOf(f, ex)
	words := map[string]string{
		"nan":       fmt.Sprintf("it overflows, and gives NaN because %s has no infinity", f.Name()),
		"inf":       "it overflows to infinity",
		"saturated": "it overflows and saturates to the largest value",
	}[o]
	return claim.Is{Key: key, Value: o, Words: words}
}

// inputParagraph explains the typed number's rounding in full: the values
// around it, the error, and whether it overflows or underflows.
func (s *explorer) inputParagraph(ex fp8.Explanation) claim.Phrase {
	f := s.f
	x := float64(ex.Input)
	code := s.resultCode(ex)
	result := valueIs("input.result_text", float64(ex.Result.Value))
	switch {
	case math.IsNaN(x):
		return claim.Sprintf("You typed %s: a NaN input stays NaN, code %s, so no error can be measured.", valueText(float64(ex.Input)), code)
	case math.IsInf(x, 0):
		return claim.Sprintf("You typed %s: in this mode (%s) it becomes %s, code %s. An infinite input is no overflow of a finite value, and has no finite error.",
			valueText(float64(ex.Input)), ex.Mode, result, code)
	}
	lo, hi := s.bracket(ex)
	var where claim.Phrase
	switch {
	case math.IsNaN(hi) || math.IsNaN(lo):
		where = claim.Sprintf("%s", claim.Has{Key: "input.beyond_next_step", Present: true,
			Yes: fmt.Sprintf("beyond %s and even beyond %s, the step that has no code", valueText(s.edge.max), valueText(s.edge.next))})
	case lo == hi:
		where = claim.Lit("exactly on a value of the format")
	default:
		where = claim.Sprintf("between %s and %s", valueQty("input.lower", lo), valueQty("input.upper", hi))
		if s.edgeOK && (math.Abs(lo) == s.edge.next || math.Abs(hi) == s.edge.next) {
			where = claim.Sprintf("%s (%s has no code)", where, valueText(s.edge.next))
		}
	}
	p := claim.Sprintf("You typed %s: it lies %s and rounds (%s) to %s, code %s.", valueText(float64(ex.Input)), where, ex.Mode, result, code)
	if ae := float64(ex.AbsError); ae == 0 {
		p = claim.Sprintf("%s It is a value of the format, so the error is zero.", p)
	} else if !math.IsNaN(ae) {
		p = claim.Sprintf("%s The error is %s, relative %s.", p,
			claim.Quantity{Key: "input.abs_error", V: ae, Show: sig4}, claim.Quantity{Key: "input.rel_error", V: float64(ex.RelError), Show: pctText})
	}
	switch {
	case ex.Overflow:
		return claim.Sprintf("%s It lies beyond the largest value %s: %s.", p, valueText(f.Max()), outcomeClaimTail("input.outcome", f, ex))
	case ex.Underflow && f.HasZero():
		return claim.Sprintf("%s %s.", p, claim.Has{Key: "input.underflow", Present: true,
			Yes: "It lies below half the smallest positive value, so it underflows to zero"})
	case ex.Underflow:
		return claim.Sprintf("%s %s.", p, claim.Has{Key: "input.underflow", Present: true,
			Yes: fmt.Sprintf("It lies below %s's smallest value, which has no zero below it, so it is raised to that value", f.Name())})
	case ex.Result.Class == fp8.ClassSubnormal:
		return claim.Sprintf("%s It lands %s, where fewer significant bits remain.", p, claim.Is{Key: "input.result_class", Value: ex.Result.Class.String(), Words: "among the subnormals"})
	}
	return claim.Sprintf("%s %s.", p, claim.Has{Key: "input.in_range", Present: true, Yes: "It neither overflows nor underflows"})
}

// problemParagraph says why the typed number is not used with this format.
func (s *explorer) problemParagraph() claim.Phrase {
	pr := s.valueProblem
	return claim.Sprintf("You typed %s, which %s cannot hold: it has %s.", pr.input, s.f.Name(), claim.Of(s.f, pr.lacks, "", pr.lacksWords))
}
