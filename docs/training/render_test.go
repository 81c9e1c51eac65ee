package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/train"
	"github.com/fp8lab/fp8lab/train/compare"
	"github.com/fp8lab/fp8lab/train/records"
)

// record builds a comparison whose final validation losses are finals
// [recipe][seed]; every curve starts at 5.5 and ends there after 10 steps,
// and every step's training loss is the final validation loss (so the
// training-loss gaps are the validation-loss gaps).
func record(finals map[string][]float64, order ...string) *Record {
	rec := &Record{Record: records.Record{Set: compare.Set{Config: train.Tiny(), Steps: 10, Recipes: order, Command: "fp8lab train --compare test"}}}
	rec.Config.EvalEvery = 10
	rec.Seeds = []uint64{1, 2, 3}[:len(finals[order[0]])]
	for _, n := range order {
		for _, f := range finals[n] {
			loss := make([]float64, 10)
			for i := range loss {
				loss[i] = f
			}
			rec.Runs = append(rec.Runs, &train.Result{Steps: 10, TrainLoss: loss,
				Val: []train.EvalPoint{{Step: 0, Loss: 5.5}, {Step: 10, Loss: f}}})
		}
	}
	return rec
}

// verdictOf returns the verdict word under a claim's heading.
func verdictOf(t *testing.T, page, title string) string {
	t.Helper()
	i := strings.Index(page, "### "+title)
	require.GreaterOrEqual(t, i, 0, "no section %q", title)
	rest := page[i:]
	j := strings.Index(rest, "Verdict: **")
	require.GreaterOrEqual(t, j, 0)
	v := rest[j+len("Verdict: **"):]
	return v[:strings.Index(v, "**")]
}

const (
	seed003 = "Seed 003"
	deepSk  = "DeepSeek-V3"
	talk    = "The talk"
)

func TestVerdictsFollowTheNumbers(t *testing.T) {
	// Gaps far larger than the spread and the 0.3% threshold: E5M2
	// gradients 0.5% worse than E4M3 (the talk's direction), deepseek
	// within 0.1% of bf16 (consistent with the bound; never "agrees").
	// Seed 003's per-word perplexity is never set beside per-byte numbers.
	page, err := Render(record(map[string][]float64{
		"bf16":       {3.0000, 3.0001, 2.9999},
		"tensorwise": {3.0150, 3.0151, 3.0149},
		"e5m2-grads": {3.0300, 3.0301, 3.0299},
		"deepseek":   {3.0030, 3.0031, 3.0029},
	}, "bf16", "tensorwise", "e5m2-grads", "deepseek"), nil, "training/curves.png")
	require.NoError(t, err)
	assert.Equal(t, NotComparable, verdictOf(t, page, seed003))
	assert.Contains(t, page, "per word of English")
	assert.Equal(t, Consistent, verdictOf(t, page, deepSk))
	assert.Equal(t, SameWay, verdictOf(t, page, talk))
	assert.NotContains(t, page, "agrees")
	assert.Contains(t, page, "| tensorwise | 3.0150 ± 0.0001 [3.0149, 3.0151] |")
	assert.Contains(t, page, "| +0.50% | — | 0 | 0 | worse |")
	assert.Contains(t, page, "- fast-accum-bwd: not chosen for this run.")
	assert.Contains(t, page, "> — seeds/002")
	assert.Contains(t, page, "> (paraphrase) DeepSeek-V3's FP8 recipe")

	// The same gaps, but seeds that scatter by more than the gaps: no
	// verdict says better or worse, and the bound cannot be told.
	page, err = Render(record(map[string][]float64{
		"bf16":       {3.00, 3.06, 2.94},
		"tensorwise": {3.015, 3.03, 2.99},
		"e5m2-grads": {3.03, 3.00, 3.06},
		"deepseek":   {3.003, 3.04, 2.95},
	}, "bf16", "tensorwise", "e5m2-grads", "deepseek"), nil, "training/curves.png")
	require.NoError(t, err)
	assert.Equal(t, CannotTell, verdictOf(t, page, deepSk))
	assert.Equal(t, NoEffect, verdictOf(t, page, talk))
	assert.NotContains(t, page, "| worse |")
	assert.NotContains(t, page, "| better |")

	// Seeds that scatter by 2% alike for every recipe, and E5M2 gradients
	// 0.4% worse on each seed: the per-seed gaps agree, so it is judged,
	// although the ranges over seeds overlap.
	page, err = Render(record(map[string][]float64{
		"bf16":       {3.00, 3.03, 2.97},
		"tensorwise": {3.00, 3.03, 2.97},
		"e5m2-grads": {3.012, 3.0421, 2.9819},
	}, "bf16", "tensorwise", "e5m2-grads"), nil, "training/curves.png")
	require.NoError(t, err)
	assert.Equal(t, SameWay, verdictOf(t, page, talk))

	// Gaps beyond the spread but below the 0.3% threshold: no measurable
	// effect, whatever the seeds agree on.
	page, err = Render(record(map[string][]float64{
		"bf16":       {3.0000, 3.0001, 2.9999},
		"tensorwise": {3.0030, 3.0031, 3.0029},
		"e5m2-grads": {3.0060, 3.0061, 3.0059},
	}, "bf16", "tensorwise", "e5m2-grads"), nil, "training/curves.png")
	require.NoError(t, err)
	assert.Equal(t, NoEffect, verdictOf(t, page, talk))
	assert.Contains(t, page, "below the 0.3% this lab calls an effect")
	assert.NotContains(t, page, "| worse |")

	// Resolved gaps in the other direction: E5M2 gradients better than
	// E4M3, deepseek 1% off BF16.
	page, err = Render(record(map[string][]float64{
		"bf16":       {3.0000, 3.0001, 2.9999},
		"tensorwise": {3.0300, 3.0301, 3.0299},
		"e5m2-grads": {2.9900, 2.9901, 2.9899},
		"deepseek":   {3.0300, 3.0301, 3.0299},
	}, "bf16", "tensorwise", "e5m2-grads", "deepseek"), nil, "training/curves.png")
	require.NoError(t, err)
	assert.Equal(t, OtherWay, verdictOf(t, page, talk))
	assert.Equal(t, Beyond, verdictOf(t, page, deepSk))

	// Without deepseek its claim is not measured, and the page says why.
	rec := record(map[string][]float64{
		"bf16":       {3.0000, 3.0001},
		"tensorwise": {3.0030, 3.0031},
		"e5m2-grads": {3.0300, 3.0301},
	}, "bf16", "tensorwise", "e5m2-grads")
	rec.NotRun = map[string]string{"deepseek": "too slow today"}
	page, err = Render(rec, nil, "training/curves.png")
	require.NoError(t, err)
	assert.Equal(t, NotMeasured, verdictOf(t, page, deepSk))
	assert.Contains(t, page, "- deepseek: too slow today.")
	assert.Contains(t, page, "deepseek was not run (see above)")
	assert.Contains(t, page, "its page is [training-reference.md](training-reference.md)")
	assert.Contains(t, page, "-runs train/records/tiny-runs.json.gz")
	assert.Contains(t, page, "all 6 runs took 0 s of wall time")
	rec.CPUSeconds, rec.Load = 1234, "0.50 before, 2.00 after"
	page, err = Render(rec, nil, "training/curves.png")
	require.NoError(t, err)
	assert.Contains(t, page, "all 6 runs took 0 s of wall time (1234 s of CPU time); load average 0.50 before, 2.00 after")
	assert.Contains(t, page, "`fp8lab train --compare test`")

	// One seed: nothing is judged.
	page, err = Render(record(map[string][]float64{
		"bf16":       {3.0},
		"tensorwise": {3.3},
		"e5m2-grads": {3.6},
	}, "bf16", "tensorwise", "e5m2-grads"), nil, "training/curves.png")
	require.NoError(t, err)
	assert.Contains(t, page, "| one seed cannot tell |")
	assert.Equal(t, NoEffect, verdictOf(t, page, talk))
	assert.Contains(t, page, "one seed has no spread")
}

