package lessons

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/train"
	"github.com/fp8lab/fp8lab/train/compare"
	"github.com/fp8lab/fp8lab/train/records"
)

// TestLessonsAreRunnable: every lesson names recipes that exist, a
// configuration that exists, its baseline among its recipes, a spike
// inside its run, and a command that names its recipe files by path.
func TestLessonsAreRunnable(t *testing.T) {
	require.NotEmpty(t, All())
	seen := map[string]bool{}
	for _, l := range All() {
		assert.False(t, seen[l.Name], "%s twice", l.Name)
		seen[l.Name] = true
		assert.NotEmpty(t, l.Title, l.Name)
		assert.NotEmpty(t, l.Quotes, l.Name)
		_, err := train.ConfigByName(l.Config)
		require.NoError(t, err, l.Name)
		assert.Contains(t, l.Recipes, l.Baseline, l.Name)
		for _, name := range l.Recipes {
			r, err := Recipe(name)
			require.NoError(t, err, "%s: %s", l.Name, name)
			require.NoError(t, r.Check(), "%s: %s", l.Name, name)
			assert.Equal(t, name, r.Name)
		}
		require.NoError(t, l.Spike.Check(l.Steps), l.Name)
		args := strings.Join(l.Args("docs/training/lessons"), " ")
		for name := range files {
			if slices.Contains(l.Recipes, name) {
				assert.Contains(t, args, "docs/training/lessons/"+name+".json", l.Name)
			}
		}
		got, err := ByName(l.Name)
		require.NoError(t, err)
		assert.Equal(t, l.Name, got.Name)
	}
	_, err := ByName("nosuch")
	assert.ErrorContains(t, err, "known: scaling")
	b, err := Files()
	require.NoError(t, err)
	for name, js := range b {
		r, err := train.ParseRecipe(strings.NewReader(string(js)))
		require.NoError(t, err, name)
		assert.Equal(t, name, r.Name)
	}
}

// talk returns the seed document of the talk, whitespace collapsed, or
// skips: the seeds live beside the project, not in it (FP8LAB_SEEDS names
// their folder; /work/shared/seeds by default).
func seedText(t *testing.T, prefix string) string {
	t.Helper()
	dir := os.Getenv("FP8LAB_SEEDS")
	if dir == "" {
		dir = "/work/shared/seeds"
	}
	matches, _ := filepath.Glob(filepath.Join(dir, prefix+"_*.txt"))
	if len(matches) != 1 {
		t.Skipf("no seed %s in %s (set FP8LAB_SEEDS)", prefix, dir)
	}
	b, err := os.ReadFile(matches[0])
	require.NoError(t, err)
	return collapse(string(b))
}

// collapse turns every run of white space into one space.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestQuotesAreVerbatim: every quotation of the talk is its words, exactly.
func TestQuotesAreVerbatim(t *testing.T) {
	talk := seedText(t, "002")
	for _, l := range All() {
		for _, q := range l.Quotes {
			assert.Contains(t, talk, collapse(q), "%s: not the talk's words", l.Name)
		}
	}
}

// record builds a lesson's record whose final validation losses are
// finals[recipe][seed] (the curves start at 5.5), with dY underflow counts
// under[recipe] of 1000 elements.
func record(l Lesson, finals map[string][]float64, under map[string]int64) *records.Record {
	cfg, _ := train.ConfigByName(l.Config)
	rec := &records.Record{Set: compare.Set{Config: cfg, Steps: l.Steps, Recipes: l.Recipes, Seeds: []uint64{1, 2, 3}}}
	if l.Spike != (compare.Spike{}) {
		sp := l.Spike
		rec.Spike = &sp
	}
	for _, name := range l.Recipes {
		for j, f := range finals[name] {
			r := &train.Result{Steps: l.Steps, TrainLoss: make([]float64, l.Steps), Seed: uint64(j + 1),
				Val: []train.EvalPoint{{Step: 0, Loss: 5.5}, {Step: l.Steps, Loss: f}},
				Stats: []train.StatsPoint{{Step: l.Steps, Operands: []train.OperandStats{
					{Layer: "h0.fc", Product: "input_grad", Operand: "grad_output", Underflow: under[name], Elements: 1000}}}}}
			rec.Runs = append(rec.Runs, r)
		}
	}
	return rec
}

