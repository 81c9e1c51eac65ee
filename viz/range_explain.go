package viz

import (
	"math"
	"strconv"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/viz/claim"
)

// The range scene's explanation: how the formats shown compare in range
// (powers of two spanned) and precision (the step after 1), each format's
// extremes, and where each overflows under round to nearest even.

// binadesText writes a count of powers of two with one decimal.
func binadesText(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// nextAfterOne is the value that follows 1 in a format.
func (f *formatData) nextAfterOne() float64 {
	for _, v := range f.values {
		if v > 1 {
			return v
		}
	}
	return math.NaN()
}

// Explain implements Scene.
func (s *rangeScene) Explain() claim.Explanation {
	var e claim.Explanation
	fs := s.formats
	if len(fs) >= 2 {
		a, b := fs[0], fs[1]
		e.Addf("%s spans %s powers of two than %s (%s against %s) and is %s between 1 and 2 (the value after 1 is %s against %s): "+
			"bits spent on the exponent buy range, bits spent on the mantissa buy precision.",
			a.name, claim.Compare{Key: "range." + a.name + ".binades_vs_" + b.name, A: a.info.Binades, B: b.info.Binades, Show: binadesText,
				Above: "more", Below: "fewer", Same: "as many"}, b.name, binadesText(a.info.Binades), binadesText(b.info.Binades),
			claim.Compare{Key: "range." + a.name + ".step_vs_" + b.name, A: a.nextAfterOne() - 1, B: b.nextAfterOne() - 1,
				Above: "coarser", Below: "finer", Same: "as fine"}, exact(a.nextAfterOne()), exact(b.nextAfterOne()))
	} else {
		a := fs[0]
		e.Addf("%s spans %s powers of two with %s.", a.name, claim.Quantity{Key: "range." + a.name + ".binades", V: a.info.Binades, Show: binadesText},
			claim.Count{Key: "range." + a.name + ".positive_values", N: a.info.PositiveFinite, One: "positive value", Many: "positive values"})
	}
	e.Add(s.ticksParagraph())
	var each []claim.Phrase
	for _, f := range fs {
		each = append(each, claim.Sprintf("%s runs from %s to %s (%s, %s powers of two; after 1 comes %s)", f.name,
			claim.Quantity{Key: "range." + f.name + ".smallest", V: f.smallest(), Show: valueText},
			claim.Quantity{Key: "range." + f.name + ".max", V: f.info.Max, Show: valueText},
			claim.Count{Key: "range." + f.name + ".positive_values", N: f.info.PositiveFinite, One: "positive value", Many: "positive values"},
			claim.Quantity{Key: "range." + f.name + ".binades", V: f.info.Binades, Show: binadesText},
			claim.Quantity{Key: "range." + f.name + ".after_one", V: f.nextAfterOne(), Show: valueText}))
	}
	e.Add(claim.Sprintf("%s.", claim.Join(each, "; ")))
	var over []claim.Phrase
	for _, f := range fs {
		over = append(over, claim.Sprintf("%s %s %s (%s)", f.name,
			claim.Has{Key: "range." + f.name + ".overflow_inclusive", Present: f.inclusive, Yes: "from", No: "above"},
			claim.Quantity{Key: "range." + f.name + ".overflow_threshold", V: f.threshold, Show: valueText},
			map[bool]string{true: "the tie goes to the even step beyond " + valueText(f.info.Max), false: "the tie rounds back to " + valueText(f.info.Max)}[f.inclusive]))
	}
	e.Addf("Rounding to nearest even comes before the overflow check, so a format overflows halfway to the step beyond its largest value, "+
		"shaded where it lies on the axis: %s.", claim.Join(over, "; "))
	return e
}

// ticksParagraph says what a lane shows, and how its ticks are spaced:
// evenly within each power of two, or one per power of two for formats
// whose values are all powers of two.
func (s *rangeScene) ticksParagraph() claim.Phrase {
	var even, pow2 []claim.Phrase
	for _, f := range s.formats {
		if p, err := fp8.Lookup(f.name); err == nil {
			fact := claim.Of(p, claim.PowersOfTwo, f.name, f.name)
			if fact.Holds {
				pow2 = append(pow2, claim.Sprintf("%s", fact))
				continue
			}
			even = append(even, claim.Sprintf("%s", fact))
			continue
		}
		even = append(even, claim.Lit(f.name)) // FP16 and BF16 have mantissas
	}
	p := claim.Lit("Each row is a format; every tick is one of its positive values on a log scale.")
	if len(even) > 0 {
		p = claim.Sprintf("%s In %s the ticks are evenly spread within a power of two and double their spacing at the next one.", p, claim.JoinAnd(even))
	}
	if len(pow2) > 0 {
		p = claim.Sprintf("%s Every value of %s is a power of two: one tick per power of two.", p, claim.JoinAnd(pow2))
	}
	return p
}
