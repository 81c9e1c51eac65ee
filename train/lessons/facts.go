package lessons

import (
	"fmt"
	"math"

	"github.com/fp8lab/fp8lab/train"
	"github.com/fp8lab/fp8lab/train/compare"
	"github.com/fp8lab/fp8lab/train/records"
)

// facts are what a lesson's sentence is computed from: the record and its
// summary against the lesson's baseline.
type facts struct {
	rec *records.Record
	sum *compare.Summary
}

// verdict judges recipe a against b on the validation loss; a recipe
// without a finished run on every seed gives ok false.
func (f facts) verdict(a, b string) (compare.Verdict, bool) {
	d, err := f.sum.Diff(a, b, compare.ValLoss)
	if err != nil {
		return compare.Verdict{}, false
	}
	return compare.Judge(d), true
}

// runs returns the runs of a recipe, seed by seed (nil for one that
// never ran).
func (f facts) runs(recipe string) []*train.Result {
	for i, n := range f.rec.Recipes {
		if n == recipe {
			out := make([]*train.Result, len(f.rec.Seeds))
			for j := range f.rec.Seeds {
				out[j] = f.rec.Run(i, j)
			}
			return out
		}
	}
	return nil
}

// underflow returns the fraction of a recipe's elements of one operand
// role (grad_output, input, weight) that flushed to zero, over every
// layer, product, step and seed; NaN when none was quantized.
func (f facts) underflow(recipe, operand string) float64 {
	var under, n float64
	for _, r := range f.runs(recipe) {
		if r == nil {
			continue
		}
		for _, sp := range r.Stats {
			for _, o := range sp.Operands {
				if o.Operand == operand {
					under += float64(o.Underflow)
					n += float64(o.Elements)
				}
			}
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return under / n
}

// overflow returns the elements of a recipe clipped at the format's
// largest value, over every operand, step and seed.
func (f facts) overflow(recipe string) int64 {
	if row := f.sum.Row(recipe); row != nil {
		return row.Overflow
	}
	return 0
}

// diverged returns how many of a recipe's runs an Inf or a NaN stopped,
// and the first of them by step.
func (f facts) diverged(recipe string) (int, *train.NonFiniteError) {
	n := 0
	var first *train.NonFiniteError
	for _, r := range f.runs(recipe) {
		if r == nil || r.Diverged == nil {
			continue
		}
		n++
		if first == nil || r.Diverged.Step < first.Step {
			first = r.Diverged
		}
	}
	return n, first
}

// seeds returns the number of seeds of the record.
func (f facts) seeds() int { return len(f.rec.Seeds) }

// percent writes a fraction as a percentage with sensible digits.
func percent(frac float64) string {
	p := 100 * frac
	switch {
	case p == 0:
		return "0%"
	case p < 0.01:
		return "under 0.01%"
	case p < 10:
		return fmt.Sprintf("%.2g%%", p)
	}
	return fmt.Sprintf("%.0f%%", p)
}

// against words a verdict of a against b as a clause: "ends 22.8% higher
// than tensorwise on each of the 3 seeds", "shows no measurable effect
// against tensorwise (+0.09%; ...)".
func against(v compare.Verdict) string {
	switch v.Outcome {
	case compare.Better, compare.Worse:
		word := "lower"
		if v.Outcome == compare.Worse {
			word = "higher"
		}
		return fmt.Sprintf("ends with a %.2g%% %s validation loss than %s on each of the %d seeds", math.Abs(v.GapPct), word, v.B, len(v.PerSeed))
	case compare.TooFewSeeds:
		return fmt.Sprintf("was run on one seed, which cannot tell it from %s", v.B)
	}
	return fmt.Sprintf("shows no measurable effect against %s (%+.2f%%, the seeds %s)", v.B, v.GapPct, spreadText(v))
}

// spreadText says how much the per-seed gaps disagree.
func spreadText(v compare.Verdict) string {
	return fmt.Sprintf("disagreeing by %.2f points", v.SpreadPct)
}

// effect reports whether a verdict is better or worse.
func effect(v compare.Verdict) bool { return v.Outcome == compare.Better || v.Outcome == compare.Worse }
