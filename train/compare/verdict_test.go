package compare

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJudgeOnSyntheticRecords judges recipes of synthetic records against
// a baseline: better or worse only at or above MinEffectPct and beyond the
// paired spread; below the threshold, however well the seeds agree, no
// measurable effect; one seed, never a verdict.
func TestJudgeOnSyntheticRecords(t *testing.T) {
	base := []float64{3.00, 3.03, 2.97}
	by := func(pct ...float64) [][]float64 { // final loss of each seed, pct% above the baseline's
		c := make([][]float64, len(pct))
		for j, p := range pct {
			c[j] = []float64{5.5, base[j] * (1 + p/100)}
		}
		return c
	}
	baseCurves := by(0, 0, 0)
	for _, c := range []struct {
		name    string
		perSeed []float64
		want    Outcome
	}{
		{"far worse on every seed", []float64{5, 5.2, 4.9}, Worse},
		{"better on every seed", []float64{-0.5, -0.45, -0.55}, Better},
		{"just above the threshold", []float64{0.31, 0.31, 0.31}, Worse},
		{"below the threshold, seeds agreeing", []float64{0.29, 0.29, 0.29}, NoEffect},
		{"below the threshold, the sign alike", []float64{0.1, 0.2, 0.15}, NoEffect},
		{"above the threshold, seeds disagreeing", []float64{1.5, -0.5, 0.6}, NoEffect},
		{"gap smaller than the spread", []float64{0.1, 0.7, 0.4}, NoEffect},
		{"no difference", []float64{0, 0, 0}, NoEffect},
	} {
		set := synthetic([]string{"bf16", "x"}, [][][]float64{baseCurves, by(c.perSeed...)})
		sum, err := Summarize(set, "bf16")
		require.NoError(t, err)
		d, err := sum.Diff("x", "bf16", ValLoss)
		require.NoError(t, err)
		for j, p := range c.perSeed {
			assert.InDelta(t, p, d.PerSeed[j], 1e-9, c.name)
		}
		v := Judge(d)
		assert.Equal(t, c.want, v.Outcome, "%s: gap %+.3f%%, spread %.3f", c.name, d.GapPct, d.SpreadPct)
		s := v.Sentence()
		switch c.want {
		case Worse:
			assert.Contains(t, s, "x ends with a higher validation loss than bf16 on each of the 3 seeds", c.name)
		case Better:
			assert.Contains(t, s, "x ends with a lower validation loss than bf16 on each of the 3 seeds", c.name)
		default:
			assert.Contains(t, s, "the gap (", c.name)
			assert.NotContains(t, s, "ends with", c.name)
		}
	}

	// One seed: however large the gap, no difference is claimed.
	one := synthetic([]string{"bf16", "x"}, [][][]float64{{{5.5, 3}}, {{5.5, 4}}})
	sum, err := Summarize(one, "bf16")
	require.NoError(t, err)
	d, err := sum.Diff("x", "bf16", ValLoss)
	require.NoError(t, err)
	v := Judge(d)
	assert.Equal(t, TooFewSeeds, v.Outcome)
	assert.Equal(t, "one seed cannot tell", v.Outcome.String())
	assert.Contains(t, v.Sentence(), "no difference is claimed")
	assert.Contains(t, v.Measured(), "(one seed)")

	// A gap that is not a number (a run that ended in NaN) is no effect.
	assert.Equal(t, NoEffect, Judge(Difference{GapPct: math.NaN(), PerSeed: []float64{math.NaN(), 1}}).Outcome)
}

// TestJudgeBound: a bound is never agreed with; the words say what a small
// model can say.
func TestJudgeBound(t *testing.T) {
	d := func(gap, spread float64) Difference {
		return Difference{A: "deepseek", B: "bf16", Metric: TrainLoss, GapPct: gap, SpreadPct: spread,
			PerSeed: []float64{gap - spread/2, gap + spread/2, gap}}
	}
	for _, c := range []struct {
		gap, spread float64
		want        BoundOutcome
		word        string
	}{
		{0.1, 0.05, Consistent, "consistent"},
		{-0.1, 0.1, Consistent, "consistent"},
		{0.2, 0.1, Unresolved, "cannot tell"},
		{0.5, 0.1, Beyond, "beyond the bound"},
		{-0.6, 0.2, Beyond, "beyond the bound"},
		{0.5, 0.6, Unresolved, "cannot tell"},
	} {
		b := JudgeBound(d(c.gap, c.spread), 0.25)
		assert.Equal(t, c.want, b.Outcome, "%+v", c)
		assert.Equal(t, c.word, b.Word(), "%+v", c)
		s := b.Sentence("a tiny model")
		assert.NotContains(t, s, "agree")
		if c.want == Consistent {
			assert.Contains(t, s, "at a scale that cannot test it (a tiny model) does not confirm")
			assert.Contains(t, s, "the bound is below the 0.3% this lab calls an effect")
		}
	}
	assert.Contains(t, JudgeBound(d(0.1, 0), 0.25).Measured(), "training loss of deepseek against bf16")
}
