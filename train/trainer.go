package train

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Trainer trains one model under one recipe, one step at a time (a browser
// page runs steps between frames; Run runs them all).
type Trainer struct {
	cfg    Config
	recipe *Recipe
	seed   uint64
	total  int // planned steps, for the learning-rate schedule
	data   *Corpus
	model  *gpt
	opt    *adamW
	step   int // steps done
	// spikeStep, spikeLen and spikeFactor inject an activation spike
	// (SetSpike).
	spikeStep, spikeLen int
	spikeFactor         float32
}

// NewTrainer builds the model of cfg with weights drawn from seed (the same
// for every recipe) for a run of total steps over data.
func NewTrainer(cfg Config, r *Recipe, seed uint64, total int, data *Corpus) (*Trainer, error) {
	if r == nil || data == nil {
		return nil, fmt.Errorf("train: NewTrainer needs a recipe and a corpus")
	}
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if h := r.WeightGrad.Hadamard; h > 0 && cfg.TokensPerStep()%h != 0 {
		return nil, fmt.Errorf("train: recipe %q rotates the weight gradient in blocks of %d, which do not divide the %d tokens of a step", r.Name, h, cfg.TokensPerStep())
	}
	if total < 1 {
		return nil, fmt.Errorf("train: %d steps", total)
	}
	if err := data.check(cfg.Context); err != nil {
		return nil, err
	}
	lin, err := newLinearEngine(cfg, r, seed)
	if err != nil {
		return nil, err
	}
	m := newModel(cfg, lin, seed)
	opt := newAdamW(cfg.Optim, m.specs, r.MasterWeights, seed)
	if r.MasterWeights == "bf16-rtn" || r.MasterWeights == "bf16-sr" {
		roundBF16(m.params, nil) // the initial weights are stored in BF16 too
	}
	return &Trainer{cfg: cfg, recipe: r, seed: seed, total: total, data: data, model: m, opt: opt}, nil
}

// StepResult is what one training step reports.
type StepResult struct {
	Step     int     `json:"step"` // 1-based: steps done after this one
	Loss     float64 `json:"loss"` // training loss of the step's batch, before the update
	LR       float64 `json:"lr"`
	GradNorm float64 `json:"grad_norm"` // before clipping
}

// SetSpike makes steps step..step+length-1 (1-based; a length below 1 is
// one step) an activation spike: every block's GELU output, the input of
// its MLP projection, is multiplied by factor during those steps' forward
// passes (and the backward passes see the same model), as a burst of
// outlier activations would. Delayed scaling meets it with a scale from
// earlier steps; current scaling with its own amax. Step 0 or factor 1
// means no spike.
func (t *Trainer) SetSpike(step, length int, factor float32) {
	if t == nil {
		return
	}
	t.spikeStep, t.spikeLen, t.spikeFactor = step, max(length, 1), factor
}

// Step trains on the next batch.
func (t *Trainer) Step() (StepResult, error) {
	if err := t.ready(); err != nil {
		return StepResult{}, err
	}
	m := t.model
	m.lin.step, m.lin.eval = t.step, false
	m.spike = 0
	if n := t.step + 1; t.spikeStep > 0 && n >= t.spikeStep && n < t.spikeStep+t.spikeLen {
		m.spike = t.spikeFactor
	}
	B, T := t.cfg.Batch, t.cfg.Context
	t.data.trainBatch(m.tokens, m.targets, B, T, t.seed, t.step)
	loss, err := m.forward(m.tokens, m.targets)
	if err != nil {
		return StepResult{}, t.stepError(err)
	}
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		return StepResult{}, t.stepError(&NonFiniteError{What: "loss", Loss: fmt.Sprint(loss)})
	}
	if err := m.backward(); err != nil {
		return StepResult{}, t.stepError(err)
	}
	if err := m.gradientError(); err != nil {
		return StepResult{}, t.stepError(err)
	}
	lr := t.cfg.Optim.LRAt(t.step, t.total)
	t.step++
	norm := t.opt.update(m.params, m.grads, lr, t.step)
	return StepResult{Step: t.step, Loss: loss, LR: lr, GradNorm: norm}, nil
}

// stepError names the step an error of the step being trained happened
// in: a NonFiniteError gets it as its Step, others a "step N:" prefix.
func (t *Trainer) stepError(err error) error {
	var nf *NonFiniteError
	if errors.As(err, &nf) {
		nf.Step = t.step + 1
		return nf
	}
	return fmt.Errorf("train: step %d: %w", t.step+1, err)
}

