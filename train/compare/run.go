// Package compare runs the training lab's experiments: one recipe that can
// be stopped midway and reports its progress (Run), and many recipes over
// many seeds from the same initial weights and data order (Compare), run
// on several cores with results bit-identical to a serial run. Summarize
// turns the runs into the comparison table (final validation loss and
// perplexity with their spread over seeds, the gap to a baseline, the first
// step at which each recipe reaches the baseline's final loss, overflow and
// underflow totals); Judge says whether a measured difference is larger than
// that spread.
//
// Like package train it imports no rendering package: cmd/fp8lab draws the
// curves, docs/training writes the report.
package compare

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/fp8lab/fp8lab/train"
)

// MaxSteps bounds the steps of one run: a million steps of the smallest
// configuration would take hours, of the reference one weeks.
const MaxSteps = 1_000_000

// MaxSeeds bounds the seeds of a comparison.
const MaxSeeds = 100

// Step is what a progress callback sees after each training step.
type Step struct {
	Recipe string
	Seed   uint64
	train.StepResult
	Steps int // planned steps of the run
}

// Spike is an activation spike injected into a run (train.Trainer.SetSpike):
// every block's GELU output is multiplied by Factor during Len steps from
// step Step (1-based; Len 0 is one step, as records written before Len
// existed mean). The zero value injects none.
type Spike struct {
	Step   int     `json:"step"`
	Factor float32 `json:"factor"`
	Len    int     `json:"len,omitempty"`
}

// Steps returns the number of steps the spike lasts (Len, at least 1).
func (s Spike) Steps() int { return max(s.Len, 1) }

// Check reports a spike outside a run of steps steps (its last step
// included), or with a factor that is not a positive finite number.
func (s Spike) Check(steps int) error {
	if s == (Spike{}) {
		return nil
	}
	f := float64(s.Factor)
	if s.Step < 1 || s.Len < 0 || s.Len > steps || s.Step+s.Steps()-1 > steps || !(f > 0) || math.IsInf(f, 0) {
		return fmt.Errorf("compare: spike at step %d by %g for %d steps: want steps within 1..%d and a positive finite factor",
			s.Step, f, s.Steps(), steps)
	}
	return nil
}

// String writes the spike as --spike takes it: STEP:FACTOR, and :LEN when
// it lasts more than one step.
func (s Spike) String() string {
	if s.Steps() > 1 {
		return fmt.Sprintf("%d:%g:%d", s.Step, s.Factor, s.Len)
	}
	return fmt.Sprintf("%d:%g", s.Step, s.Factor)
}

// Run trains cfg under r for steps steps from seed over data, exactly as
// train.Run does (the same losses, bit for bit, and the same record) with
// the spike (if any), but calls onStep (if not nil) after every step and stops early when ctx is
// done: it then takes a last validation loss at the step it stopped at and
// returns the run so far with stopped set. Result.Steps is the number of
// steps done.
func Run(ctx context.Context, cfg train.Config, r *train.Recipe, seed uint64, steps int, data *train.Corpus, spike Spike, onStep func(Step)) (res *train.Result, stopped bool, err error) {
	return RunCheckpoint(ctx, cfg, r, seed, steps, data, spike, onStep, nil)
}

// RunCheckpoint is Run that, when the run ends without error (all its
// steps done, or stopped by ctx), hands the trainer to save (if not nil),
// to write a checkpoint (train.Trainer.SaveCheckpoint) of the weights it
// ended with; save's error is returned with the run.
func RunCheckpoint(ctx context.Context, cfg train.Config, r *train.Recipe, seed uint64, steps int, data *train.Corpus, spike Spike, onStep func(Step), save func(*train.Trainer) error) (res *train.Result, stopped bool, err error) {
	if steps > MaxSteps {
		return nil, false, fmt.Errorf("compare: %d steps is more than the bound of %d", steps, MaxSteps)
	}
	if err := spike.Check(steps); err != nil {
		return nil, false, err
	}
	start := time.Now()
	tr, err := train.NewTrainer(cfg, r, seed, steps, data)
	if err != nil {
		return nil, false, err
	}
	if spike != (Spike{}) {
		tr.SetSpike(spike.Step, spike.Steps(), spike.Factor)
	}
	res = &train.Result{Config: cfg, Recipe: *r, Seed: seed, Steps: steps, Corpus: data.Source}
	eval := func() error {
		l, err := tr.ValLoss()
		if err != nil {
			return err
		}
		res.Val = append(res.Val, train.EvalPoint{Step: tr.Steps(), Loss: l})
		if tr.Steps() > 0 {
			res.Stats = append(res.Stats, train.StatsPoint{Step: tr.Steps(), Operands: tr.Stats()})
		}
		return nil
	}
	if err := eval(); err != nil {
		return nil, false, err
	}
	for s := 1; s <= steps; s++ {
		if ctx.Err() != nil {
			stopped = true
			res.Steps = s - 1
			if s > 1 && res.Val[len(res.Val)-1].Step != s-1 {
				if err := eval(); err != nil {
					return res, true, err
				}
			}
			break
		}
		st, err := tr.Step()
		if err != nil {
			res.NoteDiverged(err, tr)
			return res, false, err
		}
		res.TrainLoss = append(res.TrainLoss, st.Loss)
		if s == steps || cfg.EvalEvery > 0 && s%cfg.EvalEvery == 0 {
			if err := eval(); err != nil {
				return res, false, err
			}
		}
		if onStep != nil {
			onStep(Step{Recipe: r.Name, Seed: seed, StepResult: st, Steps: steps})
		}
	}
	res.Seconds = time.Since(start).Seconds()
	if save != nil {
		if err := save(tr); err != nil {
			return res, stopped, err
		}
	}
	return res, stopped, nil
}
