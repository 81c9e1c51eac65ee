package viz

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/fp8lab/fp8lab/train"
	"github.com/fp8lab/fp8lab/train/compare"
	"github.com/fp8lab/fp8lab/train/lessons"
)

// Backgrounder is implemented by scenes that do long work (live
// training). Without a call to RunInBackground they do it in Animate, in
// slices of bounded time, so a single-threaded host (the browser) stays
// responsive; after RunInBackground they do it on their own goroutine and
// call wake (from that goroutine) after every change, and Animate only
// reports whether something changed since its last call. A desktop host,
// which has threads to spare, calls it once after making the scene.
type Backgrounder interface {
	RunInBackground(wake func())
}

// Versioned is implemented by scenes whose picture changes without a
// parameter changing (a training run's curves grow): hosts that redraw
// only when the parameters change redraw when Version changes too.
type Versioned interface {
	Version() int64
}

// trainingSlice is how long one Animate call trains at least (then it
// finishes the step it is in): the frame loop draws between slices, so
// clicks and the page's controls answer within about a slice plus one
// frame. A slice lasts three times the rest of the frame (render, upload,
// the page's update: the time since the last slice ended) when that is
// longer, so that three quarters of a busy page's time trains: slices of
// 1.5 Render times gave one step a frame at 1024×768 in Chromium, the
// upload and the page's update costing more than the Render itself.
const trainingSlice = 60 * time.Millisecond

// maxTrainingSlice bounds the slice whatever a render cost (the first
// render of a page, still compiling, can take seconds).
const maxTrainingSlice = 500 * time.Millisecond

// noRecipe is the choice that leaves a recipe slot empty.
const noRecipe = "none"

// trainingScene trains the classroom GPT live under up to three recipes,
// or shows shipped runs (the reference configuration's, or a lesson's),
// and draws their loss curves, each recipe's gap to the baseline zoomed,
// and one recipe's per-layer amax and underflow over the steps.
type trainingScene struct {
	sceneBase
	key  string
	run  *trainingRun
	ref  *refView // the shipped runs shown, while Runs is reference or lessons
	err  error
	wake func() // set by RunInBackground
	seen int64  // the version Animate last reported
	// sliced is when the last training slice ended (for the next one's
	// length).
	sliced time.Time
	// elsewhere is set by TrainElsewhere: a host trains the live run
	// (a browser's Web Worker) and feeds its steps in (FeedTraining).
	elsewhere bool
	// gen counts the live runs made, for TrainingPlan's key; the runs
	// from elsewhereGen on are trained elsewhere.
	gen, elsewhereGen int
}

// trainingOperands names the operand roles the maps can show.
var trainingOperands = []string{"grad_output", "input", "weight"}

