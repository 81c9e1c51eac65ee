package train

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Gradient checks: every layer's backward pass, run in float64, is compared
// with central finite differences of a scalar loss L = Σ out·R (R random,
// so dout = R), with step h = 1e-5. The tolerance is on the relative error
// of the whole gradient vector, ‖analytic − numeric‖ / max(‖analytic‖,
// ‖numeric‖) ≤ 1e-6: the truncation error of central differences is O(h²)
// and the rounding error O(ε/h) ≈ 1e-11, so anything above 1e-6 is a bug.
// Then the float32 instantiation (the one the model runs) must agree with
// the float64 gradient to 1e-4, float32's accumulated rounding.
const (
	fdStep    = 1e-5
	fdTol64   = 1e-6
	fdTol32vs = 1e-4
)

func randVec(r *rand.Rand, n int, scale float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = r.NormFloat64() * scale
	}
	return v
}

func to32(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}

func to64(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

func dot64(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// relErr is ‖a−b‖ / max(‖a‖, ‖b‖) (0 when both are zero).
func relErr(a, b []float64) float64 {
	var d, na, nb float64
	for i := range a {
		d += (a[i] - b[i]) * (a[i] - b[i])
		na += a[i] * a[i]
		nb += b[i] * b[i]
	}
	den := math.Sqrt(max(na, nb))
	if den == 0 {
		return 0
	}
	return math.Sqrt(d) / den
}

// numericGrad returns ∂loss/∂x by central differences, perturbing x in place.
func numericGrad(x []float64, loss func() float64) []float64 {
	g := make([]float64, len(x))
	for i := range x {
		old := x[i]
		x[i] = old + fdStep
		lp := loss()
		x[i] = old - fdStep
		lm := loss()
		x[i] = old
		g[i] = (lp - lm) / (2 * fdStep)
	}
	return g
}

func checkGrad(t *testing.T, name string, x []float64, loss func() float64, analytic []float64) {
	t.Helper()
	num := numericGrad(x, loss)
	e := relErr(analytic, num)
	assert.LessOrEqual(t, e, fdTol64, "%s: relative gradient error %.3g", name, e)
	assert.Greater(t, math.Sqrt(dot64(num, num)), 0.0, "%s: zero gradient checks nothing", name)
}

func checkClose32(t *testing.T, name string, got32 []float32, want64 []float64) {
	t.Helper()
	e := relErr(to64(got32), want64)
	assert.LessOrEqual(t, e, fdTol32vs, "%s: float32 backward differs from float64 by %.3g", name, e)
}

func TestEncoderGrad(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	B, T, C, V := 2, 3, 4, 5
	tokens := []int{0, 4, 2, 2, 1, 4}
	wte, wpe, R := randVec(r, V*C, 1), randVec(r, T*C, 1), randVec(r, B*T*C, 1)
	out := make([]float64, B*T*C)
	loss := func() float64 { encoderForward(out, tokens, wte, wpe, B, T, C); return dot64(out, R) }
	dwte, dwpe := make([]float64, V*C), make([]float64, T*C)
	encoderBackward(dwte, dwpe, R, tokens, B, T, C)
	checkGrad(t, "wte", wte, loss, dwte)
	checkGrad(t, "wpe", wpe, loss, dwpe)
}

func TestLayernormGrad(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	N, C := 3, 8
	inp, w, b, R := randVec(r, N*C, 2), randVec(r, C, 1), randVec(r, C, 1), randVec(r, N*C, 1)
	out, mean, rstd := make([]float64, N*C), make([]float64, N), make([]float64, N)
	loss := func() float64 { layernormForward(out, mean, rstd, inp, w, b, N, C); return dot64(out, R) }
	loss()
	din, dw, db := make([]float64, N*C), make([]float64, C), make([]float64, C)
	layernormBackward(din, dw, db, R, inp, w, mean, rstd, N, C)
	checkGrad(t, "inp", inp, loss, din)
	checkGrad(t, "weight", w, loss, dw)
	checkGrad(t, "bias", b, loss, db)

	// float32 against float64
	o32, m32, s32 := make([]float32, N*C), make([]float32, N), make([]float32, N)
	layernormForward(o32, m32, s32, to32(inp), to32(w), to32(b), N, C)
	d32, dw32, db32 := make([]float32, N*C), make([]float32, C), make([]float32, C)
	layernormBackward(d32, dw32, db32, to32(R), to32(inp), to32(w), m32, s32, N, C)
	checkClose32(t, "layernorm inp", d32, din)
	checkClose32(t, "layernorm weight", dw32, dw)
}

func TestAttentionGrad(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 3))
	B, T, C, NH := 2, 4, 8, 2
	qkv, R := randVec(r, B*T*3*C, 1), randVec(r, B*T*C, 1)
	out, att := make([]float64, B*T*C), make([]float64, B*NH*T*T)
	loss := func() float64 { attentionForward(out, att, qkv, B, T, C, NH); return dot64(out, R) }
	loss()
	dqkv := make([]float64, len(qkv))
	attentionBackward(dqkv, R, qkv, att, make([]float64, B*NH*T), B, T, C, NH)
	checkGrad(t, "qkv", qkv, loss, dqkv)

	// Causality: the output at t does not depend on later tokens.
	before := append([]float64(nil), out...)
	qkv[(0*T+T-1)*3*C+C] += 1 // a key of the last position of batch 0
	loss()
	for tt := 0; tt < T-1; tt++ {
		for c := 0; c < C; c++ {
			require.Equal(t, before[tt*C+c], out[tt*C+c], "position %d saw the future", tt)
		}
	}
	qkv[(0*T+T-1)*3*C+C] -= 1

	o32, a32 := make([]float32, B*T*C), make([]float32, B*NH*T*T)
	q32 := to32(qkv)
	attentionForward(o32, a32, q32, B, T, C, NH)
	d32 := make([]float32, len(qkv))
	attentionBackward(d32, to32(R), q32, a32, make([]float32, B*NH*T), B, T, C, NH)
	checkClose32(t, "attention", d32, dqkv)
}

