package viz

import (
	"math"
	"strings"

	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/viz/claim"
)

// The granularity scene's explanation: one scale for the whole tensor
// against every finer granularity of scaling's table, judged by the
// whole-tensor SQNR and by the worst row, which the whole-tensor figure
// hides.

// granKinds describes the synthetic tensors of tensorKinds.
var granKinds = map[string]string{
	"normal":    "every value drawn from one normal distribution",
	"lognormal": "values spread over many binades",
	"gradients": "heavy-tailed values around 2^-12, as gradients are",
}

// caseName names a granularity case in a sentence: its label from
// scaling's table, capitalized ("Row", "1×128 tile", "MX").
func caseName(c *granularityCase) string {
	if c.key == "tensor" {
		return "one scale for the whole tensor"
	}
	return strings.ToUpper(c.name[:1]) + c.name[1:]
}

// scalesBy names a granularity as where its scales come from: "one scale
// for the whole tensor", "scales per row", "MX".
func scalesBy(c *granularityCase) string {
	switch {
	case c.key == "tensor":
		return "one scale for the whole tensor"
	case strings.ToUpper(c.name) == c.name:
		return c.name
	}
	return "scales per " + c.name
}

// Explain implements Scene.
func (s *granularityScene) Explain() claim.Explanation {
	var e claim.Explanation
	if err := s.compute(); err != nil {
		e.Addf("The scene cannot be computed: %s.", err)
		return e
	}
	tensor := s.cases[0] // scaling's table starts with the whole tensor
	db := func(key string, v float64) claim.Quantity { return claim.Quantity{Key: key, V: v, Show: dbText} }
	e.Addf("One scale for the whole tensor gives a whole-tensor SQNR of %s %s %s; %s.",
		db("granularity.tensor.sqnr", tensor.m.SQNR),
		claim.Compare{Key: "granularity.tensor.sqnr_vs_worst_row", A: tensor.m.SQNR, B: tensor.m.Rows.Worst, Show: dbText,
			Above: "but a worst row of only", Below: "and a worst row of", Same: "and a worst row of"},
		db("granularity.tensor.worst_row", tensor.m.Rows.Worst), s.bestWorstRow())
	e.Add(s.matrixParagraph())
	e.Add(s.tensorParagraph(tensor))
	var parts []claim.Phrase
	for _, c := range s.cases[1:] {
		parts = append(parts, claim.Sprintf("%s (%d scales): %s lost, worst row %s, %s one scale", caseName(c), len(c.q.Scales),
			claim.Count{Key: "granularity." + c.key + ".underflow", N: c.m.Underflow, One: "value", Many: "values", None: "no value"},
			db("granularity."+c.key+".worst_row", c.m.Rows.Worst),
			claim.Compare{Key: "granularity." + c.key + ".worst_row_vs_tensor", A: c.m.Rows.Worst, B: tensor.m.Rows.Worst, Show: dbText,
				Above: "better than", Below: "worse than", Same: "the same as"}))
	}
	e.Add(claim.Sprintf("%s.", claim.Join(parts, ". ")))
	e.Add(s.mxParagraph())
	e.Add(s.spansParagraph())
	return e
}

// bestWorstRow names the granularity with the highest worst-row SQNR at the
// shown precision (several when they tie).
func (s *granularityScene) bestWorstRow() claim.Phrase {
	best := math.Inf(-1)
	for _, c := range s.cases {
		best = math.Max(best, c.m.Rows.Worst)
	}
	var keys, names []string
	for _, c := range s.cases {
		if dbEqual(c.m.Rows.Worst, best) {
			keys, names = append(keys, c.key), append(names, scalesBy(c))
		}
	}
	return claim.Sprintf("the best worst row, %s, comes from %s", dbText(best),
		claim.Is{Key: "granularity.best_worst_row", Value: strings.Join(keys, "+"), Words: strings.Join(names, " and ")})
}

// outliersPlanted reports whether the synthetic matrix has outliers.
func (s *granularityScene) outliersPlanted() bool {
	return !s.loadedMatrix() && (s.ps.int("outlier_rows") > 0 || s.ps.int("outlier_cols") > 0) && s.ps.int("factor") > 0
}

