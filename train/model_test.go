package train

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func tinyModel(t *testing.T, cfg Config, recipe string, seed uint64) *gpt {
	t.Helper()
	rec, err := RecipeByName(recipe)
	require.NoError(t, err)
	lin, err := newLinearEngine(cfg, rec, seed)
	require.NoError(t, err)
	return newModel(cfg, lin, seed)
}

func randomTokens(r *rand.Rand, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = r.IntN(Vocab)
	}
	return out
}

func TestInitialLossIsLogVocab(t *testing.T) {
	cfg := Classroom()
	m := tinyModel(t, cfg, "fp32", 1)
	r := rand.New(rand.NewPCG(2, 2))
	loss, err := m.forward(randomTokens(r, cfg.TokensPerStep()), randomTokens(r, cfg.TokensPerStep()))
	require.NoError(t, err)
	// Small initial weights give nearly uniform predictions.
	assert.InDelta(t, math.Log(Vocab), loss, 0.05)
}

// The whole model's backward pass against central differences of its
// float32 loss. float32 rounding makes differences noisy (the loss is
// ~5.5 with ulp ~5e-7), so the step is larger (h = 1e-2 on weights of
// size ~0.02–1, the loss is smooth at that scale) and the check covers the
// 40 parameters with the largest gradients, with relative error ≤ 1e-3
// (measured: 1.1e-4).
func TestModelGradient(t *testing.T) {
	for _, c := range []struct {
		tied  bool
		spike float32
	}{{true, 0}, {false, 0}, {true, 3}} {
		tied := c.tied
		cfg := Tiny()
		cfg.TiedHead = tied
		m := tinyModel(t, cfg, "fp32", 3)
		m.spike = c.spike // an activation spike must be differentiated too
		r := rand.New(rand.NewPCG(4, 4))
		tokens, targets := randomTokens(r, cfg.TokensPerStep()), randomTokens(r, cfg.TokensPerStep())
		// Larger weights than the initialization, so every layer matters.
		for i := range m.params {
			m.params[i] += float32(r.NormFloat64() * 0.3)
		}
		_, err := m.forward(tokens, targets)
		require.NoError(t, err)
		require.NoError(t, m.backward())
		grads := append([]float32(nil), m.grads...)

		idx := topK(grads, 40)
		var analytic, numeric []float64
		const h = 1e-2
		for _, i := range idx {
			old := m.params[i]
			m.params[i] = old + h
			lp, err := m.forward(tokens, targets)
			require.NoError(t, err)
			m.params[i] = old - h
			lm, err := m.forward(tokens, targets)
			require.NoError(t, err)
			m.params[i] = old
			analytic = append(analytic, float64(grads[i]))
			numeric = append(numeric, (lp-lm)/(2*h))
		}
		e := relErr(analytic, numeric)
		assert.LessOrEqual(t, e, 1e-3, "tied=%v spike=%v: relative error %.3g", tied, c.spike, e)
		t.Logf("tied=%v spike=%v: whole-model relative gradient error %.3g over %d parameters", tied, c.spike, e, len(idx))
	}
}

// topK returns the indices of the k largest |g|, with ties by index.
func topK(g []float32, k int) []int {
	idx := make([]int, 0, k)
	used := make([]bool, len(g))
	for range k {
		best := -1
		for i, v := range g {
			if !used[i] && (best < 0 || math.Abs(float64(v)) > math.Abs(float64(g[best]))) {
				best = i
			}
		}
		used[best] = true
		idx = append(idx, best)
	}
	return idx
}

// Every parameter tensor receives a gradient (nothing is disconnected).
func TestEveryParameterGetsGradient(t *testing.T) {
	cfg := Tiny()
	cfg.TiedHead = false
	m := tinyModel(t, cfg, "fp32", 5)
	r := rand.New(rand.NewPCG(6, 6))
	_, err := m.forward(randomTokens(r, cfg.TokensPerStep()), randomTokens(r, cfg.TokensPerStep()))
	require.NoError(t, err)
	require.NoError(t, m.backward())
	off := 0
	for _, s := range m.specs {
		n := s.Rows * s.Cols
		assert.Greater(t, gradNorm(m.grads[off:off+n]), 0.0, s.Name)
		off += n
	}
}