func TestGeluGrad(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 4))
	x, R := randVec(r, 20, 2), randVec(r, 20, 1)
	out := make([]float64, 20)
	loss := func() float64 { geluForward(out, x); return dot64(out, R) }
	dx := make([]float64, 20)
	geluBackward(dx, x, R)
	checkGrad(t, "gelu", x, loss, dx)
	d32 := make([]float32, 20)
	geluBackward(d32, to32(x), to32(R))
	checkClose32(t, "gelu", d32, dx)
}

func TestCrossEntropyGrad(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 5))
	N, V := 3, 7
	logits := randVec(r, N*V, 2)
	targets := []int{0, 6, 3}
	probs := make([]float64, N*V)
	loss := func() float64 { return crossEntropyForward(probs, logits, targets, N, V) }
	l := loss()
	d := make([]float64, N*V)
	crossEntropyBackward(d, probs, targets, N, V)
	checkGrad(t, "logits", logits, loss, d)

	// Uniform logits give ln V.
	zero := make([]float32, N*V)
	assert.InDelta(t, math.Log(float64(V)), crossEntropyForward(make([]float32, N*V), zero, targets, N, V), 1e-6)
	assert.Greater(t, l, 0.0)
}

func TestMatmulGrad(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 6))
	N, IC, OC := 3, 4, 5
	inp, w, b, R := randVec(r, N*IC, 1), randVec(r, OC*IC, 1), randVec(r, OC, 1), randVec(r, N*OC, 1)
	out := make([]float64, N*OC)
	loss := func() float64 { matmulForward(out, inp, w, b, N, IC, OC); return dot64(out, R) }
	din, dw, db := make([]float64, N*IC), make([]float64, OC*IC), make([]float64, OC)
	matmulBackward(din, dw, db, R, inp, w, N, IC, OC)
	checkGrad(t, "inp", inp, loss, din)
	checkGrad(t, "weight", w, loss, dw)
	checkGrad(t, "bias", b, loss, db)
}

// The fp32 recipe's linear layer (gonum, K-major operands, transposes)
// computes what the reference matmul computes.
func TestLinearEngineFP32MatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 7))
	N, IC, OC := 6, 5, 7
	inp, w, b, dout := randVec(r, N*IC, 1), randVec(r, OC*IC, 1), randVec(r, OC, 1), randVec(r, N*OC, 1)
	rec, err := RecipeByName("fp32")
	require.NoError(t, err)
	e, err := newLinearEngine(Tiny(), rec, 1)
	require.NoError(t, err)

	want := make([]float64, N*OC)
	matmulForward(want, inp, w, b, N, IC, OC)
	got := make([]float32, N*OC)
	require.NoError(t, e.forward(0, got, to32(inp), to32(w), to32(b), N, IC, OC))
	checkClose32(t, "forward", got, want)

	din, dw, db := make([]float64, N*IC), make([]float64, OC*IC), make([]float64, OC)
	matmulBackward(din, dw, db, dout, inp, w, N, IC, OC)
	din32, dw32, db32 := make([]float32, N*IC), make([]float32, OC*IC), make([]float32, OC)
	require.NoError(t, e.backward(0, din32, dw32, db32, to32(dout), to32(inp), to32(w), N, IC, OC))
	checkClose32(t, "dinp", din32, din)
	checkClose32(t, "dweight", dw32, dw)
	checkClose32(t, "dbias", db32, db)
}
