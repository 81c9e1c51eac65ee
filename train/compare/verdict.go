package compare

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// The verdict rule: the one place that decides whether a measured
// difference between two recipes is an effect. fp8lab train --compare, the
// docs generator (docs/training*.md) and the Training scene all judge with
// Judge and word it with Verdict.Sentence, so that no page calls "better"
// what another calls noise.
const (
	// MinEffectPct is the smallest gap, in percent of B's final validation
	// loss, called better or worse. At the training lab's sizes (35k to
	// 220k parameters, a few hundred steps) the same recipe's final loss
	// moves by tenths of a percent with nothing but the order of float32
	// sums (the reference runs' fp32 and bf16 differ by 0.03%); a gap below
	// this is not an effect of the recipe worth a sentence, whatever the
	// seeds say.
	MinEffectPct = 0.3
	// MinSeeds is the fewest seeds a verdict needs: one seed has no spread,
	// so nothing tells its gap from the luck of that seed.
	MinSeeds = 2
)

// Outcome is what a comparison of recipe A with recipe B shows.
type Outcome uint8

const (
	// NoEffect: the gap is below MinEffectPct, or the seeds disagree by at
	// least as much as the gap.
	NoEffect Outcome = iota
	// Better: A ends with a lower validation loss than B, by at least
	// MinEffectPct and by more than the gap's spread over the seeds (so on
	// every seed).
	Better
	// Worse: A ends higher, by the same rule.
	Worse
	// TooFewSeeds: fewer than MinSeeds seeds were run.
	TooFewSeeds
)

var outcomeWords = [...]string{"no measurable effect", "better", "worse", "one seed cannot tell"}

