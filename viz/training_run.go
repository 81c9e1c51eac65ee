package viz

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/fp8lab/fp8lab/train"
)

// trainStatsEvery is how many steps one column of the per-layer amax and
// underflow maps covers.
const trainStatsEvery = 10

// trainCurve is what one recipe's run has recorded so far.
type trainCurve struct {
	recipe string
	loss   []float64         // training loss of each step done
	val    []train.EvalPoint // validation loss at step 0, every EvalEvery steps and at the end
	stats  []train.StatsPoint
	err    error // the run stopped here (a NaN loss, say)
	// stoppedAt is the step an Inf or a NaN stopped the run at (of the
	// first seed it stopped, for shipped runs); 0 if none did.
	stoppedAt int
}

// trainingRun trains up to three recipes of the classroom configuration
// from the same weights and batches, one step of each in turn, so their
// curves grow together. Its records are guarded by mu: a host may train
// on its own goroutine (background) while the frame loop renders them.
type trainingRun struct {
	cfg   train.Config
	total int
	seed  uint64
	data  *train.Corpus

	trainers []*train.Trainer // touched only by the goroutine that trains

	mu      sync.Mutex
	curves  []trainCurve
	version int64 // grows with every step recorded

	bg     chan struct{} // closed to stop the background goroutine
	bgDone chan struct{} // closed when it has returned
}

// newTrainingRun builds the trainers and records their validation loss at
// step 0.
func newTrainingRun(recipes []string, total int, seed uint64) (*trainingRun, error) {
	data, err := train.ClassroomCorpus()
	if err != nil {
		return nil, err
	}
	r := &trainingRun{cfg: train.Classroom(), total: total, seed: seed, data: data}
	for _, name := range recipes {
		rc, err := train.RecipeByName(name)
		if err != nil {
			return nil, err
		}
		tr, err := train.NewTrainer(r.cfg, rc, seed, total, data)
		if err != nil {
			return nil, err
		}
		l, err := tr.ValLoss()
		if err != nil {
			return nil, err
		}
		r.trainers = append(r.trainers, tr)
		r.curves = append(r.curves, trainCurve{recipe: name, val: []train.EvalPoint{{Step: 0, Loss: l}}})
	}
	return r, nil
}

// done reports whether every recipe has finished (or failed).
func (r *trainingRun) done() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.next()
	return !ok
}

// next returns the recipe that is furthest behind and still running.
func (r *trainingRun) next() (int, bool) {
	best, ok := -1, false
	for i, c := range r.curves {
		if c.err != nil || len(c.loss) >= r.total {
			continue
		}
		if !ok || len(c.loss) < len(r.curves[best].loss) {
			best, ok = i, true
		}
	}
	return best, ok
}

// step trains the recipe furthest behind by one step and records it; it
// reports false when every recipe is done.
func (r *trainingRun) step() bool {
	r.mu.Lock()
	i, ok := r.next()
	r.mu.Unlock()
	if !ok {
		return false
	}
	tr := r.trainers[i]
	res, err := tr.Step()
	var val *train.EvalPoint
	var stats *train.StatsPoint
	if err == nil {
		n := res.Step
		if n%trainStatsEvery == 0 || n == r.total {
			stats = &train.StatsPoint{Step: n, Operands: tr.Stats()}
		}
		if n == r.total || r.cfg.EvalEvery > 0 && n%r.cfg.EvalEvery == 0 {
			var l float64
			if l, err = tr.ValLoss(); err == nil {
				val = &train.EvalPoint{Step: n, Loss: l}
			}
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	c := &r.curves[i]
	if err != nil {
		c.err = err
		var nf *train.NonFiniteError
		if errors.As(err, &nf) {
			c.stoppedAt = nf.Step
		}
	} else {
		c.loss = append(c.loss, res.Loss)
		if stats != nil {
			c.stats = append(c.stats, *stats)
		}
		if val != nil {
			c.val = append(c.val, *val)
		}
	}
	r.version++
	return true
}

// advance trains for about budget (at least one step) and reports whether
// it recorded anything: the frame loop calls it between frames, so the
// page stays responsive while the curves grow.
func (r *trainingRun) advance(budget time.Duration) bool {
	start, any := time.Now(), false
	for r.step() {
		any = true
		if time.Since(start) >= budget {
			break
		}
	}
	return any
}

// startBackground trains on a new goroutine until done or stopped,
// calling wake after every step.
func (r *trainingRun) startBackground(wake func()) {
	if r.bg != nil {
		return
	}
	r.bg, r.bgDone = make(chan struct{}), make(chan struct{})
	go func(stop, done chan struct{}) {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if !r.step() {
				wake()
				return
			}
			wake()
		}
	}(r.bg, r.bgDone)
}

// stop ends the background goroutine, if any, and waits for it (at most
// one step).
func (r *trainingRun) stop() {
	if r.bg == nil {
		return
	}
	close(r.bg)
	<-r.bgDone
	r.bg, r.bgDone = nil, nil
}

// current returns the version: how many steps have been recorded.
func (r *trainingRun) current() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.version
}

// snapshot copies the records, for drawing and facts without holding the
// lock.
func (r *trainingRun) snapshot() ([]trainCurve, int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]trainCurve, len(r.curves))
	for i, c := range r.curves {
		out[i] = trainCurve{recipe: c.recipe, err: c.err, stoppedAt: c.stoppedAt,
			loss:  append([]float64(nil), c.loss...),
			val:   append([]train.EvalPoint(nil), c.val...),
			stats: append([]train.StatsPoint(nil), c.stats...)}
	}
	return out, r.version
}

// layerStats reduces a stats point to one operand role per layer: the
// largest amax and the underflowed fraction over the products that
// quantize that role.
func layerStats(p train.StatsPoint, operand string) (layers []string, amax, under []float64) {
	idx := map[string]int{}
	var uf, el []float64
	for _, o := range p.Operands {
		if o.Operand != operand {
			continue
		}
		i, ok := idx[o.Layer]
		if !ok {
			i = len(layers)
			idx[o.Layer] = i
			layers = append(layers, o.Layer)
			amax, uf, el = append(amax, 0), append(uf, 0), append(el, 0)
		}
		amax[i] = max(amax[i], float64(o.Amax))
		uf[i] += float64(o.Underflow)
		el[i] += float64(o.Elements)
	}
	under = make([]float64, len(layers))
	for i := range layers {
		if el[i] > 0 {
			under[i] = uf[i] / el[i]
		}
	}
	return layers, amax, under
}

// describeConfig says what a configuration trains, for explanations.
func describeConfig(c train.Config) string {
	return fmt.Sprintf("%s of width %d, %d heads, %d bytes of context, %d sequences a step",
		plural(c.Layers, "block", "blocks"), c.Width, c.Heads, c.Context, c.Batch)
}
