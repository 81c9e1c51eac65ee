package viz

import (
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/fp8lab/fp8lab/train"
	"github.com/fp8lab/fp8lab/train/compare"
	"github.com/fp8lab/fp8lab/train/lessons"
	"github.com/fp8lab/fp8lab/train/records"
	"github.com/stretchr/testify/require"
)

func init() {
	// Live runs are swept untrained (training is checked against
	// train.Run in training_test.go); the shipped runs, reference and
	// lessons, over every recipe, lesson, inspected recipe and operand.
	sweeps["training"] = sweepSpec{
		fixed: map[string][]string{"train": {"false"}, "seed": {"1", "7"}, "steps": {"25", "300"}},
		short: 40,
		long:  1000,
		truth: trainingTruth,
	}
}

// trainingTruth reads the shipped records itself (records.Reference,
// records.Lesson) and judges them by the rule written out here from its
// doc (compare.MinEffectPct, at least compare.MinSeeds seeds, a gap beyond
// the seeds' spread): the lowest mean final loss, each recipe's gap and
// spread against the baseline in percent, its verdict, and the inspected
// recipe's underflow share and largest amax over its seeds.
func trainingTruth(t *testing.T, s Scene) truths {
	tr := truths{}
	f := facts(s.Facts())
	if _, bad := f["error"]; bad {
		return tr
	}
	runs := mustGet(t, s, "runs")
	var shown []string
	switch runs {
	case runsLessons:
		l, err := lessons.ByName(mustGet(t, s, "lesson"))
		require.NoError(t, err)
		shown = l.Recipes
	default:
		for _, p := range []string{"recipe1", "recipe2", "recipe3"} {
			if r := mustGet(t, s, p); r != "none" && !slices.Contains(shown, r) {
				shown = append(shown, r)
			}
		}
	}
	tr["training.recipes"] = len(shown)
	if runs == runsLive {
		return tr
	}
	var rec *records.Record
	var err error
	if runs == runsLessons {
		rec, err = records.Lesson(mustGet(t, s, "lesson"))
	} else {
		rec, err = records.Reference()
	}
	require.NoError(t, err)
	tr["training.seeds"] = len(rec.Seeds)

	// Each shown recipe's runs that finished, and the earliest stopped
	// one when none did (as the picture shows it).
	type recipeRuns struct {
		finals []float64
		shown  []*train.Result
	}
	by := map[string]recipeRuns{}
	for _, name := range shown {
		i := slices.Index(rec.Recipes, name)
		require.GreaterOrEqual(t, i, 0, name)
		var rr recipeRuns
		var stopped *train.Result
		for j := range rec.Seeds {
			r := rec.Run(i, j)
			switch {
			case r == nil || len(r.Val) == 0:
			case r.Diverged != nil:
				if stopped == nil || r.Diverged.Step < stopped.Diverged.Step {
					stopped = r
				}
			case len(r.TrainLoss) == rec.Steps:
				rr.finals = append(rr.finals, r.Val[len(r.Val)-1].Loss)
				rr.shown = append(rr.shown, r)
			}
		}
		if len(rr.shown) == 0 && stopped != nil {
			rr.shown = []*train.Result{stopped}
		}
		by[name] = rr
	}
	mean := func(xs []float64) float64 {
		var s float64
		for _, x := range xs {
			s += x
		}
		return s / float64(len(xs))
	}
	lowest, lv := "", math.Inf(1)
	for _, name := range shown {
		if fs := by[name].finals; len(fs) > 0 && mean(fs) < lv {
			lowest, lv = name, mean(fs)
		}
	}
	if lowest != "" {
		tr["training.lowest"] = lowest
	}
	base := by[f["baseline"]].finals
	for _, name := range shown {
		a := by[name].finals
		if name == f["baseline"] || len(a) != len(rec.Seeds) || len(base) != len(rec.Seeds) {
			continue
		}
		gap := 100 * (mean(a) - mean(base)) / mean(base)
		lo, hi := math.Inf(1), math.Inf(-1)
		for j := range a {
			g := 100 * (a[j] - base[j]) / base[j]
			lo, hi = math.Min(lo, g), math.Max(hi, g)
		}
		spread := hi - lo
		verdict := compare.NoEffect.String()
		switch {
		case len(a) < compare.MinSeeds:
			verdict = compare.TooFewSeeds.String()
		case math.IsNaN(gap) || math.IsInf(gap, 0) || math.Abs(gap) < compare.MinEffectPct || math.Abs(gap) <= spread:
		case gap < 0:
			verdict = compare.Better.String()
		default:
			verdict = compare.Worse.String()
		}
		tr["training.gap."+name], tr["training.spread."+name], tr["training.verdict."+name] = gap, spread, verdict
	}

	// The maps: the inspected recipe's operand over its shown runs.
	k, err := strconv.Atoi(mustGet(t, s, "inspect"))
	require.NoError(t, err)
	if k <= len(shown) {
		op := mustGet(t, s, "operand")
		var under, elements, amax float64
		for _, r := range by[shown[k-1]].shown {
			for _, p := range r.Stats {
				for _, o := range p.Operands {
					if o.Operand == op {
						under += float64(o.Underflow)
						elements += float64(o.Elements)
						amax = math.Max(amax, float64(o.Amax))
					}
				}
			}
		}
		if elements > 0 {
			tr["training.underflow"], tr["training.amax"] = under/elements, amax
		}
	}
	return tr
}
