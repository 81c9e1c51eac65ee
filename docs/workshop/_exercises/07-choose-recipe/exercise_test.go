package choose

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/train"
	"github.com/fp8lab/fp8lab/train/compare"
)

func TestByHand(t *testing.T) {
	gap, spread, resolved, err := Gap([]float64{3.03, 3.03}, []float64{3.00, 3.00})
	require.NoError(t, err)
	assert.InDelta(t, 1.0, gap, 1e-9)
	assert.InDelta(t, 0.0, spread, 1e-9)
	assert.True(t, resolved, "1% worse on every seed")

	// The seeds move both recipes alike (2.97 to 3.03): a is 0.4% worse on
	// each, and that is real although the ranges overlap.
	gap, spread, resolved, err = Gap([]float64{3.012, 3.04212, 2.98188}, []float64{3.00, 3.03, 2.97})
	require.NoError(t, err)
	assert.InDelta(t, 0.4, gap, 1e-9)
	assert.InDelta(t, 0.0, spread, 1e-9)
	assert.True(t, resolved)

	// 0.2% worse on every seed: the seeds agree, but a gap that small is
	// not an effect at this lab's size.
	_, _, resolved, err = Gap([]float64{3.006, 3.03606, 2.97594}, []float64{3.00, 3.03, 2.97})
	require.NoError(t, err)
	assert.False(t, resolved)

	// One seed has no spread: never real.
	_, _, resolved, err = Gap([]float64{3.3}, []float64{3.0})
	require.NoError(t, err)
	assert.False(t, resolved)

	// 1% better on one seed, 3% worse on the other: a 1% gap could be luck.
	gap, spread, resolved, err = Gap([]float64{2.97, 3.09}, []float64{3.00, 3.00})
	require.NoError(t, err)
	assert.InDelta(t, 1.0, gap, 1e-9)
	assert.InDelta(t, 4.0, spread, 1e-9)
	assert.False(t, resolved)

	_, _, _, err = Gap(nil, []float64{3})
	assert.Error(t, err)
	_, _, _, err = Gap([]float64{3, 3}, []float64{3})
	assert.Error(t, err)
}

// The library's own comparison (what fp8lab train --compare prints) must
// agree with your Gap on a real, tiny comparison.
func TestMatchesTheLibrary(t *testing.T) {
	var text strings.Builder
	for i := range 200 {
		text.WriteString([]string{"func f(x int) int { return x }\n", "for i := range n {\n", "// note\n"}[i%3])
	}
	data, err := train.TextCorpus([]byte(text.String()), "exercise text")
	require.NoError(t, err)
	var rs []*train.Recipe
	for _, n := range []string{"bf16", "tensorwise", "e5m2-grads"} {
		r, err := train.RecipeByName(n)
		require.NoError(t, err)
		rs = append(rs, r)
	}
	set, err := compare.Compare(context.Background(), compare.Plan{Config: train.Tiny(), Recipes: rs,
		Seeds: []uint64{1, 2, 3}, Steps: 10, Data: data})
	require.NoError(t, err)
	sum, err := compare.Summarize(set, "bf16")
	require.NoError(t, err)
	finals := func(i int) []float64 {
		var f []float64
		for j := range set.Seeds {
			f = append(f, set.Run(i, j).FinalVal())
		}
		return f
	}
	for i, n := range set.Recipes[1:] {
		want, err := sum.Diff(n, "bf16", compare.ValLoss)
		require.NoError(t, err)
		gap, spread, resolved, err := Gap(finals(i+1), finals(0))
		require.NoError(t, err)
		assert.InDelta(t, want.GapPct, gap, 1e-9, n)
		assert.InDelta(t, want.SpreadPct, spread, 1e-9, n)
		outcome := compare.Judge(want).Outcome
		assert.Equal(t, outcome == compare.Better || outcome == compare.Worse, resolved, n)
	}
}
