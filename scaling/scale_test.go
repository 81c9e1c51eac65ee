package scaling

import (
	"math"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScaleRuleHandCases checks torchao's formula s = Max / max(amax, 1e-12)
// (float64, stored float32) with the power-of-two and margin options.
func TestScaleRuleHandCases(t *testing.T) {
	tests := []struct {
		name string
		rule ScaleRule
		f    *fp8.Format
		amax float64
		want float32
	}{
		{"unit amax", ScaleRule{}, fp8.E4M3FN, 1, 448},
		{"amax at max", ScaleRule{}, fp8.E4M3FN, 448, 1},
		{"e5m2", ScaleRule{}, fp8.E5M2, 2, 28672},
		{"fnuz", ScaleRule{}, fp8.E4M3FNUZ, 2, 120},
		{"non-dyadic", ScaleRule{}, fp8.E4M3FN, 3, float32(448.0 / 3)},
		{"zero amax uses eps", ScaleRule{}, fp8.E4M3FN, 0, float32(448 / 1e-12)},
		{"below eps", ScaleRule{}, fp8.E4M3FN, 1e-20, float32(448 / 1e-12)},
		{"custom eps", ScaleRule{Eps: 1e-3}, fp8.E4M3FN, 0, float32(448 / 1e-3)},
		{"pow2 down", ScaleRule{Pow2: Pow2Down}, fp8.E4M3FN, 3, 128},  // 149.33 -> 128
		{"pow2 up", ScaleRule{Pow2: Pow2Up}, fp8.E4M3FN, 3, 256},      // 149.33 -> 256
		{"pow2 exact", ScaleRule{Pow2: Pow2Down}, fp8.E4M3FN, 448, 1}, // already 2^0
		{"pow2 exact up", ScaleRule{Pow2: Pow2Up}, fp8.E4M3FN, 7, 64},
		{"margin 1", ScaleRule{Margin: 1}, fp8.E4M3FN, 1, 224},
		{"margin -2", ScaleRule{Margin: -2}, fp8.E4M3FN, 1, 1792},
		{"margin then pow2", ScaleRule{Margin: 1, Pow2: Pow2Down}, fp8.E4M3FN, 3, 64}, // 74.67 -> 64
		{"infinite scale clamps", ScaleRule{Eps: 1e-300}, fp8.E4M3FN, 0, math.MaxFloat32},
		{"pow2 clamp stays pow2", ScaleRule{Eps: 1e-300, Pow2: Pow2Down}, fp8.E4M3FN, 0, 0x1p127},
		{"tiny scale clamps", ScaleRule{Margin: 200}, fp8.E4M3FN, 1, 0x1p-126},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.rule.Scale(tc.amax, tc.f)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestScaleRuleSpecialAmax(t *testing.T) {
	r := ScaleRule{}
	for _, a := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := r.Scale(a, fp8.E4M3FN)
		assert.ErrorIs(t, err, ErrNonFinite, "amax %g", a)
	}
	_, err := r.Scale(-1, fp8.E4M3FN)
	assert.ErrorIs(t, err, ErrValue)
	_, err = r.Scale(1, fp8.E8M0)
	assert.ErrorIs(t, err, ErrFormat)
	_, err = r.Scale(1, nil)
	assert.ErrorIs(t, err, ErrFormat)
	for _, bad := range []ScaleRule{{Eps: -1}, {Eps: math.NaN()}, {Eps: math.Inf(1)}, {Pow2: 9}, {Margin: 5000}} {
		_, err := bad.Scale(1, fp8.E4M3FN)
		assert.ErrorIs(t, err, ErrOptions, "%+v", bad)
	}
	// The scale of every finite amax is a positive finite float32.
	for _, a := range []float64{0, 1e-45, 1e-30, 1, 3.4e38} {
		for _, p := range []Pow2{Pow2None, Pow2Down, Pow2Up} {
			s, err := ScaleRule{Pow2: p}.Scale(a, fp8.E5M2)
			require.NoError(t, err)
			assert.True(t, s > 0 && !math.IsInf(float64(s), 0), "amax %g pow2 %s: %g", a, p, s)
		}
	}
}

// TestMXScaleOCP checks fp8.MXScale, the OCP MX v1.0 shared-exponent rule
// X = 2^(floor(log2 amax) - emax_elem), clamped to [-127, 127], by hand.
func TestMXScaleOCP(t *testing.T) {
	tests := []struct {
		name string
		f    *fp8.Format
		amax float64
		k    int
	}{
		{"E4M3 unit", fp8.E4M3FN, 1, -8},
		{"E4M3 at max binade", fp8.E4M3FN, 448, 0},
		{"E4M3 just below 2", fp8.E4M3FN, 1.9999, -8},
		{"E4M3 above max", fp8.E4M3FN, 500, 0}, // 500/1 > 448: the element saturates
		{"E5M2 unit", fp8.E5M2, 1, -15},
		{"E3M2", fp8.E3M2, 40, 5 - 4},
		{"E2M3", fp8.E2M3, 0.3, -2 - 2},
		{"E2M1 six", fp8.E2M1, 6, 0},
		{"E2M1 seven", fp8.E2M1, 7, 0}, // 7 saturates to 6
		{"clamped low", fp8.E4M3FN, 0x1p-140, -127},
		{"zero block", fp8.E4M3FN, 0, -127},
		{"large", fp8.E2M1, 0x1p120, 118},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := fp8.MXScale(tc.amax, tc.f, fp8.ScaleFloor)
			require.NoError(t, err)
			assert.Equal(t, uint8(tc.k+127), c)
		})
	}
	emax := map[*fp8.Format]int{fp8.E4M3FN: 8, fp8.E5M2: 15, fp8.E3M2: 4, fp8.E2M3: 2, fp8.E2M1: 2}
	for f, want := range emax {
		got, err := MXEmax(f)
		require.NoError(t, err)
		assert.Equal(t, want, got, f.Name())
		// emax_elem is the exponent of the largest normal binade.
		assert.Equal(t, want, int(math.Floor(math.Log2(f.Max()))), f.Name())
	}
	for _, f := range []*fp8.Format{fp8.E4M3FNUZ, fp8.E5M2FNUZ, fp8.E4M3, fp8.E3M4, fp8.E8M0} {
		_, err := MXEmax(f)
		assert.ErrorIs(t, err, ErrFormat, f.Name())
	}
	// The other E8M0 rules round amax/Max: 1/448 = 2^-8.807.
	c, err := fp8.MXScale(1, fp8.E4M3FN, fp8.ScaleCeil)
	require.NoError(t, err)
	assert.Equal(t, uint8(127-8), c)
	c, err = fp8.MXScale(1, fp8.E4M3FN, fp8.ScaleNearestEven)
	require.NoError(t, err)
	assert.Equal(t, uint8(127-9), c)
}

