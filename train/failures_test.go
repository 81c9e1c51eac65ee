package train

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
)

// TestFailureRecipes: every recipe that exists to show a failure says what
// it shows, in one line.
func TestFailureRecipes(t *testing.T) {
	for _, name := range []string{"unscaled", "unscaled-e5m2", "underflow", "delayed-nonsat", "fast-accum-wgrad"} {
		r := mustRecipe(t, name)
		assert.NotEmpty(t, r.Shows, name)
		assert.NotContains(t, r.Shows, "\n", name)
	}
	assert.True(t, mustRecipe(t, "unscaled").Scaling.None)
	assert.Equal(t, 16, mustRecipe(t, "underflow").Scaling.Margin)
	assert.Equal(t, OverflowNonsaturating, mustRecipe(t, "delayed-nonsat").Overflow)
}

// Scaling none is a plain cast: every code is fp8's own encoding of the
// value, with scale 1; values below the smallest subnormal flush to zero.
func TestUnscaledIsAPlainCast(t *testing.T) {
	for _, name := range []string{"unscaled", "unscaled-e5m2"} {
		r := mustRecipe(t, name)
		e, err := newLinearEngine(Tiny(), r, 1)
		require.NoError(t, err)
		var seen []capturedOperand
		e.capture = func(c capturedOperand) { seen = append(seen, c) }
		x := []float32{1e-9, 3e-3, 0.5, 1000, -2e-5, 7}
		w := []float32{1, 2, 3, 4, 5, 6}
		out := make([]float32, 1)
		require.NoError(t, e.forward(0, out, x, w, nil, 1, 6, 1))
		require.NotEmpty(t, seen, name)
		for _, c := range seen {
			f := c.q.Format
			assert.Equal(t, []float32{1}, c.q.Scales, name)
			for i, v := range c.input.Data {
				want, err := f.Encode32(v, fp8.Mode{})
				require.NoError(t, err)
				assert.Equal(t, want, c.q.Codes[i], "%s: %g", name, v)
			}
		}
		assert.Positive(t, e.snapshot()[0].Underflow, "%s: 1e-9 flushes to zero", name)
	}
}

// The MX scale rule of a recipe reaches scaling: ceil gives
// 2^ceil(log2(amax/Max)), which never saturates the block maximum. It
// reaches every kind whose scales are E8M0 codes (scaling's table), not
// only mx: the forward input of a recipe with the kind takes the rule.
func TestMXRounding(t *testing.T) {
	x := make([]float32, 32)
	for i := range x {
		x[i] = float32(i) * 17.5 // amax 542.5: between 448 and 2·448
	}
	xt, err := scaling.FromSlice(1, 32, x)
	require.NoError(t, err)
	kinds := 0
	for _, g := range scaling.Granularities() {
		if g.Scales() != scaling.ScaleE8M0 {
			continue
		}
		kinds++
		for _, rule := range []string{"", "floor", "ceil", "rceil"} {
			r := mustRecipe(t, "mxfp8")
			r.Forward.Input.Granularity = g
			r.Scaling.MXRounding = rule
			require.NoError(t, r.Check(), "%s %s", g, rule)
			e, err := newLinearEngine(Tiny(), r, 1)
			require.NoError(t, err)
			var q *scaling.Quantized
			e.capture = func(c capturedOperand) {
				if c.role == 0 {
					q = c.q
				}
			}
			out := make([]float32, 1)
			require.NoError(t, e.forward(0, out, x, make([]float32, 32), nil, 1, 32, 1))
			require.NotNil(t, q)
			want := fp8.ScaleFloor
			if rule == "ceil" || rule == "rceil" {
				want = fp8.ScaleCeil
			}
			ref, err := scaling.Quantize(xt, fp8.E4M3FN, g, scaling.Options{MXRounding: want})
			require.NoError(t, err)
			assert.Equal(t, ref.ScaleCodes, q.ScaleCodes, "%s %s", g, rule)
			if g == scaling.MX { // one block: the code from fp8.MXScale directly
				code, err := fp8.MXScale(542.5, fp8.E4M3FN, want)
				require.NoError(t, err)
				assert.Equal(t, []uint8{code}, q.ScaleCodes, rule)
			}
		}
	}
	assert.Positive(t, kinds)
}

