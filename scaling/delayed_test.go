package scaling

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDelayedScalerRule replays Transformer Engine's _default_sf_compute by
// hand on a short history.
func TestDelayedScalerRule(t *testing.T) {
	d, err := NewDelayedScaler(DelayedConfig{Format: fp8.E4M3FN, HistoryLen: 3})
	require.NoError(t, err)
	assert.Equal(t, float32(1), d.Scale(), "initial scale")
	steps := []struct {
		amax  float64
		scale float32 // after the update; history in brackets
	}{
		{2, 224},           // [2]
		{8, 56},            // [2 8]: max 8
		{4, 56},            // [2 8 4]
		{1, 56},            // [8 4 1]: 8 still there
		{1, 112},           // [4 1 1]: 8 has left
		{0, 448},           // [1 1 0]: max 1
		{math.NaN(), 448},  // [1 0 NaN]: NaN, keep
		{math.Inf(1), 448}, // [0 NaN Inf]: keep
		{0.5, 448},         // [NaN Inf .5]: keep
		{0.25, 448},        // [Inf .5 .25]: infinite amax, keep
		{0.25, 896},        // [.5 .25 .25]
	}
	for i, st := range steps {
		d.Update(st.amax)
		assert.Equal(t, st.scale, d.Scale(), "step %d (amax %g)", i, st.amax)
	}
	h := d.History()
	assert.Equal(t, []float64{0.25, 0.25, 0.5}, h)
}

func TestDelayedScalerOptions(t *testing.T) {
	d, err := NewDelayedScaler(DelayedConfig{Format: fp8.E4M3FN, HistoryLen: 4, Algo: AmaxMostRecent, Margin: 1})
	require.NoError(t, err)
	d.Update(8)
	assert.Equal(t, float32(28), d.Scale()) // 448/8/2
	d.Update(2)
	assert.Equal(t, float32(112), d.Scale()) // most recent only
	d.Update(0)
	assert.Equal(t, float32(112), d.Scale(), "zero amax keeps the scale")
	assert.Equal(t, 0.0, d.HistoryAmax())
	d.Update(1e-300)
	assert.Equal(t, float32(math.MaxFloat32), d.Scale(), "an infinite scale becomes float32 max")

	d, err = NewDelayedScaler(DelayedConfig{Format: fp8.E5M2})
	require.NoError(t, err)
	assert.Equal(t, DefaultHistoryLen, len(d.history))
	assert.Equal(t, 0.0, d.HistoryAmax())

	for _, bad := range []DelayedConfig{
		{}, {Format: fp8.E8M0}, {Format: fp8.E4M3FN, HistoryLen: -1},
		{Format: fp8.E4M3FN, Algo: 5}, {Format: fp8.E4M3FN, Margin: 1 << 20},
	} {
		_, err := NewDelayedScaler(bad)
		assert.Error(t, err, "%+v", bad)
	}
	a, err := ParseAmaxAlgo("most_recent")
	require.NoError(t, err)
	assert.Equal(t, AmaxMostRecent, a)
	assert.Equal(t, "max", AmaxMax.String())
	_, err = ParseAmaxAlgo("mean")
	assert.ErrorIs(t, err, ErrParse)
}