// TestMXQuantizeWorkedExamples follows blocks through Quantize.
func TestMXQuantizeWorkedExamples(t *testing.T) {
	row := make([]float32, 96)
	// Block 0: amax 1 -> X = 2^-8, elements x·256 exactly representable.
	row[0], row[1], row[2] = 1, -0.5, 0.25
	// Block 1: amax 500 -> X = 1: 500 saturates to 448 (OCP: clamp to max).
	row[32], row[33] = 500, 3
	// Block 2: all zero -> X = 2^-127, codes zero.
	x, err := FromSlice(1, 96, row)
	require.NoError(t, err)
	q, err := Quantize(x, fp8.E4M3FN, MX, Options{})
	require.NoError(t, err)
	require.Equal(t, fp8.E8M0, q.ScaleFormat)
	assert.Equal(t, []uint8{127 - 8, 127, 0}, q.ScaleCodes)
	assert.Equal(t, []float32{256, 1, 0x1p127}, q.Scales)
	assert.Equal(t, 0x1p-8, q.BlockDecodeScale(0))
	deq, err := q.Dequantize()
	require.NoError(t, err)
	assert.Equal(t, []float32{1, -0.5, 0.25}, deq.Data[:3])
	assert.Equal(t, float32(448), deq.Data[32])
	assert.Equal(t, float32(3), deq.Data[33])
	for _, c := range q.Codes[64:] {
		assert.Equal(t, uint8(0), c)
	}
	m, err := Measure(x, q)
	require.NoError(t, err)
	assert.Equal(t, 1, m.Overflow)
	assert.Equal(t, 0, m.Underflow)

	// Clamping at the bottom: a block of 2^-140 gets X = 2^-127 instead of
	// 2^-148, and 2^-140·2^127 = 2^-13 is below E4M3FN's 2^-9: it flushes.
	tiny, err := FromSlice(1, 32, append([]float32{0x1p-140}, make([]float32, 31)...))
	require.NoError(t, err)
	q, err = Quantize(tiny, fp8.E4M3FN, MX, Options{})
	require.NoError(t, err)
	assert.Equal(t, []uint8{0}, q.ScaleCodes)
	assert.Equal(t, uint8(0), q.Codes[0])
}