func TestRecipeChecksNewFields(t *testing.T) {
	for _, c := range []struct{ json, want string }{
		{`{"name":"x","overflow":"wrap"}`, `overflow "wrap"`},
		{`{"name":"x","scaling":{"none":true,"delayed":true}}`, "scaling none casts with scale 1"},
		{`{"name":"x","scaling":{"none":true,"margin":3}}`, "scaling none casts with scale 1"},
		{`{"name":"x","forward":{"input":{"format":"e4m3fn","granularity":"row"}},"scaling":{"none":true}}`, "one scale of 1 per tensor"},
		{`{"name":"x","scaling":{"mx_rounding":"ceil"}}`, "needs an operand with E8M0 (MX) scales"},
		{`{"name":"x","forward":{"input":{"format":"e4m3fn","granularity":"mx"}},"scaling":{"mx_rounding":"up"}}`, `mx_rounding "up"`},
	} {
		_, err := ParseRecipe(strings.NewReader(c.json))
		if assert.Error(t, err, c.json) {
			assert.Contains(t, err.Error(), c.want, c.json)
		}
	}
}

// spikeRecipe is delayed-nonsat with 2^8 of headroom: it meets no
// overflow in the tiny configuration's first steps, only the spike's.
func spikeRecipe(t *testing.T) *Recipe {
	r := mustRecipe(t, "delayed-nonsat")
	r.Scaling.Margin = 8
	return r
}

// TestNonsaturatingSpikeStops: under a spike, a delayed scale from earlier
// steps pushes the GELU output past E4M3FN's largest value; a
// non-saturating cast makes it NaN, and the run stops at that step with a
// message naming the step, the layer, the product and the operand. The
// same recipe with saturating casts trains on.
func TestNonsaturatingSpikeStops(t *testing.T) {
	data := testCorpus(t)
	tr, err := NewTrainer(Tiny(), spikeRecipe(t), 1, 12, data)
	require.NoError(t, err)
	tr.SetSpike(6, 1, 1e6)
	var stepErr error
	for s := 1; s <= 12 && stepErr == nil; s++ {
		_, stepErr = tr.Step()
	}
	var nf *NonFiniteError
	require.True(t, errors.As(stepErr, &nf), "%v", stepErr)
	assert.Equal(t, 6, nf.Step)
	assert.Equal(t, "h0.fcproj", nf.Layer)
	assert.Equal(t, "forward", nf.Product)
	assert.Equal(t, "input", nf.Operand)
	assert.Positive(t, nf.Count)
	assert.Equal(t, "E4M3FN", nf.Format)
	msg := stepErr.Error()
	for _, want := range []string{"step 6", "h0.fcproj", "forward", "operand input", "non-saturating", "training stops"} {
		assert.Contains(t, msg, want)
	}
	assert.Equal(t, 5, tr.Steps(), "the step that met the NaN did not count")

	// train.Run keeps the run so far and says why it ended.
	res, err := Run(Tiny(), spikeRecipe(t), 1, 12, data)
	require.NoError(t, err, "no spike, no NaN")
	assert.Nil(t, res.Diverged)

	saturating := spikeRecipe(t)
	saturating.Overflow = OverflowSaturate
	tr, err = NewTrainer(Tiny(), saturating, 1, 12, data)
	require.NoError(t, err)
	tr.SetSpike(6, 1, 1e6)
	for range 12 {
		_, err := tr.Step()
		require.NoError(t, err, "saturating casts clip the spike")
	}
}

// A spike of several steps multiplies each of them; the steps around it
// train as without a spike.
func TestSpikeLength(t *testing.T) {
	data := testCorpus(t)
	losses := func(step, length int) []float64 {
		tr, err := NewTrainer(Tiny(), mustRecipe(t, "fp32"), 1, 8, data)
		require.NoError(t, err)
		tr.SetSpike(step, length, 50)
		var out []float64
		for range 8 {
			st, err := tr.Step()
			require.NoError(t, err)
			out = append(out, st.Loss)
		}
		return out
	}
	plain, one, three := losses(0, 0), losses(3, 1), losses(3, 3)
	assert.Equal(t, plain[:2], three[:2])
	assert.Equal(t, one[:3], three[:3], "the first spiked step is the same")
	assert.NotEqual(t, one[3], three[3], "the second step is spiked too")
	assert.NotEqual(t, plain[2], three[2])
}

