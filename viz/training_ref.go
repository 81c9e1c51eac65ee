package viz

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fp8lab/fp8lab/train"
	"github.com/fp8lab/fp8lab/train/compare"
	"github.com/fp8lab/fp8lab/train/lessons"
	"github.com/fp8lab/fp8lab/train/records"
)

// The Runs control: train the classroom configuration here, show the
// shipped runs of the reference configuration, or the shipped runs of one
// lesson of the talk (train/records).
const (
	runsLive      = "live"
	runsReference = "reference"
	runsLessons   = "lessons"
)

// seedRange is the lowest and highest value over the seeds at one
// evaluated step (a validation loss, or a gap to the baseline in percent).
type seedRange struct{ lo, hi float64 }

// refView is shipped runs of some recipes (the reference comparison, or a
// lesson's): each recipe's curves averaged over the seeds that finished,
// the range over the seeds at every evaluated step, and the statistics of
// every seed.
type refView struct {
	rec    *records.Record
	sum    *compare.Summary // against baseline
	lesson *lessons.Lesson  // the lesson shown, nil for the reference runs
	curves []trainCurve     // loss and val: means over the seeds; stats: every seed's operands at each point
	ranges [][]seedRange    // per curve, per val point
	finals [][]float64      // per curve, the final validation loss of each seed that finished
	// runs are each curve's runs that finished, seed by seed (the seeds
	// of one curve pair with those of another when both finished all).
	runs [][]*train.Result
}

// newReferenceView gathers the shipped reference runs of the named
// recipes; a recipe the record does not hold is a parameter error.
func newReferenceView(names []string) (*refView, error) {
	rec, err := records.Reference()
	if err != nil {
		return nil, err
	}
	return newRefView(rec, names, "", nil)
}

// newLessonView gathers the shipped runs of a lesson: every recipe it ran.
func newLessonView(name string) (*refView, error) {
	l, err := lessons.ByName(name)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrParam, err)
	}
	rec, err := records.Lesson(name)
	if err != nil {
		return nil, err
	}
	return newRefView(rec, rec.Recipes, l.Baseline, &l)
}

// newRefView gathers the runs of the named recipes of rec, judged against
// baseline (compare.DefaultBaseline when empty). A recipe with no finished
// run (an Inf or a NaN stopped every seed) shows what its first run did
// before it stopped.
func newRefView(rec *records.Record, names []string, baseline string, lesson *lessons.Lesson) (*refView, error) {
	sum, err := compare.Summarize(&rec.Set, baseline)
	if err != nil {
		return nil, err
	}
	v := &refView{rec: rec, sum: sum, lesson: lesson}
	for _, name := range names {
		i := slices.Index(rec.Recipes, name)
		if i < 0 {
			return nil, fmt.Errorf("%w: the shipped runs hold no %s (they hold %s)", ErrParam, name, strings.Join(rec.Recipes, ", "))
		}
		var runs []*train.Result
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
				runs = append(runs, r)
			}
		}
		if len(runs) == 0 && stopped == nil {
			return nil, fmt.Errorf("%w: no run of %s finished in the shipped runs", ErrParam, name)
		}
		var c trainCurve
		var ranges []seedRange
		var finals []float64
		if len(runs) > 0 {
			c, ranges = meanCurve(name, runs)
			for _, r := range runs {
				finals = append(finals, r.FinalVal())
			}
		} else {
			c, ranges = meanCurve(name, []*train.Result{stopped})
		}
		if stopped != nil {
			c.err = stoppedError(stopped.Diverged, len(rec.Seeds)-len(runs), len(rec.Seeds))
			c.stoppedAt = stopped.Diverged.Step
		}
		v.curves = append(v.curves, c)
		v.ranges = append(v.ranges, ranges)
		v.finals = append(v.finals, finals)
		v.runs = append(v.runs, runs)
	}
	return v, nil
}

// stoppedError says that an Inf or a NaN stopped some seeds of a recipe.
func stoppedError(first *train.NonFiniteError, n, seeds int) error {
	return fmt.Errorf("an Inf or a NaN stopped %d of %d seeds, the first at step %d in %s %s", n, seeds, first.Step, first.Layer, first.Product)
}

// meanCurve averages runs of one recipe (the same steps and evaluation
// points) seed by seed: the training loss of each step and the validation
// loss of each point, with the lowest and highest seed at each point. The
// statistics of all seeds are pooled point by point, so that the maps and
// the totals sum the underflows and take the largest amax over the seeds.
func meanCurve(name string, runs []*train.Result) (trainCurve, []seedRange) {
	c := trainCurve{recipe: name, loss: make([]float64, len(runs[0].TrainLoss))}
	for _, r := range runs {
		for k, l := range r.TrainLoss {
			c.loss[k] += l / float64(len(runs))
		}
	}
	var ranges []seedRange
	for k, p := range runs[0].Val {
		sr := seedRange{p.Loss, p.Loss}
		var sum float64
		for _, r := range runs {
			l := r.Val[k].Loss
			sum += l
			sr.lo, sr.hi = min(sr.lo, l), max(sr.hi, l)
		}
		c.val = append(c.val, train.EvalPoint{Step: p.Step, Loss: sum / float64(len(runs))})
		ranges = append(ranges, sr)
	}
	for k, p := range runs[0].Stats {
		sp := train.StatsPoint{Step: p.Step}
		for _, r := range runs {
			sp.Operands = append(sp.Operands, r.Stats[k].Operands...)
		}
		c.stats = append(c.stats, sp)
	}
	return c, ranges
}

// state is the view as the picture and the facts see it.
func (v *refView) state(inspect int) trainingState {
	st := trainingState{curves: v.curves, done: v.rec.Steps, total: v.rec.Steps, status: "shipped",
		cfg: v.rec.Config, every: v.rec.Config.EvalEvery, ranges: v.ranges, finals: v.finals, inspect: -1,
		baseline: v.sum.Baseline}
	if inspect < len(v.curves) {
		st.inspect = inspect
	}
	st.gaps = v.gaps()
	return st
}

// gaps returns each curve's validation loss against the baseline's, in
// percent, at every evaluated step: the mean of the per-seed gaps and
// their range, seed paired with seed; nil for the baseline and for a
// curve whose seeds do not all pair with the baseline's.
func (v *refView) gaps() []gapCurve {
	b := slices.IndexFunc(v.curves, func(c trainCurve) bool { return c.recipe == v.sum.Baseline })
	if b < 0 {
		return nil
	}
	out := make([]gapCurve, len(v.curves))
	for i := range v.curves {
		if i == b || len(v.runs[i]) != len(v.rec.Seeds) || len(v.runs[b]) != len(v.rec.Seeds) {
			continue
		}
		out[i] = pairedGaps(v.runs[i], v.runs[b])
	}
	return out
}

// seedText lists the record's seeds.
func (v *refView) seedText() string {
	s := make([]string, len(v.rec.Seeds))
	for i, x := range v.rec.Seeds {
		s[i] = fmt.Sprint(x)
	}
	return joinAnd(s)
}
