package train

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
)

func TestNamedRecipes(t *testing.T) {
	want := []string{"bf16", "bf16-weights-rtn", "bf16-weights-sr", "deepseek", "delayed", "delayed-nonsat", "e5m2-grads",
		"fast-accum-bwd", "fast-accum-wgrad", "fp32", "mxfp8", "nvfp4", "rowwise", "rowwise-gw-hp", "tensorwise",
		"underflow", "unscaled", "unscaled-e5m2"}
	assert.Equal(t, want, RecipeNames())
	for _, name := range RecipeNames() {
		r := mustRecipe(t, name)
		require.NoError(t, r.Check(), name)
		assert.NotEmpty(t, r.Description, name)
		// JSON round trip.
		b, err := r.MarshalIndented()
		require.NoError(t, err)
		back, err := ParseRecipe(bytes.NewReader(b))
		require.NoError(t, err, "%s:\n%s", name, b)
		assert.Equal(t, r, back, name)
	}
	_, err := RecipeByName("fp9")
	assert.ErrorContains(t, err, "known: bf16")
}

func TestParseRecipeErrors(t *testing.T) {
	for _, c := range []struct{ json, want string }{
		{`{"name":"x","fowrard":{}}`, `unknown field "fowrard"`},
		{`{"name":"x"} {}`, "data after the JSON value"},
		{`null`, "null"},
		{`{"name":"x","name":"y"}`, `key "name" appears twice`},
		{`{"name":"x",`, "recipe JSON"},
		{`{"name":"x","forward":{"input":{"format":"e4m3fz"}}}`, "forward.input"},
		{`{"name":"x","forward":{"grad_output":{"format":"e5m2"}}}`, "grad_output is not used"},
		{`{"name":"x","forward":{"input":{"format":"e4m3fn","granularity":"nvfp4"}}}`, "forward.input"},
		{`{"name":"x","forward":{"input":{"format":"e4m3fn","granularity":"tile7x3"}}}`, "granularity"},
		{`{"name":"x","forward":{"input":{"format":"bf16","granularity":"row"}}}`, "needs an fp8 format"},
		{`{"name":"x","forward":{"input":{"format":"e4m3fn","granularity":"row"}},"scaling":{"delayed":true}}`, "delayed scaling is per tensor"},
		{`{"name":"x","forward":{"input":{"format":"e4m3fn","granularity":"mx"}},"scaling":{"pow2":"down"}}`, "own scale rule"},
		{`{"name":"x","scaling":{"pow2":"sideways"}}`, "sideways"},
		{`{"name":"x","scaling":{"amax_algo":"mean"}}`, "mean"},
		{`{"name":"x","master_weights":"fp16"}`, "master_weights"},
		{`{"name":"x","forward":{"hadamard":16}}`, "weight gradient only"},
		{`{"name":"x","weight_grad":{"hadamard":12}}`, "power of two"},
		{`{"name":"x","forward":{"input":{"format":"e4m3fn"},"accumulator":{"mantissa_bits":13}}}`, "emulated accumulation needs"},
		{`{"name":"x","forward":{"accumulator":{"mantissa_bits":30}}}`, "mantissa bits"},
	} {
		_, err := ParseRecipe(strings.NewReader(c.json))
		if assert.Error(t, err, c.json) {
			assert.Contains(t, err.Error(), c.want, c.json)
		}
	}
	r, err := ParseRecipe(strings.NewReader(`{"name":"mine","forward":{"input":{"format":"E4M3FN","granularity":"tile1x128"},
		"weight":{"format":"e4m3fn","granularity":"block128"}},"scaling":{"margin":1,"pow2":"down"}}`))
	require.NoError(t, err)
	assert.Equal(t, scaling.Tile1x128, r.Forward.Input.Granularity)
	assert.Equal(t, 1, r.Scaling.Margin)
}

