package viz

import (
	"fmt"
	"math"

	"github.com/fp8lab/fp8lab/viz/claim"
)

// The Hadamard scene's explanation: what the rotation does to the SQNR in
// the chosen format, why (the outliers' share of the energy, the amax
// before and after, the values flushed to zero), and the same experiment
// in the other formats of the chart.

// scalesText names which elements share a scale, for a granularity.
func scalesText(g string) string {
	switch g {
	case "tensor":
		return "one scale for the whole tensor"
	case "row":
		return "one scale per row"
	case "mx":
		return "MX scales (a power of two per 32 values)"
	}
	return g + " scaling"
}

// sqnrMove is the claim of how a level moves from a (before) to b (after),
// at the one decimal the text shows.
func sqnrMove(key string, before, after float64) claim.Compare {
	return claim.Compare{Key: key, A: after, B: before, Show: dbText, Above: "raises", Below: "lowers", Same: "leaves unchanged"}
}

// Explain implements Scene.
func (s *hadamardScene) Explain() claim.Explanation {
	var e claim.Explanation
	if err := s.compute(); err != nil {
		e.Addf("The scene cannot be computed: %s.", err)
		return e
	}
	r := s.rep
	name := s.format.Name()
	scales := scalesText(s.ps.str("granularity"))
	all := sqnrMove("hadamard.sqnr", r.Plain.SQNR, r.Rotated.SQNR)
	bulk := sqnrMove("hadamard.bulk_sqnr", s.bulkPlain.SQNR, s.bulkRot.SQNR)
	db := func(key string, v float64) claim.Quantity { return claim.Quantity{Key: key, V: v, Show: dbText} }
	e.Addf("Here the rotation %s the SQNR of all values in %s with %s from %s to %s, and %s that of the values other than the outliers from %s to %s.",
		all, name, scales, db("hadamard.plain_sqnr", r.Plain.SQNR), db("hadamard.rotated_sqnr", r.Rotated.SQNR),
		bulk, db("hadamard.plain_bulk_sqnr", s.bulkPlain.SQNR), db("hadamard.rotated_bulk_sqnr", s.bulkRot.SQNR))
	e.Add(s.shownParagraph())
	e.Add(s.directParagraph())
	e.Add(s.rotatedParagraph())
	e.Add(s.chartParagraph())
	return e
}

// shownParagraph says what is quantized.
func (s *hadamardScene) shownParagraph() claim.Phrase {
	r := s.rep
	name := s.format.Name()
	amax := claim.Quantity{Key: "hadamard.amax_before", V: float64(r.AmaxBefore), Show: sig4}
	how := fmt.Sprintf("quantized to %s with %s, directly and after a Hadamard rotation of blocks of %d", name, scalesText(s.ps.str("granularity")), s.block)
	n := claim.Count{Key: "hadamard.elements", N: r.Plain.Elements, One: "value", Many: "values"}
	if s.crop != "" {
		out := claim.Count{Key: "hadamard.outlier_values", N: s.outlierValues, One: "value lies", Many: "values lie", None: "no value lies"}
		return claim.Sprintf("Shown: %s, %s, %s. %s beyond %d times the RMS (|x| > %s) and so %s; the largest magnitude is %s.",
			s.crop, n, how, out, outlierRMS, claim.Quantity{Key: "hadamard.outlier_threshold", V: s.threshold, Show: sig4},
			map[bool]string{true: "counts as an outlier", false: "count as outliers"}[s.outlierValues == 1], amax)
	}
	per := claim.Count{Key: "hadamard.outliers_per_row", N: s.ps.int("outliers"), One: "outlier", Many: "outliers", None: "no outlier"}
	return claim.Sprintf("%s, every row with %s, the largest magnitude %s, %s.", n, per, amax, how)
}

// directParagraph tells what quantizing directly does, and why the SQNR of
// all values can be high while the other values lose everything: it weighs
// each value by its square.
func (s *hadamardScene) directParagraph() claim.Phrase {
	r := s.rep
	p := claim.Sprintf("Quantized directly, %s zero (of %d).",
		claim.Count{Key: "hadamard.plain_underflow", N: r.Plain.Underflow, One: "value becomes", Many: "values become", None: "no value becomes"}, r.Plain.Elements)
	if s.outlierValues == 0 {
		return p
	}
	share := s.outlierEnergy()
	p = claim.Sprintf("%s The outliers carry %s of the tensor's energy (its sum of squares); the SQNR of all values, %s, is %s that of the other values, %s.",
		p, claim.Share{Key: "hadamard.outlier_energy", Fraction: share, Show: pctText},
		dbText(r.Plain.SQNR), claim.Compare{Key: "hadamard.all_vs_bulk", A: r.Plain.SQNR, B: s.bulkPlain.SQNR, Show: dbText,
			Above: "above", Below: "below", Same: "the same as"}, dbText(s.bulkPlain.SQNR))
	if share > 0.5 && claim.Order(r.Plain.SQNR, s.bulkPlain.SQNR, dbText) > 0 {
		p = claim.Sprintf("%s SQNR weighs each value by its square, so with most of the energy in the outliers it mostly measures them.", p)
	}
	if s.ps.str("granularity") == "tensor" {
		p = claim.Sprintf("%s %s.", p, claim.Has{Key: "hadamard.outlier_is_amax", Present: s.outlierHoldsAmax(),
			Yes: "The largest magnitude is an outlier's, so the outliers choose the one scale",
			No:  "The largest magnitude is not an outlier's"})
	}
	return p
}