// TestSimulateDelayedSpike: a spike arrives before the scale knows about it
// (overflow at the spike), then the "max" history keeps the scale small for
// HistoryLen steps (underflow and low SQNR), then it recovers.
func TestSimulateDelayedSpike(t *testing.T) {
	const hist = 5
	seq := Sequence{Steps: 16, Rows: 16, Cols: 64, Seed: 3, SpikeStep: 6, SpikeFactor: 1e6}
	tensors, err := seq.Generate()
	require.NoError(t, err)
	steps, err := SimulateDelayed(DelayedConfig{Format: fp8.E4M3FN, HistoryLen: hist}, tensors)
	require.NoError(t, err)
	require.Len(t, steps, 16)
	for i, s := range steps {
		assert.Equal(t, i, s.Step)
		if i > 0 {
			assert.Equal(t, steps[i-1].NextScale, s.Scale, "step %d uses the previous step's update", i)
		}
	}
	assert.Equal(t, float32(1), steps[0].Scale, "the first step uses the initial scale")
	spike := steps[6]
	assert.Greater(t, spike.Overflow, 16*64/2, "the spike saturates")
	assert.Less(t, spike.SQNR, 10.0)
	assert.Greater(t, spike.CurrentSQNR, 25.0, "current scaling would have coped")
	for i := 7; i < 6+hist; i++ {
		assert.Greater(t, steps[i].Underflow, 16*64/2, "step %d: scale still set by the spike", i)
		assert.Less(t, steps[i].SQNR, 10.0, "step %d", i)
	}
	for i := 6 + hist + 1; i < 16; i++ {
		assert.Zero(t, steps[i].Overflow, "step %d", i)
		assert.Greater(t, steps[i].SQNR, 25.0, "step %d recovered", i)
	}
	b, err := json.Marshal(steps[0])
	require.NoError(t, err)
	assert.Contains(t, string(b), `"sqnr_db"`)
	assert.Contains(t, string(b), `"next_scale"`)

	_, err = SimulateDelayed(DelayedConfig{Format: fp8.E4M3FN, Mode: fp8.Mode{Round: fp8.Stochastic, RandomBits: 8}}, tensors)
	assert.ErrorIs(t, err, ErrOptions)
	_, err = SimulateDelayed(DelayedConfig{Format: fp8.E4M3FN}, []*Tensor{nil})
	assert.ErrorIs(t, err, ErrShape)
}

// TestSimulateDelayedDrift: a growing distribution overflows a little at
// every step, since the scale lags one step behind.
func TestSimulateDelayedDrift(t *testing.T) {
	tensors, err := Sequence{Steps: 8, Rows: 8, Cols: 128, Seed: 1, Drift: 2}.Generate()
	require.NoError(t, err)
	steps, err := SimulateDelayed(DelayedConfig{Format: fp8.E4M3FN, HistoryLen: 16, Algo: AmaxMostRecent}, tensors)
	require.NoError(t, err)
	for i := 2; i < len(steps); i++ {
		assert.Greater(t, steps[i].Overflow, 0, "step %d", i)
		assert.Less(t, steps[i].SQNR, steps[i].CurrentSQNR, "step %d", i)
	}
	// A margin of 1 (factor 2 headroom) absorbs a doubling.
	steps, err = SimulateDelayed(DelayedConfig{Format: fp8.E4M3FN, HistoryLen: 16, Algo: AmaxMostRecent, Margin: 2}, tensors)
	require.NoError(t, err)
	for i := 2; i < len(steps); i++ {
		assert.Zero(t, steps[i].Overflow, "step %d", i)
	}
	for _, bad := range []Sequence{{}, {Steps: 1}, {Steps: 1, Rows: 1, Cols: 1, Drift: -1}, {Steps: 1, Rows: 1, Cols: 1, Std: math.NaN()}} {
		_, err := bad.Generate()
		assert.Error(t, err, "%+v", bad)
	}
}

func TestDelayedQuantizeNonFinite(t *testing.T) {
	d, err := NewDelayedScaler(DelayedConfig{Format: fp8.E4M3FN, HistoryLen: 2})
	require.NoError(t, err)
	x, err := FromRows([][]float32{{1, float32(math.Inf(1)), float32(math.NaN())}})
	require.NoError(t, err)
	q, err := d.Quantize(x, nil)
	require.NoError(t, err)
	assert.Equal(t, fp8.E4M3FN.MaxCode(), q.Codes[1], "Inf saturates")
	assert.True(t, fp8.E4M3FN.IsNaN(q.Codes[2]))
	assert.Equal(t, float32(1), d.Scale(), "NaN amax keeps the scale")
	assert.True(t, math.IsNaN(d.HistoryAmax()))
}
