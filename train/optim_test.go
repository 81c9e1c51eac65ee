package train

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/fp8"
)

func TestLRSchedule(t *testing.T) {
	o := defaultOptim(1e-3, 10)
	assert.InDelta(t, 1e-4, o.LRAt(0, 100), 1e-12)
	assert.InDelta(t, 1e-3, o.LRAt(9, 100), 1e-12)
	assert.InDelta(t, 1e-3, o.LRAt(10, 100), 1e-12) // cosine starts at the peak
	assert.InDelta(t, 1e-4, o.LRAt(99, 100), 1e-12) // and ends at MinLRFrac·LR
	assert.InDelta(t, 0.55e-3, o.LRAt(10+89/2, 100), 2e-5)
	for s := 10; s < 99; s++ {
		assert.LessOrEqual(t, o.LRAt(s+1, 100), o.LRAt(s, 100))
	}
}

// One AdamW step from zero state moves every parameter by lr·sign(g)
// (bias-corrected m/√v is ±1), plus decoupled weight decay on matrices.
func TestAdamWFirstStep(t *testing.T) {
	specs := []paramSpec{{"w", 1, 2, true}, {"b", 1, 2, false}}
	o := defaultOptim(0.1, 0)
	o.ClipNorm = 0
	a := newAdamW(o, specs, "fp32", 1)
	params := []float32{1, -1, 1, -1}
	grads := []float32{0.5, -2, -0.5, 3}
	a.update(params, grads, 0.1, 1)
	want := []float64{1 - 0.1*(1+0.1), -1 - 0.1*(-1-0.1), 1 + 0.1, -1 - 0.1}
	for i := range want {
		assert.InDelta(t, want[i], float64(params[i]), 1e-6, "param %d", i)
	}
}

func TestGradientClipping(t *testing.T) {
	specs := []paramSpec{{"b", 1, 2, false}}
	o := defaultOptim(0.1, 0)
	o.ClipNorm = 1
	a := newAdamW(o, specs, "fp32", 1)
	params, grads := []float32{0, 0}, []float32{3, 4}
	norm := a.update(params, grads, 0.1, 1)
	assert.InDelta(t, 5, norm, 1e-12)
	// After clipping to norm 1 the first moment is 0.1·(0.6, 0.8).
	assert.InDelta(t, 0.06, float64(a.m[0]), 1e-7)
	assert.InDelta(t, 0.08, float64(a.m[1]), 1e-7)
}

// The bit-trick BF16 rounding agrees with the fp8 package's BF16 encoder.
func TestBF16RoundingMatchesFP8(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 9))
	vals := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 1.00390625, 1.01171875, 3.4e38, -3.4e38,
		math.MaxFloat32, 1e-40, -1e-41, float32(math.Inf(1)), float32(math.Inf(-1))}
	for range 20000 {
		vals = append(vals, math.Float32frombits(r.Uint32()))
	}
	for _, x := range vals {
		if x != x {
			assert.True(t, bf16Nearest(x) != bf16Nearest(x))
			continue
		}
		want := fp8.BF16.Decode(fp8.BF16.Encode32(x))
		assert.Equal(t, math.Float32bits(want), math.Float32bits(bf16Nearest(x)), "RTN %g", x)
		w := r.Uint32()
		code, err := fp8.BF16.EncodeStochastic(float64(x), w, 16)
		require.NoError(t, err)
		assert.Equal(t, math.Float32bits(fp8.BF16.Decode(code)), math.Float32bits(bf16Stochastic(x, w)), "SR %g with %#x", x, w)
	}
}

// BF16 master weights: round to nearest loses an update smaller than half
// an ulp every time; stochastic rounding keeps it on average.
func TestBF16MasterWeightUpdates(t *testing.T) {
	specs := []paramSpec{{"b", 1, 4096, false}}
	o := defaultOptim(1, 0)
	o.ClipNorm, o.Beta1, o.Beta2 = 0, 0, 0
	for _, master := range []string{"bf16-rtn", "bf16-sr"} {
		a := newAdamW(o, specs, master, 5)
		params := make([]float32, 4096)
		grads := make([]float32, 4096)
		for i := range params {
			params[i], grads[i] = 1, -1
		}
		// Each step adds lr·1 = 2^-10, an eighth of BF16's ulp at 1 (2^-7).
		for s := 1; s <= 8; s++ {
			a.update(params, grads, 1.0/1024, s)
		}
		var mean float64
		for _, p := range params {
			mean += float64(p)
		}
		mean /= float64(len(params))
		if master == "bf16-rtn" {
			assert.Equal(t, 1.0, mean, "RTN swallows the small updates")
		} else {
			assert.InDelta(t, 1+8.0/1024, mean, 1e-3, "SR keeps them on average")
		}
	}
}
