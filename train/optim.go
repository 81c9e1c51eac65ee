package train

import (
	"errors"
	"math"

	"github.com/fp8lab/fp8lab/rng"
)

// OptimConfig is AdamW with linear warmup, cosine decay and gradient
// clipping by global norm.
type OptimConfig struct {
	LR          float64 `json:"lr"`     // peak learning rate
	MinLRFrac   float64 `json:"min_lr"` // final rate as a fraction of LR
	Warmup      int     `json:"warmup"` // steps of linear warmup
	WeightDecay float64 `json:"weight_decay"`
	Beta1       float64 `json:"beta1"`
	Beta2       float64 `json:"beta2"`
	Eps         float64 `json:"eps"`
	ClipNorm    float64 `json:"clip_norm"` // 0: no clipping
}

func defaultOptim(lr float64, warmup int) OptimConfig {
	return OptimConfig{LR: lr, MinLRFrac: 0.1, Warmup: warmup, WeightDecay: 0.1,
		Beta1: 0.9, Beta2: 0.95, Eps: 1e-8, ClipNorm: 1}
}

// Check reports settings AdamW cannot use.
func (o OptimConfig) Check() error {
	switch {
	case !(o.LR > 0), o.MinLRFrac < 0, o.MinLRFrac > 1, o.Warmup < 0, o.WeightDecay < 0,
		o.Beta1 < 0, o.Beta1 >= 1, o.Beta2 < 0, o.Beta2 >= 1, !(o.Eps > 0), o.ClipNorm < 0:
		return errors.New("train: optimizer settings out of range")
	}
	return nil
}

// LRAt returns the learning rate of step (0-based) out of total: linear
// warmup to LR over Warmup steps, then cosine decay to MinLRFrac·LR.
func (o OptimConfig) LRAt(step, total int) float64 {
	if step < o.Warmup {
		return o.LR * float64(step+1) / float64(o.Warmup)
	}
	minLR := o.LR * o.MinLRFrac
	span := total - o.Warmup
	if span <= 1 {
		return o.LR
	}
	frac := float64(step-o.Warmup) / float64(span-1)
	return minLR + 0.5*(o.LR-minLR)*(1+math.Cos(math.Pi*min(frac, 1)))
}

// adamW keeps the optimizer state, always float32.
type adamW struct {
	cfg   OptimConfig
	m, v  []float32
	decay []bool // per parameter: weight decay applies (matrices only)
	// master is "fp32", "bf16-rtn" or "bf16-sr": how updated weights are
	// stored. BF16 weights live in the float32 slice, rounded.
	master string
	seed   uint64
	spans  [][2]int // parameter tensors [start, end), for SR streams
	random []uint32
}

func newAdamW(cfg OptimConfig, specs []paramSpec, master string, seed uint64) *adamW {
	n := 0
	for _, s := range specs {
		n += s.Rows * s.Cols
	}
	a := &adamW{cfg: cfg, m: make([]float32, n), v: make([]float32, n), decay: make([]bool, n),
		master: master, seed: seed}
	off := 0
	for _, s := range specs {
		end := off + s.Rows*s.Cols
		for i := off; i < end; i++ {
			a.decay[i] = s.Matrix
		}
		a.spans = append(a.spans, [2]int{off, end})
		off = end
	}
	return a
}

// gradNorm returns the global L2 norm of grads, summed in float64.
func gradNorm(grads []float32) float64 {
	var s float64
	for _, g := range grads {
		s += float64(g) * float64(g)
	}
	return math.Sqrt(s)
}

// update applies one AdamW step t (1-based for bias correction) with
// learning rate lr, after clipping grads to ClipNorm. It returns the
// gradient norm before clipping.
func (a *adamW) update(params, grads []float32, lr float64, t int) float64 {
	norm := gradNorm(grads)
	clip := float32(1)
	if a.cfg.ClipNorm > 0 && norm > a.cfg.ClipNorm {
		clip = float32(a.cfg.ClipNorm / norm)
	}
	b1, b2 := float32(a.cfg.Beta1), float32(a.cfg.Beta2)
	c1 := float32(1 - math.Pow(a.cfg.Beta1, float64(t)))
	c2 := float32(1 - math.Pow(a.cfg.Beta2, float64(t)))
	lr32, eps, wd := float32(lr), float32(a.cfg.Eps), float32(a.cfg.WeightDecay)
	for i, g := range grads {
		g *= clip
		m := b1*a.m[i] + (1-b1)*g
		v := b2*a.v[i] + (1-b2)*g*g
		a.m[i], a.v[i] = m, v
		mhat, vhat := m/c1, v/c2
		p := params[i]
		upd := mhat / (float32(math.Sqrt(float64(vhat))) + eps)
		if a.decay[i] {
			upd += wd * p
		}
		params[i] = p - lr32*upd
	}
	a.store(params, t)
	return norm
}

// store rounds the updated weights into the master format.
func (a *adamW) store(params []float32, t int) {
	switch a.master {
	case "bf16-rtn":
		roundBF16(params, nil)
	case "bf16-sr":
		for k, sp := range a.spans {
			seg := params[sp[0]:sp[1]]
			if cap(a.random) < len(seg) {
				a.random = make([]uint32, len(seg))
			}
			r := a.random[:len(seg)]
			rng.Fill(r, a.seed, streamID(streamWeight, k, t), 0)
			roundBF16(seg, r)
		}
	}
}
