package viz

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fp8lab/fp8lab/train"
	"github.com/fp8lab/fp8lab/train/compare"
	"github.com/fp8lab/fp8lab/train/records"
)

// The Runs control: train the classroom configuration here, or show the
// shipped runs of the reference configuration (train/records).
const (
	runsLive      = "live"
	runsReference = "reference"
)

// seedRange is the lowest and highest validation loss over the seeds at
// one evaluated step.
type seedRange struct{ lo, hi float64 }

// refView is the shipped reference runs of the chosen recipes: each
// recipe's curves averaged over the seeds that finished, the range over
// the seeds at every evaluated step, and the statistics of every seed.
type refView struct {
	rec    *records.Record
	sum    *compare.Summary // against compare.DefaultBaseline
	curves []trainCurve     // loss and val: means over the seeds; stats: every seed's operands at each point
	ranges [][]seedRange    // per curve, per val point
	finals [][]float64      // per curve, the final validation loss of each seed that finished
}

// referenceRecipes returns the recipes of the shipped reference runs.
func referenceRecipes() ([]string, error) {
	rec, err := records.Reference()
	if err != nil {
		return nil, err
	}
	return rec.Recipes, nil
}

// newRefView gathers the shipped runs of the named recipes; a recipe the
// record does not hold is a parameter error.
func newRefView(names []string) (*refView, error) {
	rec, err := records.Reference()
	if err != nil {
		return nil, err
	}
	sum, err := compare.Summarize(&rec.Set, "")
	if err != nil {
		return nil, err
	}
	v := &refView{rec: rec, sum: sum}
	for _, name := range names {
		i := slices.Index(rec.Recipes, name)
		if i < 0 {
			return nil, fmt.Errorf("%w: the shipped reference runs hold no %s (they hold %s)", ErrParam, name, strings.Join(rec.Recipes, ", "))
		}
		var runs []*train.Result
		for j := range rec.Seeds {
			if r := rec.Run(i, j); r != nil && len(r.TrainLoss) == rec.Steps && len(r.Val) > 0 {
				runs = append(runs, r)
			}
		}
		if len(runs) == 0 {
			return nil, fmt.Errorf("%w: no run of %s finished in the shipped reference runs", ErrParam, name)
		}
		c, ranges := meanCurve(name, runs)
		v.curves = append(v.curves, c)
		v.ranges = append(v.ranges, ranges)
		var finals []float64
		for _, r := range runs {
			finals = append(finals, r.FinalVal())
		}
		v.finals = append(v.finals, finals)
	}
	return v, nil
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
		cfg: v.rec.Config, every: v.rec.Config.EvalEvery, ranges: v.ranges, finals: v.finals, inspect: -1}
	if inspect < len(v.curves) {
		st.inspect = inspect
	}
	return st
}

// seedText lists the record's seeds.
func (v *refView) seedText() string {
	s := make([]string, len(v.rec.Seeds))
	for i, x := range v.rec.Seeds {
		s[i] = fmt.Sprint(x)
	}
	return joinAnd(s)
}