// outlierEnergy is the outliers' share of Σx².
func (s *hadamardScene) outlierEnergy() float64 {
	var out, all float64
	for i := 0; i < s.t.Rows; i++ {
		for j := 0; j < s.t.Cols; j++ {
			v := float64(s.t.At(i, j))
			all += v * v
			if s.isOut(i, j) {
				out += v * v
			}
		}
	}
	return out / all
}

// outlierHoldsAmax reports whether an outlier has the largest magnitude.
func (s *hadamardScene) outlierHoldsAmax() bool {
	best, at := -1.0, false
	for i := 0; i < s.t.Rows; i++ {
		for j := 0; j < s.t.Cols; j++ {
			if v := math.Abs(float64(s.t.At(i, j))); v > best {
				best, at = v, s.isOut(i, j)
			}
		}
	}
	return at
}

// rotatedParagraph tells what the rotation changed: the amax and the
// values flushed to zero.
func (s *hadamardScene) rotatedParagraph() claim.Phrase {
	r := s.rep
	amax := claim.Compare{Key: "hadamard.amax_after_vs_before", A: float64(r.AmaxAfter), B: float64(r.AmaxBefore), Show: sig4,
		Above: "larger than before", Below: "smaller than before: each outlier is spread over its block", Same: "the same as before"}
	zero := claim.Compare{Key: "hadamard.underflow_after_vs_before", A: float64(r.Rotated.Underflow), B: float64(r.Plain.Underflow),
		Above: fmt.Sprintf("more values become zero (%d instead of %d)", r.Rotated.Underflow, r.Plain.Underflow),
		Below: fmt.Sprintf("fewer values become zero (%d instead of %d)", r.Rotated.Underflow, r.Plain.Underflow),
		Same:  fmt.Sprintf("as many values become zero (%d)", r.Rotated.Underflow)}
	if r.Rotated.Underflow == 0 && r.Plain.Underflow == 0 {
		zero.Same = "still no value becomes zero"
	}
	p := claim.Sprintf("After the rotation the largest magnitude is %s, %s; %s.",
		claim.Quantity{Key: "hadamard.amax_after", V: float64(r.AmaxAfter), Show: sig4}, amax, zero)
	if s.outlierValues > 0 && s.outlierMaxErr == 0 && r.Rotated.SQNR < r.Plain.SQNR && !dbEqual(r.Rotated.SQNR, r.Plain.SQNR) {
		p = claim.Sprintf("%s %s.", p, claim.Has{Key: "hadamard.outliers_exact", Present: true,
			Yes: "Quantized directly the outliers were stored exactly; the rotation spreads their energy into every element, where it meets the format's rounding error"})
	}
	return claim.Sprintf("%s The rotation is orthogonal (its inverse is its transpose), so it is undone after the matrix product: (A·H)(H⁻¹·B) = A·B.", p)
}

// chartParagraph sorts the chart's formats by what the rotation does to
// their SQNR of all values.
func (s *hadamardScene) chartParagraph() claim.Phrase {
	groups := map[int][]claim.Phrase{}
	for _, g := range s.gains {
		c := claim.Compare{Key: "hadamard.gain." + g.name, A: g.rotated, B: g.plain, Show: dbText,
			Above: fmt.Sprintf("%s (%+.1f dB)", g.name, g.rotated-g.plain),
			Below: fmt.Sprintf("%s (%+.1f dB)", g.name, g.rotated-g.plain),
			Same:  g.name}
		groups[c.Order()] = append(groups[c.Order()], claim.Sprintf("%s", c))
	}
	var parts []claim.Phrase
	for _, o := range []struct {
		order int
		verb  string
	}{{1, "helps"}, {-1, "hurts"}, {0, "leaves unchanged"}} {
		if l := groups[o.order]; len(l) > 0 {
			parts = append(parts, claim.Sprintf("%s %s", o.verb, claim.JoinAnd(l)))
		}
	}
	chart := claim.Reference{Key: "hadamard.chart", Label: "SQNR change by rotating", Words: "“SQNR change by rotating”"}
	p := claim.Sprintf("The chart %s runs the same experiment in other formats, the shown format shaded (click a format to show it): the rotation %s.",
		chart, claim.Join(parts, "; it "))
	if len(groups[1]) > 0 && len(groups[-1]) > 0 {
		p = claim.Sprintf("%s Rotation is no free win: on this tensor it helps some formats and hurts others.", p)
	}
	return p
}