// TestNVFP4Scales checks NVIDIA's two-level rule by hand.
func TestNVFP4Scales(t *testing.T) {
	enc, dec, err := NVFP4TensorScale(2688)
	require.NoError(t, err)
	assert.Equal(t, float32(1), enc)
	assert.Equal(t, float32(1), dec)
	enc, dec, err = NVFP4TensorScale(26.88)
	require.NoError(t, err)
	assert.Equal(t, float32(2688)/float32(26.88), enc)
	assert.InDelta(t, 0.01, float64(dec), 1e-9)
	enc, dec, err = NVFP4TensorScale(0) // Transformer Engine: scale 1
	require.NoError(t, err)
	assert.Equal(t, float32(1), enc)
	assert.Equal(t, float32(1), dec)
	enc, _, err = NVFP4TensorScale(1e-45) // 2688/1e-45 overflows: clamped
	require.NoError(t, err)
	assert.Equal(t, float32(math.MaxFloat32), enc)
	_, _, err = NVFP4TensorScale(float32(math.Inf(1)))
	assert.ErrorIs(t, err, ErrNonFinite)
	_, _, err = NVFP4TensorScale(-1)
	assert.ErrorIs(t, err, ErrValue)

	// With encode 1: block amax 6 -> d = 1; amax 3 -> d = 0.5 (multiplier 2);
	// amax 6·448 -> d = 448; amax 6·500 saturates to 448.
	for _, tc := range []struct {
		amax float32
		d    float64
		mult float32
	}{{6, 1, 1}, {3, 0.5, 2}, {2688, 448, 1.0 / 448}, {3000, 448, 1.0 / 448}, {0, 0, 0}, {1e-6, 0, 0}} {
		code, mult, err := NVFP4BlockScale(tc.amax, 1)
		require.NoError(t, err)
		assert.Equal(t, tc.d, fp8.E4M3FN.Decode(code), "amax %g", tc.amax)
		assert.Equal(t, tc.mult, mult, "amax %g", tc.amax)
	}
	_, _, err = NVFP4BlockScale(float32(math.NaN()), 1)
	assert.ErrorIs(t, err, ErrNonFinite)
	_, _, err = NVFP4BlockScale(1, 0)
	assert.ErrorIs(t, err, ErrValue)

	// Through Quantize: a 1×32 tensor, amax 2688 in block 0, 3 in block 1.
	row := make([]float32, 32)
	row[0], row[1], row[16], row[17] = 2688, 1000, 3, -1.5
	x, err := FromSlice(1, 32, row)
	require.NoError(t, err)
	q, err := Quantize(x, fp8.E2M1, NVFP4, Options{})
	require.NoError(t, err)
	assert.Equal(t, float32(1), q.TensorScale)
	assert.Equal(t, []float64{448, 0.5}, []float64{fp8.E4M3FN.Decode(q.ScaleCodes[0]), fp8.E4M3FN.Decode(q.ScaleCodes[1])})
	deq, err := q.Dequantize()
	require.NoError(t, err)
	assert.Equal(t, float32(2688), deq.Data[0])
	assert.Equal(t, float32(896), deq.Data[1]) // 1000/448 = 2.23 -> 2, ·448
	assert.Equal(t, float32(3), deq.Data[16])
	assert.Equal(t, float32(-1.5), deq.Data[17])
}