func newTraining() Scene {
	names := train.RecipeNames()
	withNone := append([]string{noRecipe}, names...)
	return newScene(&trainingScene{sceneBase: sceneBase{name: "training", title: "Training under FP8 recipes", ps: newParamSet(
		// Lesson comes first: choosing one shows its runs (Runs: lessons),
		// and a Runs that follows it, from a link or Reset, still decides.
		Param{Name: "lesson", Label: "Lesson", Kind: ParamChoice, Options: lessons.Names(), Default: lessons.Names()[0],
			Help: "which lesson of the talk to show; choosing one sets Runs to lessons (its runs bring their own recipes: Recipe 1–3 are for the other runs)"},
		Param{Name: "runs", Label: "Runs", Kind: ParamChoice, Options: []string{runsLive, runsReference, runsLessons}, Default: runsLive,
			Help: "live: train the classroom configuration here; reference: the shipped runs of the bigger configuration, " +
				"every recipe over several seeds (go tool task training-doc CONFIG=reference made them); lessons: the " +
				"shipped runs of one lesson of the talk (go tool task training-lessons made them)"},
		Param{Name: "recipe1", Label: "Recipe 1", Kind: ParamChoice, Options: names, Default: "bf16",
			Help: "the first recipe to train or show (train.RecipeByName)"},
		Param{Name: "recipe2", Label: "Recipe 2", Kind: ParamChoice, Options: withNone, Default: "tensorwise",
			Help: "a second recipe, from the same weights and batches (none: leave out)"},
		Param{Name: "recipe3", Label: "Recipe 3", Kind: ParamChoice, Options: withNone, Default: "e5m2-grads",
			Help: "a third recipe (deepseek and fast-accum-bwd emulate fast accumulation product by product, so they train slower)"},
		Param{Name: "steps", Label: "Steps", Kind: ParamInt, Min: 25, Max: 1000, Step: 25, Default: "300",
			Help: "training steps of each recipe (the learning rate decays to the last one; live runs)"},
		Param{Name: "seed", Label: "Seed", Kind: ParamInt, Min: 1, Max: 1 << 20, Step: 1, Default: "1",
			Help: "seed of the initial weights and of the batch order (live runs; the reference runs show their seeds' mean)"},
		Param{Name: "train", Label: "Train (uncheck: stop and reset)", Kind: ParamBool, Default: "false",
			Help: "train the recipes live, one step of each in turn; unchecking stops and clears the curves (live runs)"},
		Param{Name: "inspect", Label: "Maps show recipe", Kind: ParamChoice, Options: []string{"1", "2", "3", "4", "5"}, Default: "2",
			Help: "whose per-layer amax and underflow the maps below the curves show, in the order of the legend (a lesson runs up to five recipes)"},
		Param{Name: "operand", Label: "Maps show operand", Kind: ParamChoice, Options: trainingOperands, Default: "grad_output",
			Help: "grad_output: the gradient dY; input: the activations X; weight: the weights W"},
	)}})
}

// Set implements Scene. Changing a recipe, the steps or the seed starts
// over; unchecking train stops and clears the run.
func (s *trainingScene) Set(name, value string) error {
	before := s.ps.str("lesson")
	if err := s.ps.setAndApply(name, value, s.apply); err != nil {
		return err
	}
	if name == "lesson" && s.ps.str("lesson") != before && !s.lesson() {
		// A lesson chosen is a lesson to see.
		return s.ps.setAndApply("runs", runsLessons, s.apply)
	}
	return nil
}

// Click implements Scene: the picture has no clickable parts.
func (s *trainingScene) Click(x, y, w, h int) bool { return false }

// recipes returns the chosen recipes, without empty slots and repeats.
func (s *trainingScene) recipes() []string {
	var out []string
	for _, k := range []string{"recipe1", "recipe2", "recipe3"} {
		r := s.ps.str(k)
		if r != noRecipe && !strings.Contains(" "+strings.Join(out, " ")+" ", " "+r+" ") {
			out = append(out, r)
		}
	}
	return out
}

// reference reports whether the scene shows shipped runs (the reference
// comparison or a lesson), not a live run.
func (s *trainingScene) reference() bool { return s.ps.str("runs") != runsLive }

// lesson reports whether the scene shows a lesson's runs.
func (s *trainingScene) lesson() bool { return s.ps.str("runs") == runsLessons }

// apply brings the run in line with the parameters: a new run when what it
// trains changed or train was unchecked, background training started when
// train is checked on a host that asked for it. Showing the reference runs
// pauses a live run (in the background or not) and keeps it, so that it
// goes on where it stopped when Runs is live again.
func (s *trainingScene) apply() error {
	if s.reference() {
		if s.run != nil {
			s.run.stop()
		}
		var ref *refView
		var err error
		if s.lesson() {
			ref, err = newLessonView(s.ps.str("lesson"))
		} else {
			ref, err = newReferenceView(s.recipes())
		}
		if err != nil {
			return err
		}
		s.ref, s.err = ref, nil
		return nil
	}
	s.ref = nil
	// Checking Train keeps the run built at step 0 (its validation losses
	// are computed already, so the first step follows the click at once);
	// unchecking it after steps were trained starts over.
	key := s.ps.key("recipe1", "recipe2", "recipe3", "steps", "seed")
	if key != s.key || s.run == nil || !s.ps.bool("train") && s.run.current() > 0 {
		if s.run != nil {
			s.run.stop()
		}
		s.run, s.err = nil, nil
		run, err := newTrainingRun(s.recipes(), s.ps.int("steps"), uint64(s.ps.int("seed")))
		if err != nil {
			return err
		}
		s.run, s.key, s.seen = run, key, 0
		s.gen++
	}
	if s.wake != nil && s.ps.bool("train") && s.trainsHere() {
		s.run.startBackground(s.wake)
	}
	return nil
}

