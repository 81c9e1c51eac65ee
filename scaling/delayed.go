package scaling

import (
	"fmt"
	"math"

	"github.com/fp8lab/fp8lab/fp8"
)

// DefaultHistoryLen is Transformer Engine's default amax history length.
const DefaultHistoryLen = 1024

// AmaxAlgo selects how delayed scaling reduces its amax history.
type AmaxAlgo uint8

const (
	// AmaxMax uses the largest amax in the history (Transformer Engine's
	// amax_compute_algo="max", the default).
	AmaxMax AmaxAlgo = iota
	// AmaxMostRecent uses the latest amax ("most_recent").
	AmaxMostRecent
)

var amaxAlgoNames = [...]string{"max", "most_recent"}

// String returns "max" or "most_recent", Transformer Engine's names.
func (a AmaxAlgo) String() string {
	if int(a) < len(amaxAlgoNames) {
		return amaxAlgoNames[a]
	}
	return fmt.Sprintf("AmaxAlgo(%d)", uint8(a))
}

// ParseAmaxAlgo parses "max" or "most_recent".
func ParseAmaxAlgo(s string) (AmaxAlgo, error) {
	for i, n := range amaxAlgoNames {
		if s == n {
			return AmaxAlgo(i), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown amax algorithm %q (max, most_recent)", ErrParse, s)
}

// DelayedConfig configures delayed scaling, Transformer Engine's
// DelayedScaling recipe.
type DelayedConfig struct {
	Format     *fp8.Format // element format, e.g. fp8.E4M3FN
	HistoryLen int         // amax history length; 0 means DefaultHistoryLen
	Algo       AmaxAlgo    // how the history is reduced
	Margin     int         // the scale is divided by 2^Margin
	Mode       fp8.Mode    // element rounding (stochastic needs random words)
}

// DelayedScaler holds the state of delayed scaling for one tensor: the amax
// history and the scale the next step will use. The scale used at a step is
// computed from the amaxes of earlier steps only, which is what makes it
// cheap (no pass over the data before quantizing) and fragile (a spike
// arrives before the scale knows about it).
//
// The update rule is Transformer Engine's _default_sf_compute:
//
//	amax  = max(history)  or  history[most recent]
//	scale = (Max / amax) / 2^Margin        (computed in float64, stored float32)
//	if amax is 0, NaN or ±Inf: keep the previous scale
//	if the scale is infinite (or beyond float32): MaxFloat32
//
// A NaN in the history makes the "max" reduction NaN, as torch.max does, so
// the scale stays frozen until the NaN leaves the history. The initial
// scale is 1, as in Transformer Engine.
type DelayedScaler struct {
	cfg     DelayedConfig
	history []float64 // ring buffer, next write at pos
	pos     int
	filled  int
	scale   float32
}

// NewDelayedScaler checks cfg and returns a scaler with an empty history
// and scale 1.
func NewDelayedScaler(cfg DelayedConfig) (*DelayedScaler, error) {
	if err := checkElementFormat(cfg.Format); err != nil {
		return nil, err
	}
	if cfg.HistoryLen == 0 {
		cfg.HistoryLen = DefaultHistoryLen
	}
	if cfg.HistoryLen < 1 || cfg.HistoryLen > 1<<20 {
		return nil, fmt.Errorf("%w: history length %d not in 1..%d", ErrOptions, cfg.HistoryLen, 1<<20)
	}
	if cfg.Algo > AmaxMostRecent {
		return nil, fmt.Errorf("%w: amax algorithm %d", ErrOptions, cfg.Algo)
	}
	if err := (ScaleRule{Margin: cfg.Margin}).check(); err != nil {
		return nil, err
	}
	return &DelayedScaler{cfg: cfg, history: make([]float64, cfg.HistoryLen), scale: 1}, nil
}

// Scale returns the scale the next Quantize will use (0 for nil).
func (d *DelayedScaler) Scale() float32 {
	if d == nil {
		return 0
	}
	return d.scale
}

// ready reports whether d was made by NewDelayedScaler.
func (d *DelayedScaler) ready() bool { return d != nil && len(d.history) > 0 && d.cfg.Format != nil }

// History returns the recorded amaxes, most recent first.
func (d *DelayedScaler) History() []float64 {
	if !d.ready() {
		return nil
	}
	out := make([]float64, d.filled)
	for i := range out {
		out[i] = d.history[(d.pos-1-i+2*len(d.history))%len(d.history)]
	}
	return out
}

// HistoryAmax returns the history reduced by the configured algorithm (0
// for an empty history; NaN when "max" meets a NaN).
func (d *DelayedScaler) HistoryAmax() float64 {
	if !d.ready() || d.filled == 0 {
		return 0
	}
	if d.cfg.Algo == AmaxMostRecent {
		return d.history[(d.pos-1+len(d.history))%len(d.history)]
	}
	m := 0.0
	for _, v := range d.history[:d.filled] {
		if math.IsNaN(v) {
			return v
		}
		m = max(m, v)
	}
	return m
}

// Update records amax, the amax of the tensor just quantized, and computes
// the scale of the next step with the rule above. On a scaler not made by
// NewDelayedScaler (nil, or the zero value) it does nothing, and Quantize
// returns an error wrapping ErrOptions.
func (d *DelayedScaler) Update(amax float64) {
	if !d.ready() {
		return
	}
	d.history[d.pos] = amax
	d.pos = (d.pos + 1) % len(d.history)
	d.filled = min(d.filled+1, len(d.history))
	a := d.HistoryAmax()
	if !(a > 0) || math.IsInf(a, 0) {
		return // zero, NaN or infinite amax: keep the previous scale
	}
	d.scale = clampScale(math.Ldexp(d.cfg.Format.Max()/a, -d.cfg.Margin), false)
}

// Quantize quantizes t with the current scale (per tensor), then records
// t's amax and updates the scale for the next step. random is nil, or one
// word per element for stochastic rounding. Non-finite elements are
// quantized by the element format's rules (saturating by default) and their
// amax goes into the history like any other.
func (d *DelayedScaler) Quantize(t *Tensor, random []uint32) (*Quantized, error) {
	if !d.ready() {
		return nil, fmt.Errorf("%w: a DelayedScaler must come from NewDelayedScaler", ErrOptions)
	}
	q, err := QuantizeWithScales(t, d.cfg.Format, PerTensor, []float32{d.scale}, Options{Mode: d.cfg.Mode, Random: random})
	if err != nil {
		return nil, err
	}
	d.Update(float64(q.Amax[0]))
	return q, nil
}

// DelayedStep is one step of a delayed-scaling simulation.
type DelayedStep struct {
	Step int `json:"step"`
	// Amax is the amax of this step's tensor (recorded after quantizing).
	Amax float64 `json:"amax"`
	// Scale is the scale this step used, computed from earlier steps.
	Scale float32 `json:"scale"`
	// NextScale is the scale after this step's amax entered the history.
	NextScale float32 `json:"next_scale"`
	// Overflow and Underflow count saturated and flushed elements.
	Overflow  int     `json:"overflow"`
	Underflow int     `json:"underflow"`
	SQNR      float64 `json:"sqnr_db"`
	// CurrentScale and CurrentSQNR are what current per-tensor scaling (this
	// step's own amax) would have given, for comparison; 0 and NaN when the
	// tensor holds NaN or ±Inf.
	CurrentScale float32 `json:"current_scale"`
	CurrentSQNR  float64 `json:"current_sqnr_db"`
}

// MarshalJSON writes ±Inf and NaN as the strings "+Inf", "-Inf" and "NaN"
// (see fp8.Number).
func (s DelayedStep) MarshalJSON() ([]byte, error) { return marshalNumbers(s) }

// SimulateDelayed runs delayed scaling over a sequence of tensors (see
// Sequence for drifting and spiking ones) with a fresh scaler and returns
// one DelayedStep per tensor. Rounding must not be stochastic here.
func SimulateDelayed(cfg DelayedConfig, steps []*Tensor) ([]DelayedStep, error) {
	if cfg.Mode.Round == fp8.Stochastic {
		return nil, fmt.Errorf("%w: SimulateDelayed has no random words; use DelayedScaler.Quantize for stochastic rounding", ErrOptions)
	}
	d, err := NewDelayedScaler(cfg)
	if err != nil {
		return nil, err
	}
	out := make([]DelayedStep, 0, len(steps))
	for i, t := range steps {
		used := d.Scale()
		q, err := d.Quantize(t, nil)
		if err != nil {
			return nil, fmt.Errorf("step %d: %w", i, err)
		}
		m, err := Measure(t, q)
		if err != nil {
			return nil, fmt.Errorf("step %d: %w", i, err)
		}
		st := DelayedStep{
			Step: i, Amax: float64(q.Amax[0]), Scale: used, NextScale: d.Scale(),
			Overflow: m.Overflow, Underflow: m.Underflow, SQNR: m.SQNR, CurrentSQNR: math.NaN(),
		}
		if cq, err := Quantize(t, cfg.Format, PerTensor, Options{Mode: cfg.Mode, Rule: ScaleRule{Margin: cfg.Margin}}); err == nil {
			cm, err := Measure(t, cq)
			if err != nil {
				return nil, fmt.Errorf("step %d: %w", i, err)
			}
			st.CurrentScale, st.CurrentSQNR = cq.Scales[0], cm.SQNR
		}
		out = append(out, st)
	}
	return out, nil
}