// matrixParagraph says what matrix is quantized.
func (s *granularityScene) matrixParagraph() claim.Phrase {
	const what = "each column of the picture is one granularity, that is, which elements share a scale."
	switch {
	case s.loadedMatrix():
		return claim.Sprintf("The %s, quantized to %s; %s", s.loadedFrom, s.ps.str("format"), what)
	case s.outliersPlanted():
		return claim.Sprintf("A %d×%d matrix (%s) with %s and %s 2^%d times larger than the rest, quantized to %s; %s", granSide, granSide,
			granKinds[s.ps.str("tensor")],
			claim.Count{Key: "granularity.outlier_rows", N: s.ps.int("outlier_rows"), One: "outlier row", Many: "outlier rows", None: "no outlier row"},
			claim.Count{Key: "granularity.outlier_cols", N: s.ps.int("outlier_cols"), One: "outlier column", Many: "outlier columns", None: "no outlier column"},
			s.ps.int("factor"), s.ps.str("format"), what)
	}
	return claim.Sprintf("A %d×%d matrix without outliers (%s), quantized to %s; %s", granSide, granSide, granKinds[s.ps.str("tensor")], s.ps.str("format"), what)
}

// tensorParagraph says how many values one scale flushes to zero, and why.
func (s *granularityScene) tensorParagraph(tensor *granularityCase) claim.Phrase {
	n := tensor.m.Underflow
	lost := claim.Count{Key: "granularity.tensor.underflow", N: n, One: "value becomes", Many: "values become", None: "no value becomes"}
	switch {
	case n > 0 && s.outliersPlanted():
		return claim.Sprintf("With one scale %s zero: the outliers choose the scale and the small values vanish.", lost)
	case n > 0 && s.loadedMatrix():
		return claim.Sprintf("With one scale %s zero: below the smallest subnormal once the tensor's one scale is applied.", lost)
	case n > 0:
		return claim.Sprintf("With one scale %s zero, the tails of the distribution below the window.", lost)
	}
	return claim.Sprintf("With one scale %s zero.", lost)
}

// mxParagraph says how many values MX saturates with the chosen rounding
// of its power-of-two scale X, and why.
func (s *granularityScene) mxParagraph() claim.Phrase {
	var mx *granularityCase
	for _, c := range s.cases {
		if c.g.Scales() == scaling.ScaleE8M0 {
			mx = c
		}
	}
	if mx == nil {
		return claim.Lit("")
	}
	rule, max := s.ps.str("mx_rounding"), mx.fmt.Max()
	n := claim.Count{Key: "granularity.mx.overflow", N: mx.m.Overflow, One: "value saturates", Many: "values saturate", None: "no value saturates"}
	p := claim.Sprintf("MX with the %s rule for its scale X: %s, rounding above %s, %s's largest value, once divided by its block's X.", rule, n, exact(max), mx.fmt.Name())
	if rule != "floor" {
		return p
	}
	emax, err := scaling.MXEmax(mx.fmt)
	if err != nil {
		return p
	}
	lo, hi := math.Exp2(float64(emax)), math.Exp2(float64(emax+1))
	return claim.Sprintf("%s The floor rule puts each block's largest |x/X| in [%s, %s), %s %s; the ceil rule never saturates.", p, exact(lo), exact(hi),
		claim.Compare{Key: "granularity.mx.floor_reach", A: hi, B: max, Above: "which reaches past", Below: "which stays within", Same: "which stays within"}, exact(max))
}

// spansParagraph compares how far the two measures move across the
// granularities.
func (s *granularityScene) spansParagraph() claim.Phrase {
	lo, hi := math.Inf(1), math.Inf(-1)
	wlo, whi := math.Inf(1), math.Inf(-1)
	for _, c := range s.cases {
		lo, hi = math.Min(lo, c.m.SQNR), math.Max(hi, c.m.SQNR)
		wlo, whi = math.Min(wlo, c.m.Rows.Worst), math.Max(whi, c.m.Rows.Worst)
	}
	return claim.Sprintf("Across granularities the whole-tensor SQNR spans %s (%s to %s) and the worst row %s (%s to %s): the whole-tensor figure moves %s the worst row.",
		dbText(hi-lo), dbText(lo), dbText(hi), dbText(whi-wlo), dbText(wlo), dbText(whi),
		claim.Compare{Key: "granularity.spans", A: hi - lo, B: whi - wlo, Show: dbText, Above: "more than", Below: "less than", Same: "as much as"})
}