// ensure builds the run (or the reference view) for the current
// parameters if none is there.
func (s *trainingScene) ensure() error {
	if (s.reference() && s.ref == nil || !s.reference() && s.run == nil) && s.err == nil {
		s.err = s.apply()
	}
	return s.err
}

// RunInBackground implements Backgrounder.
func (s *trainingScene) RunInBackground(wake func()) {
	s.wake = wake
	if s.ensure() == nil && !s.reference() && s.ps.bool("train") {
		s.run.startBackground(wake)
	}
}

// Animate implements Animator: while train is checked it trains for one
// slice (or, in the background, reports new steps).
func (s *trainingScene) Animate() bool {
	if s.reference() || !s.ps.bool("train") || s.ensure() != nil {
		return false
	}
	if s.wake != nil || !s.trainsHere() {
		v := s.run.current()
		changed := v != s.seen
		s.seen = v
		return changed
	}
	budget := trainingSlice
	if !s.sliced.IsZero() {
		budget = min(max(trainingSlice, 3*time.Since(s.sliced)), maxTrainingSlice)
	}
	more := s.run.advance(budget)
	s.sliced = time.Now()
	if !more {
		s.sliced = time.Time{} // the next run starts afresh
	}
	return more
}

// Version implements Versioned: it grows with every step trained (the
// reference runs do not change: 0).
func (s *trainingScene) Version() int64 {
	if s.ensure() != nil {
		return -1
	}
	if s.reference() {
		return 0
	}
	return s.run.current()
}

// advanceSteps trains until every recipe has done n steps (or finished):
// for tests and pictures of a fixed state.
func (s *trainingScene) advanceSteps(n int) error {
	if err := s.ensure(); err != nil {
		return err
	}
	for {
		curves, _ := s.run.snapshot()
		least := math.MaxInt
		for _, c := range curves {
			if c.err == nil {
				least = min(least, len(c.loss))
			}
		}
		if least >= n || !s.run.step() {
			return nil
		}
	}
}

// trainingState sums up a run for facts and the picture.
type trainingState struct {
	curves  []trainCurve
	done    int    // steps every recipe has done
	total   int    // steps each recipe trains
	status  string // not started, training, done; shipped for the reference runs
	inspect int    // index of the inspected curve, -1 for none
	cfg     train.Config
	every   int // steps a column of the maps covers
	// ranges holds, for shipped runs, each curve's lowest and highest
	// validation loss over the seeds at each evaluated step, and finals
	// its final validation loss seed by seed.
	ranges [][]seedRange
	finals [][]float64
	// baseline names the curve the others' gaps are taken against, and
	// gaps are those gaps (none for the baseline itself).
	baseline string
	gaps     []gapCurve
}

func (s *trainingScene) state() (trainingState, error) {
	if err := s.ensure(); err != nil {
		return trainingState{}, err
	}
	if s.reference() {
		return s.ref.state(s.ps.int("inspect") - 1), nil
	}
	curves, _ := s.run.snapshot()
	st := trainingState{curves: curves, done: math.MaxInt, total: s.run.total, inspect: -1, cfg: s.run.cfg, every: trainStatsEvery}
	finished := true
	for _, c := range curves {
		st.done = min(st.done, len(c.loss))
		if c.err == nil && len(c.loss) < s.run.total {
			finished = false
		}
	}
	switch {
	case finished:
		st.status = "done"
	case st.done == 0 && !s.ps.bool("train"):
		st.status = "not started"
	default:
		st.status = "training"
	}
	if i := s.ps.int("inspect") - 1; i < len(curves) {
		st.inspect = i
	}
	names := make([]string, len(curves))
	for i, c := range curves {
		names[i] = c.recipe
	}
	st.baseline = compare.DefaultBaseline(names)
	st.gaps = liveGaps(curves, slices.Index(names, st.baseline))
	return st, nil
}