// ValLoss returns the mean loss over the configuration's fixed validation
// batches. It quantizes as training does but changes no state: delayed
// scalers use their current scale without recording an amax, and the
// operand statistics do not count it.
func (t *Trainer) ValLoss() (float64, error) {
	if err := t.ready(); err != nil {
		return 0, err
	}
	m := t.model
	m.lin.eval, m.spike = true, 0
	defer func() { m.lin.eval = false }()
	n := max(t.cfg.EvalBatches, 1)
	var sum float64
	for k := range n {
		t.data.valBatch(m.tokens, m.targets, t.cfg.Batch, t.cfg.Context, k, n)
		l, err := m.forward(m.tokens, m.targets)
		if err != nil {
			var nf *NonFiniteError
			if errors.As(err, &nf) {
				nf.Step, nf.Validation = t.step, true
				return 0, nf
			}
			return 0, fmt.Errorf("train: validation: %w", err)
		}
		if math.IsNaN(l) || math.IsInf(l, 0) {
			return 0, &NonFiniteError{What: "loss", Loss: fmt.Sprint(l), Step: t.step, Validation: true}
		}
		sum += l
	}
	return sum / float64(n), nil
}

// Stats returns the per-layer operand statistics gathered since the last
// call, and starts counting afresh.
func (t *Trainer) Stats() []OperandStats {
	if t.ready() != nil {
		return nil
	}
	return t.model.lin.snapshot()
}

// Steps returns the number of steps done.
func (t *Trainer) Steps() int {
	if t == nil {
		return 0
	}
	return t.step
}

// ready reports a Trainer not made by NewTrainer (nil, or the zero value),
// on which Step, ValLoss and the checkpoint methods return this error.
func (t *Trainer) ready() error {
	if t == nil || t.model == nil || t.data == nil {
		return errors.New("train: a Trainer must come from NewTrainer")
	}
	return nil
}

// EvalPoint is a validation loss after Step training steps.
type EvalPoint struct {
	Step int     `json:"step"`
	Loss float64 `json:"loss"`
}

// StatsPoint holds the operand statistics of the steps up to Step since
// the previous point.
type StatsPoint struct {
	Step     int            `json:"step"`
	Operands []OperandStats `json:"operands"`
}

// Result is the record of one run.
type Result struct {
	Config    Config       `json:"config"`
	Recipe    Recipe       `json:"recipe"`
	Seed      uint64       `json:"seed"`
	Steps     int          `json:"steps"`
	Corpus    string       `json:"corpus"`
	TrainLoss []float64    `json:"train_loss"` // one per step
	Val       []EvalPoint  `json:"val"`        // at step 0, every EvalEvery steps and at the end
	Stats     []StatsPoint `json:"stats"`      // at the same steps as Val (after step 0)
	// Seconds is the wall time of the run (not reproducible, unlike the rest).
	Seconds float64 `json:"seconds"`
	// Diverged is the Inf or NaN that stopped the run, if one did: Steps
	// then counts the steps done before it.
	Diverged *NonFiniteError `json:"diverged,omitempty"`
}

// FinalVal returns the last validation loss.
func (r *Result) FinalVal() float64 {
	if r == nil || len(r.Val) == 0 {
		return math.NaN() // no validation loss yet
	}
	return r.Val[len(r.Val)-1].Loss
}

// Run trains cfg under recipe r for steps steps from seed over data and
// records the losses and statistics. The same arguments give bit-identical
// losses.
func Run(cfg Config, r *Recipe, seed uint64, steps int, data *Corpus) (*Result, error) {
	start := time.Now()
	tr, err := NewTrainer(cfg, r, seed, steps, data)
	if err != nil {
		return nil, err
	}
	res := &Result{Config: cfg, Recipe: *r, Seed: seed, Steps: steps, Corpus: data.Source}
	eval := func() error {
		l, err := tr.ValLoss()
		if err != nil {
			return err
		}
		res.Val = append(res.Val, EvalPoint{Step: tr.Steps(), Loss: l})
		if tr.Steps() > 0 {
			res.Stats = append(res.Stats, StatsPoint{Step: tr.Steps(), Operands: tr.Stats()})
		}
		return nil
	}
	if err := eval(); err != nil {
		return nil, err
	}
	for s := 1; s <= steps; s++ {
		st, err := tr.Step()
		if err != nil {
			res.noteDiverged(err, tr)
			return res, err
		}
		res.TrainLoss = append(res.TrainLoss, st.Loss)
		if s == steps || cfg.EvalEvery > 0 && s%cfg.EvalEvery == 0 {
			if err := eval(); err != nil {
				return res, err
			}
		}
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// noteDiverged records a NonFiniteError that stopped the run: the error,
// the steps done before it, and the operand statistics since the last
// point (the step that stopped included, up to where it stopped). Other
// errors leave the result alone.
func (r *Result) noteDiverged(err error, tr *Trainer) {
	var nf *NonFiniteError
	if !errors.As(err, &nf) {
		return
	}
	r.Diverged = nf
	r.Steps = len(r.TrainLoss)
	if st := tr.Stats(); len(st) > 0 {
		r.Stats = append(r.Stats, StatsPoint{Step: nf.Step, Operands: st})
	}
}

// NoteDiverged is noteDiverged for runners outside the package
// (train/compare), which drive a Trainer step by step.
func (r *Result) NoteDiverged(err error, tr *Trainer) { r.noteDiverged(err, tr) }
