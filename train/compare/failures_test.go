package compare

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/train"
)

// TestUnscaledClearlyWorse: FP8 cast without scaling (the unscaled recipe)
// ends clearly worse than float32, by the verdict rule, on a model small
// enough for the short suite: one block of width 16 over 16 sequences of
// 16 bytes (256 tokens a step, so the gradients of the mean loss are small
// enough to flush to zero in E4M3), 150 steps, two seeds. It measured
// +12.3% (+13.4 and +11.2 seed by seed) on the development VM.
func TestUnscaledClearlyWorse(t *testing.T) {
	cfg := train.Config{Name: "small", Layers: 1, Width: 16, Heads: 2, Context: 16, Batch: 16, TiedHead: true,
		Optim: train.Tiny().Optim, EvalBatches: 2}
	cfg.Optim.LR, cfg.Optim.Warmup = 0.01, 5
	data, err := train.ReadTextCorpus("../corpus/train.txt") // the classroom text, split as fp8lab train --corpus splits it
	require.NoError(t, err)
	set, err := Compare(context.Background(), Plan{Config: cfg, Recipes: recipes(t, "fp32", "unscaled"),
		Seeds: []uint64{1, 2}, Steps: 150, Data: data, Workers: 2})
	require.NoError(t, err)
	sum, err := Summarize(set, "fp32")
	require.NoError(t, err)
	d, err := sum.Diff("unscaled", "fp32", ValLoss)
	require.NoError(t, err)
	v := Judge(d)
	t.Logf("%s: %s", v.Measured(), v.Sentence())
	assert.Equal(t, Worse, v.Outcome)
	assert.Greater(t, d.GapPct, 5.0, "clearly worse, not just beyond the threshold")
	assert.Greater(t, sum.Row("unscaled").Underflow, sum.Row("fp32").Underflow)
}