// A loss that is not finite stops the run, as a NonFiniteError naming the
// step (a NaN weight makes one).
func TestNonFiniteLoss(t *testing.T) {
	tr, err := NewTrainer(Tiny(), mustRecipe(t, "fp32"), 1, 4, testCorpus(t))
	require.NoError(t, err)
	_, err = tr.Step()
	require.NoError(t, err)
	for i := range tr.model.p.wte {
		tr.model.p.wte[i] = float32(math.NaN())
	}
	_, err = tr.Step()
	var nf *NonFiniteError
	require.True(t, errors.As(err, &nf), "%v", err)
	assert.Equal(t, 2, nf.Step)
	assert.Equal(t, "loss", nf.What)
	assert.Equal(t, "NaN", nf.Loss)
	assert.EqualError(t, err, "train: step 2: the loss is NaN; training stops")
	_, err = tr.ValLoss()
	assert.EqualError(t, err, "train: validation after step 1: the loss is NaN; training stops")
}

func TestGradientErrorNamesTheLayer(t *testing.T) {
	cfg := Tiny()
	m := tinyModel(t, cfg, "fp32", 1)
	assert.Nil(t, m.gradientError())
	off := 0
	for _, s := range m.specs {
		if s.Name == "h0.fc.w" {
			break
		}
		off += s.Rows * s.Cols
	}
	m.grads[off+3] = float32(math.Inf(1))
	e := m.gradientError()
	require.NotNil(t, e)
	assert.Equal(t, "h0.fc", e.Layer)
	assert.Equal(t, "weight_grad", e.Product)
	assert.Equal(t, 1, e.Count)
	m.grads[off+3] = 0
	m.grads[0] = float32(math.NaN())
	e = m.gradientError()
	require.NotNil(t, e)
	assert.Equal(t, "wte", e.Layer)
}

func TestParseConfig(t *testing.T) {
	c, err := ParseConfig(strings.NewReader(`{"name": "wide", "layers": 2, "width": 64, "heads": 4, "context": 32,
		"batch": 8, "tied_head": true, "optim": {"lr": 0.003, "warmup": 20}, "eval_every": 25, "eval_batches": 4, "steps": 400}`))
	require.NoError(t, err)
	assert.Equal(t, 400, c.Steps)
	assert.Equal(t, 0.003, c.Optim.LR)
	assert.Equal(t, 0.95, c.Optim.Beta2, "a field left out takes the named configurations' value")
	for _, name := range ConfigNames() {
		want, err := ConfigByName(name)
		require.NoError(t, err)
		var b bytes.Buffer
		require.NoError(t, json.NewEncoder(&b).Encode(want))
		got, err := ParseConfig(&b)
		require.NoError(t, err, name)
		assert.Equal(t, want, got, name)
	}
	for _, bad := range []struct{ json, want string }{
		{`{"layers": 1, "width": 8, "heads": 2, "context": 8, "batch": 2, "optim": {"lr": 0.01}, "speed": 2}`, `unknown field "speed"`},
		{`{"layers": 1, "width": 8, "heads": 2, "context": 8, "batch": 2, "optim": {"lr": 0.01}} {}`, "data after"},
		{`{"layers": 1, "width": 8, "heads": 2, "context": 8, "batch": 2}`, "optim.lr"},
		{`{"layers": 1, "width": 9, "heads": 2, "context": 8, "batch": 2, "optim": {"lr": 0.01}}`, "not a multiple"},
		{`{"layers": 0, "width": 8, "heads": 2, "context": 8, "batch": 2, "optim": {"lr": 0.01}}`, "must be positive"},
		{`{"layers": 1, "width": 8, "heads": 2, "context": 65536, "batch": 65536, "optim": {"lr": 0.01}}`, "too large"},
		{`{"layers": 1, "width": 8, "heads": 2, "context": 8, "batch": 2, "optim": {"lr": 0.01}, "steps": -1}`, "negative steps"},
		{`{"layers": 1, "width": 8, "heads": 2, "context": 8, "batch": 2, "optim": {"lr": 0.01, "beta1": 1}}`, "optimizer"},
		{`{"layers": 1,`, "config JSON"},
		{``, "config JSON"},
	} {
		_, err := ParseConfig(strings.NewReader(bad.json))
		if assert.Error(t, err, bad.json) {
			assert.Contains(t, err.Error(), bad.want, bad.json)
		}
	}
}

// The long-k configuration's weight gradient sums over K ≥ 4096 tokens,
// where the measured fast accumulation loses 7% of a growing sum.
func TestLongK(t *testing.T) {
	c, err := ConfigByName("long-k")
	require.NoError(t, err)
	require.NoError(t, c.Check())
	for _, p := range c.LinearProducts() {
		if p.Pass == "wgrad" {
			assert.GreaterOrEqual(t, p.K, 4096, p.Layer)
		}
	}
}
