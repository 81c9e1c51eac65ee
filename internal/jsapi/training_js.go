//go:build js && wasm

package jsapi

import (
	"encoding/json"
	"fmt"
	"syscall/js"
	"time"

	"github.com/fp8lab/fp8lab/viz"
)

// trainingFuncs train a live training run for a page that trains in a Web
// Worker (site/static/js/training-worker.js runs them in the core module):
// one run at a time, the one trainingStart made last.
func trainingFuncs() map[string]fn {
	return map[string]fn{
		"trainingStart":   apiTrainingStart,
		"trainingAdvance": apiTrainingAdvance,
	}
}

// runner is the run trainingStart made.
var runner *viz.TrainingRunner

// maxAdvance bounds one trainingAdvance call's time budget.
const maxAdvance = 2000

// trainingStart(plan) -> key: builds the trainers of a plan (a JSON string
// of viz.TrainingPlan, as trainingPlan() returns it), replacing the run
// before.
func apiTrainingStart(args []js.Value) (any, error) {
	s, err := argString(args, 0, "plan")
	if err != nil {
		return nil, err
	}
	var p viz.TrainingPlan
	if err := json.Unmarshal([]byte(s), &p); err != nil {
		return nil, fmt.Errorf("argument 1 (plan): %v", err)
	}
	r, err := viz.NewTrainingRunner(p)
	if err != nil {
		return nil, err
	}
	runner = r
	return p.Key, nil
}

// trainingAdvance(ms) -> {key, update, done}: trains the run for about ms
// milliseconds (at least one step, unless it is done) and returns what it
// trained: update is a JSON string of viz.TrainingUpdate for
// feedTraining, done is set when every recipe has finished.
func apiTrainingAdvance(args []js.Value) (any, error) {
	ms, err := argInt(args, 0, "ms", 1, maxAdvance)
	if err != nil {
		return nil, err
	}
	if runner == nil {
		return nil, fmt.Errorf("no run: call trainingStart(plan) first")
	}
	u := runner.Advance(time.Duration(ms) * time.Millisecond)
	b, err := json.Marshal(u)
	if err != nil {
		return nil, err
	}
	return map[string]any{"key": u.Key, "update": string(b), "done": u.Done}, nil
}

// trainingLiveFuncs act on the live scene's run.
func trainingLiveFuncs(live Live) map[string]fn {
	return map[string]fn{
		// trainElsewhere(): the page trains the live scene's run (in a
		// worker); the scene no longer trains in its frames.
		"trainElsewhere": func(args []js.Value) (any, error) {
			return nil, live.TrainElsewhere()
		},
		// trainingPlan() -> the run the live scene wants trained, a JSON
		// string of viz.TrainingPlan, or null for a scene that does not
		// train.
		"trainingPlan": func(args []js.Value) (any, error) {
			r, ok := live.Scene().(viz.RemoteTrainer)
			if !ok {
				return nil, nil
			}
			b, err := json.Marshal(r.TrainingPlan())
			if err != nil {
				return nil, err
			}
			return string(b), nil
		},
		// feedTraining(update) -> true, or false for an update of a run
		// the scene no longer shows (its plan changed): records what the
		// worker trained (a JSON string of viz.TrainingUpdate).
		"feedTraining": func(args []js.Value) (any, error) {
			s, err := argString(args, 0, "update")
			if err != nil {
				return nil, err
			}
			var u viz.TrainingUpdate
			if err := json.Unmarshal([]byte(s), &u); err != nil {
				return nil, fmt.Errorf("argument 1 (update): %v", err)
			}
			if r, ok := live.Scene().(viz.RemoteTrainer); ok && r.TrainingPlan().Key != u.Key {
				return false, nil
			}
			if err := live.FeedTraining(u); err != nil {
				return nil, err
			}
			return true, nil
		},
	}
}
