package compare

import (
	"bytes"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/train"
)

// synthetic builds a set whose runs have the given validation curves
// (evaluated every 10 steps), recipe by recipe, seed by seed.
func synthetic(names []string, curves [][][]float64) *Set {
	set := &Set{Recipes: names, Seeds: []uint64{1, 2, 3}[:len(curves[0])]}
	set.Steps = 10 * (len(curves[0][0]) - 1)
	for i := range names {
		for _, c := range curves[i] {
			r := &train.Result{Steps: set.Steps, TrainLoss: make([]float64, set.Steps)}
			for k, l := range c {
				r.Val = append(r.Val, train.EvalPoint{Step: 10 * k, Loss: l})
			}
			r.Stats = []train.StatsPoint{{Step: set.Steps, Operands: []train.OperandStats{
				{Layer: "h0.qkv", Overflow: int64(i), Underflow: 10 * int64(i)},
				{Layer: "h0.fc", Overflow: 1, Underflow: 2}}}}
			set.Runs = append(set.Runs, r)
		}
	}
	return set
}

func TestSummarize(t *testing.T) {
	set := synthetic([]string{"fp32", "bf16", "tensorwise"}, [][][]float64{
		{{5, 4, 3.0}, {5, 4, 3.2}, {5, 4, 3.1}},
		{{5, 4, 3.1}, {5, 4, 3.1}, {5, 4, 3.1}},
		{{5, 3.2, 3.2}, {5, 3.4, 3.4}, {5, 3.3, 3.3}},
	})
	sum, err := Summarize(set, "")
	require.NoError(t, err)
	assert.Equal(t, "bf16", sum.Baseline)
	fp32, tw := sum.Row("fp32"), sum.Row("tensorwise")
	assert.InDelta(t, 3.1, fp32.ValMean, 1e-12)
	assert.InDelta(t, 0.1, fp32.ValStd, 1e-12)
	assert.Equal(t, 3.0, fp32.ValMin)
	assert.Equal(t, 3.2, fp32.ValMax)
	assert.InDelta(t, math.Exp(3.1), fp32.PPL, 1e-9)
	assert.InDelta(t, 100*0.2/3.1, tw.GapPct, 1e-9)
	assert.Equal(t, 20, fp32.Reach)
	assert.Equal(t, 0, tw.Reach, "never reaches 3.1 on the mean curve")
	assert.Equal(t, int64(3*(2+1)), tw.Overflow)
	assert.Equal(t, int64(3*(20+2)), tw.Underflow)
	assert.Equal(t, []train.EvalPoint{{Step: 0, Loss: 5}, {Step: 10, Loss: 3.3}, {Step: 20, Loss: 3.3}}, roundCurve(tw.Curve))

	var b bytes.Buffer
	require.NoError(t, sum.WriteTable(&b))
	assert.Contains(t, b.String(), "3.1000 ± 0.1000 [3.0000, 3.2000]")
	assert.Contains(t, b.String(), "+6.45%")
	assert.Contains(t, b.String(), "—")

	// Seed by seed: fp32 against bf16 swings from -3.2% to +3.2%, a spread
	// far larger than its mean gap of 0.
	d, err := sum.Diff("fp32", "bf16", ValLoss)
	require.NoError(t, err)
	assert.InDelta(t, 0, d.GapPct, 1e-9)
	assert.InDelta(t, 200*0.1/3.1, d.SpreadPct, 1e-9)
	assert.Equal(t, NoEffect, Judge(d).Outcome)
	// tensorwise is 0.2 above fp32 on every seed: the ranges over seeds
	// overlap (3.0–3.2 against 3.2–3.4), but the per-seed gaps agree.
	d, err = sum.Diff("tensorwise", "fp32", ValLoss)
	require.NoError(t, err)
	assert.InDelta(t, 100*0.2/3.1, d.GapPct, 1e-9)
	assert.InDelta(t, 100*0.2/3.0-100*0.2/3.2, d.SpreadPct, 1e-9)
	assert.Len(t, d.PerSeed, 3)
	assert.Equal(t, Worse, Judge(d).Outcome)
	d, err = sum.Diff("tensorwise", "fp32", ValPPL)
	require.NoError(t, err)
	assert.InDelta(t, 100*(math.Exp(0.2)-1), d.GapPct, 1e-9)
	assert.InDelta(t, 0, d.SpreadPct, 1e-9)
	assert.Equal(t, []float64{3.2, 3.4, 3.3}, tw.Finals)

	_, err = Summarize(set, "nvfp4")
	assert.Error(t, err)
}

func roundCurve(c []train.EvalPoint) []train.EvalPoint {
	for i := range c {
		c[i].Loss = math.Round(c[i].Loss*1e9) / 1e9
	}
	return c
}

func TestDefaultBaseline(t *testing.T) {
	assert.Equal(t, "bf16", DefaultBaseline([]string{"fp32", "tensorwise", "bf16"}))
	assert.Equal(t, "fp32", DefaultBaseline([]string{"tensorwise", "fp32"}))
	assert.Equal(t, "rowwise", DefaultBaseline([]string{"rowwise", "tensorwise"}))
}

func TestOperandTotals(t *testing.T) {
	res := &train.Result{Stats: []train.StatsPoint{
		{Step: 5, Operands: []train.OperandStats{{Layer: "a", Product: "forward", Operand: "input", Amax: 2, Overflow: 1, Elements: 10}}},
		{Step: 10, Operands: []train.OperandStats{{Layer: "a", Product: "forward", Operand: "input", Amax: 1, Underflow: 3, Elements: 10},
			{Layer: "b", Product: "forward", Operand: "input", Amax: 4}}},
	}}
	got := OperandTotals(res)
	require.Len(t, got, 2)
	assert.Equal(t, train.OperandStats{Layer: "a", Product: "forward", Operand: "input", Amax: 2, Overflow: 1, Underflow: 3, Elements: 20}, got[0])
}