func TestBoundVerdict(t *testing.T) {
	d := func(gap, spread float64) compare.Difference {
		return compare.Difference{GapPct: gap, SpreadPct: spread, PerSeed: []float64{gap - spread/2, gap, gap + spread/2}}
	}
	assert.Equal(t, Consistent, boundVerdict(d(-0.1, 0.1), 0.25).Word)
	assert.Equal(t, CannotTell, boundVerdict(d(0.2, 0.1), 0.25).Word)
	assert.Equal(t, Beyond, boundVerdict(d(-0.4, 0.1), 0.25).Word)
	assert.Contains(t, boundVerdict(d(-0.1, 0.1), 0.25).Why, "at a scale that cannot test it")
}

func TestSpikeSection(t *testing.T) {
	plain := record(map[string][]float64{
		"bf16":       {3.00, 3.03, 2.97},
		"tensorwise": {3.001, 3.031, 2.971},
		"delayed":    {3.001, 3.031, 2.971},
	}, "bf16", "tensorwise", "delayed")
	// The spike costs delayed 1% on every seed and tensorwise nothing
	// that the seeds agree on.
	spike := record(map[string][]float64{
		"bf16":       {3.00, 3.03, 2.97},
		"tensorwise": {3.002, 3.030, 2.972},
		"delayed":    {3.031, 3.061, 3.001},
	}, "bf16", "tensorwise", "delayed")
	spike.Spike = &compare.Spike{Step: 5, Factor: 100}
	page, err := Render(plain, spike, "training/curves.png")
	require.NoError(t, err)
	assert.Contains(t, page, "multiplied by 100 during step 5")
	assert.Contains(t, page, "Under the spike, delayed against current (tensorwise) scaling: **worse**")
	assert.Contains(t, page, "What the spike did to delayed: **worse**")
	assert.Contains(t, page, "What the spike did to tensorwise: **no measurable effect**")
	assert.Contains(t, page, "What the spike did to bf16: **no measurable effect**")
}

// TestClaimQuotesAreVerbatim: a claim's quotations are its source's words
// (a table row's cells joined by " | "), checked against the seed documents
// where they are (FP8LAB_SEEDS, /work/shared/seeds by default); a claim
// without a quotation is marked as a paraphrase.
func TestClaimQuotesAreVerbatim(t *testing.T) {
	dir := os.Getenv("FP8LAB_SEEDS")
	if dir == "" {
		dir = "/work/shared/seeds"
	}
	collapse := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, c := range claims {
		if len(c.Quotes) == 0 {
			assert.True(t, strings.HasPrefix(c.Fact, "(paraphrase) "), "%s: neither quoted nor marked as a paraphrase", c.Title)
			continue
		}
		seed := regexp.MustCompile(`seeds/(\d{3})`).FindStringSubmatch(c.Source)
		require.NotNil(t, seed, "%s: a quotation of a seed document names it", c.Title)
		matches, _ := filepath.Glob(filepath.Join(dir, seed[1]+"_*.txt"))
		if len(matches) != 1 {
			t.Skipf("no seed %s in %s (set FP8LAB_SEEDS)", seed[1], dir)
		}
		b, err := os.ReadFile(matches[0])
		require.NoError(t, err)
		text := collapse(string(b))
		for _, q := range c.Quotes {
			assert.Contains(t, text, strings.ReplaceAll(collapse(q), " | ", ""), "%s: not the source's words", c.Title)
		}
	}
}
