package compare

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/train"
)

// testCorpus is a small deterministic text, enough for the tiny configuration.
func testCorpus(t *testing.T) *train.Corpus {
	t.Helper()
	var b strings.Builder
	for i := range 400 {
		b.WriteString([]string{"func main() { x := 1 }\n", "for i := range n {\n", "\treturn err\n", "// a comment\n"}[i%4*(i%3+1)%4])
	}
	c, err := train.TextCorpus([]byte(b.String()), "test text")
	require.NoError(t, err)
	return c
}

func recipes(t *testing.T, names ...string) []*train.Recipe {
	t.Helper()
	var out []*train.Recipe
	for _, n := range names {
		r, err := train.RecipeByName(n)
		require.NoError(t, err)
		out = append(out, r)
	}
	return out
}

func TestRunMatchesTrainRun(t *testing.T) {
	data := testCorpus(t)
	cfg := train.Tiny()
	for _, r := range recipes(t, "fp32", "tensorwise", "delayed") {
		want, err := train.Run(cfg, r, 7, 12, data)
		require.NoError(t, err)
		var calls int
		got, stopped, err := Run(context.Background(), cfg, r, 7, 12, data, Spike{}, func(s Step) {
			calls++
			assert.Equal(t, calls, s.Step)
			assert.Equal(t, 12, s.Steps)
		})
		require.NoError(t, err)
		assert.False(t, stopped)
		assert.Equal(t, 12, calls)
		got.Seconds, want.Seconds = 0, 0
		assert.Equal(t, want, got, r.Name)
	}
}

func TestRunStopsWithTheRunSoFar(t *testing.T) {
	data := testCorpus(t)
	ctx, cancel := context.WithCancel(context.Background())
	r := recipes(t, "tensorwise")[0]
	res, stopped, err := Run(ctx, train.Tiny(), r, 1, 50, data, Spike{}, func(s Step) {
		if s.Step == 3 {
			cancel()
		}
	})
	require.NoError(t, err)
	assert.True(t, stopped)
	assert.Equal(t, 3, res.Steps)
	assert.Len(t, res.TrainLoss, 3)
	assert.Equal(t, 3, res.Val[len(res.Val)-1].Step, "a last validation loss at the step it stopped at")
	assert.Equal(t, 3, res.Stats[len(res.Stats)-1].Step)
}

func TestBounds(t *testing.T) {
	data := testCorpus(t)
	r := recipes(t, "fp32")
	_, _, err := Run(context.Background(), train.Tiny(), r[0], 1, MaxSteps+1, data, Spike{}, nil)
	assert.ErrorContains(t, err, "bound")
	p := Plan{Config: train.Tiny(), Recipes: r, Seeds: []uint64{1}, Steps: 0, Data: data}
	assert.ErrorContains(t, p.Check(), "0 steps")
	p.Steps, p.Recipes = 1, append(r, r[0])
	assert.ErrorContains(t, p.Check(), "twice")
	p.Recipes, p.Spike = r, Spike{Step: 2, Factor: 10}
	assert.ErrorContains(t, p.Check(), "want steps within 1..1")
	p.Spike = Spike{Step: 1, Factor: float32(math.Inf(1))}
	assert.ErrorContains(t, p.Check(), "positive finite")
}

// A spike is what Trainer.SetSpike does, at the same step of every run.
func TestSpike(t *testing.T) {
	data := testCorpus(t)
	r := recipes(t, "delayed")[0]
	tr, err := train.NewTrainer(train.Tiny(), r, 1, 8, data)
	require.NoError(t, err)
	tr.SetSpike(4, 1, 1000)
	var want []float64
	for range 8 {
		st, err := tr.Step()
		require.NoError(t, err)
		want = append(want, st.Loss)
	}
	got, _, err := Run(context.Background(), train.Tiny(), r, 1, 8, data, Spike{Step: 4, Factor: 1000}, nil)
	require.NoError(t, err)
	assert.Equal(t, want, got.TrainLoss)
	plain, _, err := Run(context.Background(), train.Tiny(), r, 1, 8, data, Spike{}, nil)
	require.NoError(t, err)
	assert.Equal(t, plain.TrainLoss[:3], got.TrainLoss[:3])
	assert.NotEqual(t, plain.TrainLoss[3], got.TrainLoss[3])
}

// The runs share nothing, so running them on two workers gives the same
// bits as one after another.
func TestParallelEqualsSerial(t *testing.T) {
	data := testCorpus(t)
	plan := Plan{Config: train.Tiny(), Recipes: recipes(t, "fp32", "bf16", "rowwise", "nvfp4", "bf16-weights-sr"),
		Seeds: []uint64{1, 2}, Steps: 10, Data: data}
	serial, err := Compare(context.Background(), plan)
	require.NoError(t, err)
	plan.Workers = 3
	parallel, err := Compare(context.Background(), plan)
	require.NoError(t, err)
	require.Len(t, parallel.Runs, 10)
	for k := range serial.Runs {
		s, p := serial.Runs[k], parallel.Runs[k]
		s.Seconds, p.Seconds = 0, 0
		require.Equal(t, s, p, "run %d", k)
		for i := range s.TrainLoss { // bit for bit, not just ==
			require.Equal(t, math.Float64bits(s.TrainLoss[i]), math.Float64bits(p.TrainLoss[i]))
		}
	}
	assert.NotEqual(t, serial.Run(0, 0).Val[0], serial.Run(0, 1).Val[0])
}

func TestCompareStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	plan := Plan{Config: train.Tiny(), Recipes: recipes(t, "fp32", "bf16"), Seeds: []uint64{1, 2}, Steps: 20,
		Data: testCorpus(t), OnStep: func(s Step) {
			if s.Step == 5 {
				cancel()
			}
		}}
	set, err := Compare(ctx, plan)
	require.NoError(t, err)
	assert.True(t, set.Stopped)
	assert.Equal(t, 5, set.Runs[0].Steps)
	assert.Nil(t, set.Runs[3])
	sum, err := Summarize(set, "")
	require.NoError(t, err)
	assert.Equal(t, 0, sum.Rows[0].Seeds, "runs cut short are not summarized")
	assert.Nil(t, sum.Rows[0].Finals)
	_, err = sum.Diff("fp32", "bf16", ValLoss)
	assert.Error(t, err)
}
