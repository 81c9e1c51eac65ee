package scaling

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// RandomNormal returns a rows×cols tensor of independent normal values with
// mean 0 and standard deviation std, from a PCG generator seeded with seed:
// the same arguments always give the same tensor. (It is for experiments and
// tests; stochastic rounding takes its random bits from the dither package.)
func RandomNormal(rows, cols int, std float64, seed uint64) (*Tensor, error) {
	if math.IsNaN(std) || math.IsInf(std, 0) || std < 0 {
		return nil, fmt.Errorf("%w: standard deviation %g", ErrValue, std)
	}
	t, err := NewTensor(rows, cols)
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15))
	for i := range t.Data {
		t.Data[i] = float32(r.NormFloat64() * std)
	}
	return t, nil
}

// Sequence describes a series of tensors whose distribution changes from
// step to step, to feed SimulateDelayed: normal values whose standard
// deviation starts at Std and is multiplied by Drift at every step, with
// one step (SpikeStep) multiplied by SpikeFactor, like a loss spike.
type Sequence struct {
	Steps int     `json:"steps"`
	Rows  int     `json:"rows"`
	Cols  int     `json:"cols"`
	Seed  uint64  `json:"seed"`
	Std   float64 `json:"std"`   // initial standard deviation; 0 means 1
	Drift float64 `json:"drift"` // growth factor per step; 0 means 1 (steady)
	// SpikeStep is the step that spikes; SpikeFactor 0 or 1 means no spike.
	SpikeStep   int     `json:"spike_step"`
	SpikeFactor float64 `json:"spike_factor"`
}

// Generate returns the tensors of the sequence; step i is seeded with
// Seed+i.
func (s Sequence) Generate() ([]*Tensor, error) {
	if s.Steps < 1 || s.Steps > 1<<20 {
		return nil, fmt.Errorf("%w: %d steps", ErrOptions, s.Steps)
	}
	if err := checkDims(s.Rows, s.Cols); err != nil {
		return nil, err
	}
	if s.Rows*s.Cols > MaxElements/s.Steps {
		return nil, fmt.Errorf("%w: %d steps of %d×%d", ErrShape, s.Steps, s.Rows, s.Cols)
	}
	std, drift, spike := s.Std, s.Drift, s.SpikeFactor
	if std == 0 {
		std = 1
	}
	if drift == 0 {
		drift = 1
	}
	if spike == 0 {
		spike = 1
	}
	for _, v := range []float64{std, drift, spike} {
		if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
			return nil, fmt.Errorf("%w: std, drift and spike factor must be positive and finite", ErrValue)
		}
	}
	out := make([]*Tensor, s.Steps)
	for i := range out {
		sd := std * math.Pow(drift, float64(i))
		if i == s.SpikeStep {
			sd *= spike
		}
		t, err := RandomNormal(s.Rows, s.Cols, sd, s.Seed+uint64(i))
		if err != nil {
			return nil, fmt.Errorf("step %d: %w", i, err)
		}
		out[i] = t
	}
	return out, nil
}