// String returns the outcome as the pages write it: "better", "worse",
// "no measurable effect" or "one seed cannot tell".
func (o Outcome) String() string {
	if int(o) < len(outcomeWords) {
		return outcomeWords[o]
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// Verdict is a Difference judged by the rule.
type Verdict struct {
	Difference
	Outcome Outcome
	// Metric names what was compared, as Metric.String writes it.
	Metric string
}

// Judge applies the rule to d: better or worse when |gap| ≥ MinEffectPct
// and |gap| > the spread of the per-seed gaps over at least MinSeeds seeds
// (which makes every seed's gap the same sign as the mean's: the gap of
// the means is a weighted mean of the per-seed gaps), no measurable effect
// otherwise. A gap that is not finite (a run ended in NaN) is no effect.
func Judge(d Difference) Verdict {
	v := Verdict{Difference: d, Metric: d.Metric.String()}
	g := math.Abs(d.GapPct)
	switch {
	case len(d.PerSeed) < MinSeeds:
		v.Outcome = TooFewSeeds
	case math.IsNaN(g) || math.IsInf(g, 0) || g < MinEffectPct || g <= d.SpreadPct:
		v.Outcome = NoEffect
	case d.GapPct < 0:
		v.Outcome = Better
	default:
		v.Outcome = Worse
	}
	return v
}

// Measured writes the numbers behind a verdict: the gap of the means, each
// seed's gap and their spread.
func (v Verdict) Measured() string {
	per := make([]string, len(v.PerSeed))
	for i, g := range v.PerSeed {
		per[i] = fmt.Sprintf("%+.2f", g)
	}
	s := fmt.Sprintf("%s of %s against %s: %+.2f%%", v.Metric, v.A, v.B, v.GapPct)
	switch len(v.PerSeed) {
	case 0:
	case 1:
		s += " (one seed)"
	default:
		s += fmt.Sprintf(" (seed by seed %s; spread %.2f points)", strings.Join(per, ", "), v.SpreadPct)
	}
	return s
}

// Sentence says what the verdict means, in one sentence without its
// final period, computed from the numbers: which recipe ends lower and by
// how much, or (for no measurable effect, which it does not repeat) why
// the difference is not an effect.
func (v Verdict) Sentence() string {
	n := len(v.PerSeed)
	switch v.Outcome {
	case Better, Worse:
		word := "lower"
		if v.Outcome == Worse {
			word = "higher"
		}
		lo, hi := slices.Min(v.PerSeed), slices.Max(v.PerSeed)
		return fmt.Sprintf("%s ends with a %s %s than %s on each of the %d seeds (%+.2f%% to %+.2f%%), "+
			"by more than the seeds disagree (%.2f points) and more than the %.1f%% this lab calls an effect",
			v.A, word, v.Metric, v.B, n, lo, hi, v.SpreadPct, MinEffectPct)
	case TooFewSeeds:
		return fmt.Sprintf("one seed has no spread to tell %s from %s apart from luck, so no difference is claimed "+
			"(run %d seeds or more)", v.A, v.B, MinSeeds)
	}
	g := math.Abs(v.GapPct)
	switch {
	case math.IsNaN(g) || math.IsInf(g, 0):
		return fmt.Sprintf("%s against %s has no finite gap to judge", v.A, v.B)
	case g < MinEffectPct && g <= v.SpreadPct:
		return fmt.Sprintf("the gap (%+.2f%%) is below the %.1f%% this lab calls an effect, "+
			"and the seeds disagree by %.2f points", v.GapPct, MinEffectPct, v.SpreadPct)
	case g < MinEffectPct:
		return fmt.Sprintf("the gap (%+.2f%%) is below the %.1f%% this lab calls an effect", v.GapPct, MinEffectPct)
	}
	return fmt.Sprintf("the gap (%+.2f%%) is no larger than the %.2f points by which the seeds disagree", v.GapPct, v.SpreadPct)
}

// BoundOutcome is what runs at the training lab's scale can say about a
// published bound on |gap| measured on far larger models.
type BoundOutcome uint8

const (
	// Consistent: |gap| + spread is below the bound. At a scale that
	// cannot test the bound this confirms nothing; it only does not
	// contradict it.
	Consistent BoundOutcome = iota
	// Beyond: |gap| − spread is above the bound, and the gap is an effect
	// by Judge's rule: this small model shows a larger cost.
	Beyond
	// Unresolved: the bound lies within gap ± spread, or below what this
	// lab calls an effect.
	Unresolved
)

// BoundVerdict judges a measured difference against a published bound on
// |gap| (in percent), such as DeepSeek-V3's 0.25% relative loss error.
type BoundVerdict struct {
	Verdict
	BoundPct float64
	Outcome  BoundOutcome
}

// JudgeBound applies a bound: Beyond when the gap is an effect (Judge) and
// |gap| − spread exceeds the bound, Consistent when |gap| + spread stays
// below it, Unresolved otherwise (fewer than MinSeeds seeds included).
func JudgeBound(d Difference, boundPct float64) BoundVerdict {
	v := BoundVerdict{Verdict: Judge(d), BoundPct: boundPct, Outcome: Unresolved}
	g := math.Abs(d.GapPct)
	switch {
	case v.Verdict.Outcome == TooFewSeeds, math.IsNaN(g):
	case (v.Verdict.Outcome == Better || v.Verdict.Outcome == Worse) && g-d.SpreadPct > boundPct:
		v.Outcome = Beyond
	case g+d.SpreadPct < boundPct:
		v.Outcome = Consistent
	}
	return v
}

// Word is the bound verdict's short form for a table cell.
func (v BoundVerdict) Word() string {
	switch v.Outcome {
	case Consistent:
		return "consistent"
	case Beyond:
		return "beyond the bound"
	}
	return "cannot tell"
}

// Sentence words the bound verdict without repeating Word. The bound was
// measured at a scale this lab cannot reach: within it, the runs only do
// not contradict it; beyond it, they show a cost the bound does not allow
// at this scale.
func (v BoundVerdict) Sentence(scale string) string {
	g := math.Abs(v.GapPct)
	switch v.Outcome {
	case Consistent:
		s := fmt.Sprintf("|gap| + spread = %.2f%% stays below the %.2f%% bound, which a run at a scale that cannot test it (%s) does not confirm",
			g+v.SpreadPct, v.BoundPct, scale)
		if v.BoundPct < MinEffectPct {
			s += fmt.Sprintf("; the bound is below the %.1f%% this lab calls an effect", MinEffectPct)
		}
		return s
	case Beyond:
		return fmt.Sprintf("|gap| − spread = %.2f%% exceeds the %.2f%% bound, at a scale far from the one it was measured at (%s)",
			g-v.SpreadPct, v.BoundPct, scale)
	}
	if v.Verdict.Outcome == TooFewSeeds {
		return "one seed cannot be set beside a bound"
	}
	return fmt.Sprintf("the %.2f%% bound lies within the gap ± its spread (%.2f%% ± %.2f points)", v.BoundPct, g, v.SpreadPct)
}

// VerdictCell is a table's verdict of a recipe against the summary's
// baseline: "(baseline)", the Outcome of Judge on the validation loss, or
// why there is none ("stopped by Inf/NaN on 3 seeds", "not measured").
func (s *Summary) VerdictCell(recipe string) string {
	r := s.Row(recipe)
	switch {
	case r == nil:
		return "not measured"
	case recipe == s.Baseline:
		return "(baseline)"
	}
	d, err := s.Diff(recipe, s.Baseline, ValLoss)
	switch {
	case err == nil:
		return Judge(d).Outcome.String()
	case r.Diverged == 1:
		return "stopped by Inf/NaN on 1 seed"
	case r.Diverged > 1:
		return fmt.Sprintf("stopped by Inf/NaN on %d seeds", r.Diverged)
	}
	return "not measured"
}
