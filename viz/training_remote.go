package viz

import (
	"errors"
	"fmt"
	"time"

	"github.com/fp8lab/fp8lab/train"
)

// RemoteTrainer is implemented by scenes whose live training a host runs
// elsewhere: a browser page trains in a Web Worker (site/static/js/
// training-worker.js), so that its own thread, which draws the scene and
// answers the page, never waits for a training step.
//
// After TrainElsewhere the scene trains nothing itself (Animate only
// reports what was fed). The host reads TrainingPlan after every change
// and trains what it says with a TrainingRunner of the same plan, feeding
// each TrainingUpdate back with FeedTraining; the losses are the ones the
// scene would have computed, bit for bit (the same code, seed and data).
type RemoteTrainer interface {
	TrainElsewhere()
	TrainingPlan() TrainingPlan
	FeedTraining(u TrainingUpdate) error
}

// TrainingPlan is the live run a scene wants trained.
type TrainingPlan struct {
	// Key names the run: it changes whenever the scene starts a new one
	// (another recipe, steps or seed, or Train unchecked after steps).
	Key     string   `json:"key"`
	Recipes []string `json:"recipes"`
	Steps   int      `json:"steps"`
	Seed    uint64   `json:"seed"`
	// Train says to train now; false: pause (or nothing to train: the
	// scene shows shipped runs).
	Train bool `json:"train"`
}

// TrainingUpdate is what a TrainingRunner trained since its last update:
// for each recipe, the records past From.
type TrainingUpdate struct {
	Key    string        `json:"key"`
	Curves []CurveUpdate `json:"curves"`
	// Done is set when every recipe has finished (or stopped).
	Done bool `json:"done"`
}

// CurveUpdate is one recipe's records past the steps it had.
type CurveUpdate struct {
	From  int                `json:"from"` // training steps recorded before this update
	Loss  []float64          `json:"loss"`
	Val   []train.EvalPoint  `json:"val"`
	Stats []train.StatsPoint `json:"stats"`
	// Err is why the run stopped (an Inf or a NaN), if it did, and
	// StoppedAt the step an Inf or a NaN stopped it at.
	Err       string `json:"err,omitempty"`
	StoppedAt int    `json:"stopped_at,omitempty"`
}

// TrainingRunner trains a plan for a host that trains elsewhere.
type TrainingRunner struct {
	plan TrainingPlan
	run  *trainingRun
	sent []sentMark
}

// sentMark is how much of a curve an update has carried.
type sentMark struct{ loss, val, stats int }

// NewTrainingRunner builds the trainers of a plan: the same models, data
// and validation losses at step 0 as the scene's.
func NewTrainingRunner(p TrainingPlan) (*TrainingRunner, error) {
	if len(p.Recipes) == 0 || len(p.Recipes) > 3 {
		return nil, fmt.Errorf("%w: a training plan of %d recipes (1 to 3)", ErrParam, len(p.Recipes))
	}
	if p.Steps < 1 || p.Steps > maxTrainingSteps {
		return nil, fmt.Errorf("%w: a training plan of %d steps (1 to %d)", ErrParam, p.Steps, maxTrainingSteps)
	}
	run, err := newTrainingRun(p.Recipes, p.Steps, p.Seed)
	if err != nil {
		return nil, err
	}
	r := &TrainingRunner{plan: p, run: run, sent: make([]sentMark, len(p.Recipes))}
	for i := range r.sent {
		r.sent[i].val = 1 // the step-0 validation loss: the scene has its own
	}
	return r, nil
}

// Key returns the plan's key ("" for a nil runner).
func (r *TrainingRunner) Key() string {
	if r == nil {
		return ""
	}
	return r.plan.Key
}

// Advance trains for about budget (at least one step, unless every recipe
// is done) and returns what it trained. A runner not made by
// NewTrainingRunner has nothing to train: its update is done and empty.
func (r *TrainingRunner) Advance(budget time.Duration) TrainingUpdate {
	if r == nil || r.run == nil {
		return TrainingUpdate{Done: true}
	}
	r.run.advance(budget)
	curves, _ := r.run.snapshot()
	u := TrainingUpdate{Key: r.plan.Key, Done: r.run.done()}
	for i, c := range curves {
		m := &r.sent[i]
		cu := CurveUpdate{From: m.loss, Loss: c.loss[m.loss:], Val: c.val[m.val:], Stats: c.stats[m.stats:]}
		if c.err != nil {
			cu.Err, cu.StoppedAt = c.err.Error(), c.stoppedAt
		}
		m.loss, m.val, m.stats = len(c.loss), len(c.val), len(c.stats)
		u.Curves = append(u.Curves, cu)
	}
	return u
}

// maxTrainingSteps is the Steps control's bound.
const maxTrainingSteps = 1000

// TrainElsewhere implements RemoteTrainer: from now on the scene trains
// nothing itself. A run that already trained steps here (Train was checked
// before the host was ready) goes on here to its end, undisturbed: the
// runs after it are trained elsewhere. A background goroutine
// (RunInBackground) is stopped.
func (s *trainingScene) TrainElsewhere() {
	if s.elsewhere {
		return
	}
	s.elsewhere, s.elsewhereGen = true, s.gen
	if s.run == nil {
		return
	}
	if s.run.current() > 0 {
		s.elsewhereGen = s.gen + 1
		return
	}
	s.run.stop()
}

// trainsHere reports whether the scene trains its live run itself.
func (s *trainingScene) trainsHere() bool { return !s.elsewhere || s.gen < s.elsewhereGen }

// TrainingPlan implements RemoteTrainer: the zero plan (no key) when there
// is nothing for the host to train (shipped runs, or a run the scene
// trains itself).
func (s *trainingScene) TrainingPlan() TrainingPlan {
	if s.reference() || s.ensure() != nil || s.trainsHere() {
		return TrainingPlan{}
	}
	return TrainingPlan{Key: fmt.Sprintf("%d:%s", s.gen, s.key), Recipes: s.recipes(), Steps: s.run.total,
		Seed: s.run.seed, Train: s.ps.bool("train")}
}

// errStalePlan is an update for a run the scene no longer shows.
var errStalePlan = errors.New("viz: training update for another run (its plan changed)")

// FeedTraining implements RemoteTrainer: it records an update of the run
// the scene shows (an update of another is refused with an error the host
// may ignore: the plan changed while it trained).
func (s *trainingScene) FeedTraining(u TrainingUpdate) error {
	if p := s.TrainingPlan(); p.Key == "" || u.Key != p.Key {
		return errStalePlan
	}
	return s.run.feed(u)
}

// feed appends an update's records to the curves, checking that each
// continues where its curve is.
func (r *trainingRun) feed(u TrainingUpdate) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(u.Curves) != len(r.curves) {
		return fmt.Errorf("%w: an update of %d curves for %d", ErrParam, len(u.Curves), len(r.curves))
	}
	for i, cu := range u.Curves {
		c := r.curves[i]
		if cu.From != len(c.loss) || len(c.loss)+len(cu.Loss) > r.total {
			return fmt.Errorf("%w: an update from step %d of %s, which has %d of %d", ErrParam, cu.From, c.recipe, len(c.loss), r.total)
		}
	}
	for i, cu := range u.Curves {
		c := &r.curves[i]
		c.loss = append(c.loss, cu.Loss...)
		c.val = append(c.val, cu.Val...)
		c.stats = append(c.stats, cu.Stats...)
		if cu.Err != "" && c.err == nil {
			c.err, c.stoppedAt = errors.New(cu.Err), cu.StoppedAt
		}
		r.version += int64(len(cu.Loss))
	}
	return nil
}
