package viz

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Explainer is implemented by every Scene: Explain returns the scene's
// explanation, a few paragraphs of plain text computed from its Facts, so
// that every judgement in it (better or worse, present or absent, raises or
// lowers, how many) is chosen from the numbers on screen. The site, the
// desktop app and `fp8lab render --explain` show this same text.
type Explainer interface {
	Explain() []string
}

// facts reads a scene's Facts for an explanation.
type facts map[string]string

// num returns a fact as a number (NaN when missing or not a number).
func (f facts) num(k string) float64 {
	v, err := strconv.ParseFloat(f[k], 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

// int returns a fact as an integer (0 when missing).
func (f facts) int(k string) int {
	v, _ := strconv.Atoi(f[k])
	return v
}

// db formats a fact in decibels with one decimal.
func (f facts) db(k string) string { return dbText(f.num(k)) }

// r formats a fact to 4 significant digits.
func (f facts) r(k string) string { return sig4(f.num(k)) }

// pct formats a fraction as a percentage.
func (f facts) pct(k string) string { return pctText(f.num(k)) }

// dbText writes a level in decibels with one decimal.
func dbText(v float64) string {
	if math.IsInf(v, 1) {
		return "∞ dB (exact)"
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + " dB"
}

// sig4 writes v to 4 significant digits.
func sig4(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

// pctText writes a fraction as a percentage.
func pctText(v float64) string {
	x := v * 100
	switch {
	case x == 0:
		return "0%"
	case x >= 99.95 || x < 0.05:
		return strconv.FormatFloat(x, 'g', 3, 64) + "%"
	}
	return strconv.FormatFloat(x, 'f', 1, 64) + "%"
}

// dbEqual reports whether two levels print the same with one decimal, the
// precision an explanation shows them with.
func dbEqual(a, b float64) bool { return dbText(a) == dbText(b) }

// change names how a level moves from a to b: "raises", "lowers" or
// "leaves unchanged" (equal to the shown decimal).
func change(a, b float64) string {
	switch {
	case dbEqual(a, b):
		return "leaves unchanged"
	case b > a:
		return "raises"
	}
	return "lowers"
}

// plural writes n with a noun, singular for one.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// errorExplanation is the explanation of a scene whose facts are an error.
func errorExplanation(f facts) ([]string, bool) {
	if e, ok := f["error"]; ok {
		return []string{"The scene cannot be computed: " + e + "."}, true
	}
	return nil, false
}

// Explain implements Explainer.
func (s *explorer) Explain() []string {
	f := facts(s.Facts())
	out := []string{fmt.Sprintf("Code %s of %s is %s: sign %s, exponent field %s, mantissa field %s. It is a %s value, %s.",
		f["code"], f["format"], f["bits"], f["sign"], f["exponent_field"], f["mantissa_field"], f["class"], f["value"])}
	_, lo := f["lower"]
	_, hi := f["upper"]
	switch {
	case lo && hi:
		out = append(out, fmt.Sprintf("Around it the values are %s apart: the next codes down and up are %s and %s. "+
			"The spacing doubles with every power of two, so the relative precision stays about the same.", f["ulp"], f["lower"], f["upper"]))
	case lo:
		out = append(out, fmt.Sprintf("No larger finite value follows it; the next code down is %s, %s below.", f["lower"], f["ulp"]))
	case hi:
		out = append(out, fmt.Sprintf("No smaller value precedes it; the next code up is %s, %s above.", f["upper"], f["ulp"]))
	}
	out = append(out, fmt.Sprintf("%s reaches %s; its smallest normal value is %s and its smallest subnormal %s (bias %s).",
		f["format"], f["max"], f["min_normal"], f["min_subnormal"], f["bias"]))
	if _, ok := f["edge_midpoint"]; ok {
		out = append(out, explorerEdge(f))
	}
	if _, ok := f["input"]; ok {
		where := fmt.Sprintf("between %s and %s", f["bracket_lower"], f["bracket_upper"])
		if f["beyond_next_step"] == "true" {
			where = fmt.Sprintf("beyond %s and even beyond %s, the step that has no code", f["max"], f["edge_next_step"])
		} else if a, b := math.Abs(f.num("bracket_lower")), math.Abs(f.num("bracket_upper")); a == f.num("edge_next_step") || b == f.num("edge_next_step") {
			where += fmt.Sprintf(" (%s has no code)", f["edge_next_step"])
		}
		p := fmt.Sprintf("You typed %s: it rounds (%s) to %s, code %s, %s. ",
			f["input"], f["mode"], f["result"], f["result_code"], where)
		switch {
		case math.IsInf(f.num("input"), 0):
			p += "An infinite input has no finite error."
		case math.IsNaN(f.num("abs_error")):
			p += "The result is not a number, so no error can be measured."
		case f.num("abs_error") == 0:
			p += "It is a value of the format, so the error is zero."
		default:
			p += fmt.Sprintf("The error is %s, relative %s.", f.r("abs_error"), f.pct("rel_error"))
		}
		switch {
		case math.IsInf(f.num("input"), 0):
			p += fmt.Sprintf(" An infinite input is no overflow of a finite value; this mode maps it to %s.", f["result"])
		case f["overflow"] == "true":
			p += fmt.Sprintf(" It lies beyond the largest value %s: it overflows.", f["max"])
		case f["underflow"] == "true":
			p += " It lies below the smallest normal value: it underflows, losing precision or becoming zero."
		default:
			p += " It neither overflows nor underflows."
		}
		out = append(out, p)
	}
	return append(out, "Click a bit in the picture to flip it, or a cell of the grid to pick a code; the keyboard works on the controls.")
}

// explorerEdge explains the overflow boundary from the explorer's facts:
// the step beyond max, the tie halfway to it, and where overflow begins in
// the current mode, each judgement read from the codec's answers.
func explorerEdge(f facts) string {
	p := fmt.Sprintf("Beyond %s, %s's largest value, the next step would be %s, which has no code; halfway lies %s. "+
		"Rounding comes first and the overflow check second: in this mode (%s) %s becomes %s",
		f["max"], f["format"], f["edge_next_step"], f["edge_midpoint"], f["mode_name"], f["edge_midpoint"], f["edge_tie_result"])
	// what says how a value came to its result.
	what := func(overflows, result string) string {
		switch {
		case overflows != "true" && result == f["max"]:
			return ", back to the largest value"
		case overflows != "true":
			return ""
		case result == f["max"]:
			return ", an overflow saturated to the largest value"
		case result == "NaN" && f["has_inf"] == "false":
			return fmt.Sprintf(", an overflow that gives NaN because %s has no infinity", f["format"])
		}
		return ", an overflow"
	}
	p += what(f["edge_tie_overflows"], f["edge_tie_result"])
	p += fmt.Sprintf(", and %s becomes %s", f["edge_probe"], f["edge_probe_result"]) + what(f["edge_probe_overflows"], f["edge_probe_result"])
	p += "."
	if st, ok := f["overflow_start"]; ok {
		if f["overflow_start_inclusive"] == "true" {
			p += fmt.Sprintf(" Overflow begins at %s itself.", st)
		} else {
			p += fmt.Sprintf(" Overflow begins just above %s.", st)
		}
	} else {
		p += " Nothing finite overflows in this mode."
	}
	return p
}

// Explain implements Explainer.
func (s *rangeScene) Explain() []string {
	f := facts(s.Facts())
	out := []string{"Each row is a format; every tick is one of its positive values on a log scale. " +
		"The ticks are evenly spread within a power of two and double their spacing at the next one."}
	names := strings.Split(f["formats"], ",")
	var each []string
	for _, n := range names {
		each = append(each, fmt.Sprintf("%s runs from %s to %s (%s positive values, %s powers of two, step %s between 1 and 2)",
			n, f[n+".min_subnormal"], f[n+".max"], f[n+".positive_values"], f[n+".binades"], f[n+".eps"]))
	}
	out = append(out, strings.Join(each, "; ")+".")
	if len(names) >= 2 {
		a, b := names[0], names[1]
		wider, finer := "more", "finer"
		if f.num(a+".binades") < f.num(b+".binades") {
			wider = "fewer"
		} else if f.num(a+".binades") == f.num(b+".binades") {
			wider = "as many"
		}
		if f.num(a+".eps") > f.num(b+".eps") {
			finer = "coarser"
		} else if f.num(a+".eps") == f.num(b+".eps") {
			finer = "as fine"
		}
		out = append(out, fmt.Sprintf("%s spans %s powers of two than %s and is %s between 1 and 2: "+
			"bits spent on the exponent buy range, bits spent on the mantissa buy precision.", a, wider, b, finer))
	}
	// Where each format overflows, rounding to nearest even first: the
	// tie halfway to the step beyond max overflows only when that step is
	// the even neighbour.
	var over []string
	for _, n := range names {
		if f[n+".overflow_inclusive"] == "true" {
			over = append(over, fmt.Sprintf("%s from %s (the tie goes to the even step beyond %s)", n, f[n+".overflow_threshold"], f[n+".max"]))
		} else {
			over = append(over, fmt.Sprintf("%s above %s (the tie rounds back to %s)", n, f[n+".overflow_threshold"], f[n+".max"]))
		}
	}
	out = append(out, "Rounding to nearest even comes before the overflow check, so a format overflows halfway to the step beyond its largest value, "+
		"shaded where it lies on the axis: "+strings.Join(over, "; ")+".")
	return out
}

// Explain implements Explainer.
func (s *windowScene) Explain() []string {
	f := facts(s.Facts())
	if e, ok := errorExplanation(f); ok {
		return e
	}
	out := []string{fmt.Sprintf("The histogram shows the %s values of a %s tensor on a log scale. The shaded band is the window of %s: "+
		"from %s, its smallest subnormal, to %s, its maximum, after multiplying by the scale %s.",
		f["elements"], f["tensor"], f["format"], f.r("window_low"), f.r("window_high"), f.r("scale"))}
	var lost []string
	if u := f.num("underflow_fraction"); u > 0 {
		lost = append(lost, pctText(u)+" of the values fall below the window and become zero")
	} else {
		lost = append(lost, "no value falls below the window")
	}
	if v := f.num("subnormal_fraction"); v > 0 {
		lost = append(lost, pctText(v)+" land among the subnormals, where precision is lower")
	}
	if o := f.num("overflow_fraction"); o > 0 {
		lost = append(lost, pctText(o)+" are clipped at the maximum")
	} else {
		lost = append(lost, "none is clipped at the maximum")
	}
	out = append(out, "With this scale "+strings.Join(lost, ", ")+". The signal-to-noise ratio is "+f.db("sqnr_db")+".")
	k, c := math.Log2(f.num("scale")), f.num("current_scale_log2")
	rel := "the same as"
	switch {
	case k > c:
		rel = "larger than"
	case k < c:
		rel = "smaller than"
	}
	out = append(out, fmt.Sprintf("Current scaling would multiply by about 2^%s (the tensor's amax is %s), which puts the largest value "+
		"at the top of the window; this scale, 2^%g, is %s that. Raise the scale to slide the window left, or click the histogram to put the maximum there.",
		f.r("current_scale_log2"), f.r("amax"), k, rel))
	return out
}

// joinAnd writes a list as "a", "a and b" or "a, b and c".
func joinAnd(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
