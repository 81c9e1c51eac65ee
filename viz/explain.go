package viz

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/viz/claim"
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
func (s *rangeScene) Explain() claim.Explanation { return legacyExplanation(s.explainOld()) }

func (s *rangeScene) explainOld() []string {
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

// joinAnd writes a list as "a", "a and b" or "a, b and c".
func joinAnd(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// legacyExplanation wraps paragraphs not yet built from claims.
func legacyExplanation(paras []string) claim.Explanation {
	var e claim.Explanation
	for _, p := range paras {
		e.Add(claim.Lit(p))
	}
	return e
}