// Emulated accumulation multiplies the K-major quantized operands the way
// scaling.ScaledMatMulNT does; with a float32 accumulator it agrees with
// the dequantize-then-GEMM path to float32 rounding.
func TestEmulatedGemm(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 10))
	M, K, N := 5, 300, 7
	a, b := make([]float32, M*K), make([]float32, N*K)
	for i := range a {
		a[i] = float32(r.NormFloat64())
	}
	for i := range b {
		b[i] = float32(r.NormFloat64())
	}
	for _, g := range []scaling.Granularity{scaling.PerTensor, scaling.PerRow, scaling.Tile1x128, scaling.Block128} {
		qa, err := scaling.Quantize(tensor(t, M, K, a), fp8.E4M3FN, g, scaling.Options{})
		require.NoError(t, err)
		qb, err := scaling.Quantize(tensor(t, N, K, b), fp8.E4M3FN, g, scaling.Options{})
		require.NoError(t, err)
		da, err := qa.Dequantize()
		require.NoError(t, err)
		db, err := qb.Dequantize()
		require.NoError(t, err)
		want := make([]float32, M*N)
		gemmNT(want, da.Data, db.Data, M, K, N, 0)
		got := make([]float32, M*N)
		require.NoError(t, emulatedGemm(got, qa, qb, scaling.Float32Accumulator, 0))
		assert.Less(t, relErr(to64(got), to64(want)), 1e-5, g.String())
		fast := make([]float32, M*N)
		require.NoError(t, emulatedGemm(fast, qa, qb, scaling.FastAccumulator, 0))
		assert.NotEqual(t, want, fast, "%v: 14-bit accumulation rounds", g)
		assert.Less(t, relErr(to64(fast), to64(want)), 1e-2, g.String())
	}
	// A kind whose blocks have no transpose cannot take the stored layout.
	for _, g := range scaling.Granularities() {
		if _, ok := g.Transpose(); ok {
			continue
		}
		q, err := scaling.Quantize(tensor(t, 2, 32, make([]float32, 64)), g.ElementFormats()[0], g, scaling.Options{})
		require.NoError(t, err)
		_, err = q.Transpose()
		assert.ErrorIs(t, err, scaling.ErrGranularity, "%s blocks have no transpose", g)
	}
}

func TestOperandStatsCount(t *testing.T) {
	r := &Recipe{Name: "t", Forward: Product{Input: with(e4, scaling.PerTensor), Weight: with(e4, scaling.PerTensor)},
		Scaling: Scaling{Delayed: true, HistoryLen: 4}}
	e, err := newLinearEngine(Tiny(), r, 1)
	require.NoError(t, err)
	// The first delayed scale is 1: 1000 clips at 448, 1e-4 flushes to zero.
	x := []float32{1000, 1e-4, 1, 448}
	w := []float32{1, 1, 1, 1}
	out := make([]float32, 1)
	require.NoError(t, e.forward(0, out, x, w, nil, 1, 4, 1))
	st := e.snapshot()
	require.Len(t, st, 2)
	assert.Equal(t, OperandStats{Layer: "h0.qkv", Product: "forward", Operand: "input", Amax: 1000,
		Overflow: 1, Underflow: 1, Elements: 4}, st[0])
	assert.Equal(t, int64(0), st[1].Overflow+st[1].Underflow)
	assert.Empty(t, e.snapshot(), "a snapshot starts counting afresh")
}

// The output head stays float32 unless the recipe says QuantizeHead.
func TestQuantizeHead(t *testing.T) {
	cfg := Tiny()
	for _, head := range []bool{false, true} {
		r := mustRecipe(t, "tensorwise")
		r.QuantizeHead = head
		m := tinyModel(t, cfg, "fp32", 1)
		lin, err := newLinearEngine(cfg, r, 1)
		require.NoError(t, err)
		m.lin = lin
		sawHead := false
		lin.capture = func(c capturedOperand) { sawHead = sawHead || c.site == cfg.Layers*sitesPerLayer }
		rng := rand.New(rand.NewPCG(1, 1))
		_, err = m.forward(randomTokens(rng, cfg.TokensPerStep()), randomTokens(rng, cfg.TokensPerStep()))
		require.NoError(t, err)
		require.NoError(t, m.backward())
		assert.Equal(t, head, sawHead)
	}
}