// TestSentencesFollowTheRecords: a lesson's sentence is computed from its
// record: the same lesson says "higher" or "no measurable effect" as the
// numbers say, and a record of another experiment is refused.
func TestSentencesFollowTheRecords(t *testing.T) {
	l, err := ByName("scaling")
	require.NoError(t, err)
	base := []float64{3.00, 3.02, 2.98}
	scaled := func(pct float64) []float64 {
		out := make([]float64, len(base))
		for i, b := range base {
			out[i] = b * (1 + pct/100)
		}
		return out
	}
	s, err := l.Sentence(record(l, map[string][]float64{"bf16": base, "tensorwise": scaled(0.05),
		"unscaled": scaled(10), "unscaled-e5m2": scaled(20)}, map[string]int64{"unscaled": 600, "unscaled-e5m2": 300, "tensorwise": 1}))
	require.NoError(t, err)
	assert.Contains(t, s, "Cast with scale 1, E4M3 ends with a 9.9% higher validation loss than tensorwise on each of the 3 seeds")
	assert.Contains(t, s, "60% of its gradient elements (dY) flushed to zero against 0.1% with scaling")
	assert.Contains(t, s, "E5M2, whose subnormals reach down to 2^-16, ends with a 20% higher")
	assert.NotContains(t, s, "cannot show")

	s, err = l.Sentence(record(l, map[string][]float64{"bf16": base, "tensorwise": scaled(0.05),
		"unscaled": scaled(10), "unscaled-e5m2": scaled(0.1)}, map[string]int64{"unscaled": 600, "unscaled-e5m2": 3}))
	require.NoError(t, err)
	assert.Contains(t, s, "E5M2, whose subnormals reach down to 2^-16, shows no measurable effect against tensorwise")
	assert.Contains(t, s, "so this run cannot show E5M2 failing without scaling")

	other := record(l, map[string][]float64{"bf16": base, "tensorwise": base, "unscaled": base, "unscaled-e5m2": base}, nil)
	other.Steps++
	_, err = l.Sentence(other)
	assert.ErrorContains(t, err, "the lesson long-k")
	other = record(l, map[string][]float64{"bf16": base, "tensorwise": base, "unscaled": base, "unscaled-e5m2": base}, nil)
	other.Spike = &compare.Spike{Step: 5, Factor: 10}
	_, err = l.Sentence(other)
	assert.ErrorContains(t, err, "spike")
}

// TestShippedLessons: every lesson's shipped record is its experiment (the
// same recipes, configuration, steps and spike, 3 seeds), and its sentence
// is computed without error and names no recipe it did not run.
func TestShippedLessons(t *testing.T) {
	word := regexp.MustCompile(`[a-z0-9]+(-[a-z0-9]+)+`)
	for _, l := range All() {
		rec, err := records.Lesson(l.Name)
		require.NoError(t, err, l.Name)
		assert.Len(t, rec.Seeds, Seeds, l.Name)
		s, err := l.Sentence(rec)
		require.NoError(t, err, l.Name)
		assert.NotEmpty(t, s)
		assert.NotContains(t, s, "could not be judged", l.Name)
		// Each lesson shows an effect beyond the seeds' spread (or runs
		// stopped by an Inf or a NaN), and where a comparison shows none,
		// the sentence says this model cannot show it.
		assert.True(t, strings.Contains(s, "on each of the 3 seeds") || strings.Contains(s, "stopped on 3 of 3 seeds"),
			"%s shows no effect: %s", l.Name, s)
		for _, w := range word.FindAllString(s, -1) {
			if _, err := train.RecipeByName(w); err == nil || files[w] != nil {
				assert.Contains(t, l.Recipes, w, "%s's sentence names %s", l.Name, w)
			}
		}
	}
}
