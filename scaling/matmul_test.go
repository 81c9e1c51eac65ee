package scaling

import (
	"math"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// denseProduct64 is the float64 product of two dequantized matrices.
func denseProduct64(t *testing.T, a, b *Quantized) []float64 {
	da, err := a.Dequantize()
	require.NoError(t, err)
	db, err := b.Dequantize()
	require.NoError(t, err)
	out := make([]float64, a.Rows*b.Cols)
	for i := 0; i < a.Rows; i++ {
		for j := 0; j < b.Cols; j++ {
			s := 0.0
			for p := 0; p < a.Cols; p++ {
				s += float64(da.At(i, p)) * float64(db.At(p, j))
			}
			out[i*b.Cols+j] = s
		}
	}
	return out
}

func TestMatMulReference(t *testing.T) {
	a, err := FromRows([][]float32{{1, 2, 3}, {4, 5, 6}})
	require.NoError(t, err)
	b, err := FromRows([][]float32{{7, 8}, {9, 10}, {11, 12}})
	require.NoError(t, err)
	c, err := MatMul(a, b)
	require.NoError(t, err)
	assert.Equal(t, []float32{58, 64, 139, 154}, c.Data)
	_, err = MatMul(a, a)
	assert.ErrorIs(t, err, ErrShape)
}

// TestScaledMatMulMatchesDequantizedProduct: with a float32 accumulator the
// scaled product equals the product of the dequantized matrices within
// float32 accumulation error, for every pair of granularities.
func TestScaledMatMulMatchesDequantizedProduct(t *testing.T) {
	const m, k, n = 9, 300, 7
	a := normal(t, m, k, 1, 1)
	b := normal(t, k, n, 1, 2)
	gs := []Granularity{PerTensor, PerRow, PerCol, Tile1x128, Block128, MX, Block(4, 64)}
	for _, ga := range gs {
		for _, gb := range gs {
			qa, err := Quantize(a, fp8.E4M3FN, ga, Options{})
			require.NoError(t, err)
			qb, err := Quantize(b, fp8.E5M2, gb, Options{})
			require.NoError(t, err)
			c, err := ScaledMatMul(qa, qb, Float32Accumulator)
			require.NoError(t, err)
			want := denseProduct64(t, qa, qb)
			for i, w := range want {
				require.InDelta(t, w, float64(c.Data[i]), 1e-5*math.Sqrt(k)*4, "A %s, B %s, element %d", ga, gb, i)
			}
		}
	}
	// NVFP4 A times MX B.
	qa, err := Quantize(a, fp8.E2M1, NVFP4, Options{})
	require.NoError(t, err)
	qb, err := Quantize(b, fp8.E2M1, PerCol, Options{})
	require.NoError(t, err)
	c, err := ScaledMatMul(qa, qb, Float32Accumulator)
	require.NoError(t, err)
	for i, w := range denseProduct64(t, qa, qb) {
		require.InDelta(t, w, float64(c.Data[i]), 1e-4)
	}
	_, err = ScaledMatMul(qa, qa, Float32Accumulator)
	assert.ErrorIs(t, err, ErrShape)
	_, err = ScaledMatMul(qa, qb, Accumulator{MantissaBits: 30})
	assert.ErrorIs(t, err, ErrOptions)
	_, err = ScaledMatMul(nil, qb, Float32Accumulator)
	assert.ErrorIs(t, err, ErrShape)
}

// TestRoundMantissa checks the accumulator's rounding on hand cases.
func TestRoundMantissa(t *testing.T) {
	v := 1 + 0x1p-10 + 0x1p-14 // needs 14 fraction bits
	assert.Equal(t, float32(1+0x1p-10), roundMantissa(v, 13, false))
	assert.Equal(t, float32(1+0x1p-10), roundMantissa(v, 10, false))
	assert.Equal(t, float32(1), roundMantissa(v, 9, false))
	assert.Equal(t, float32(1+0x1p-9), roundMantissa(1+0x1p-10+0x1p-12, 9, true)) // above half: up
	assert.Equal(t, float32(1), roundMantissa(1+0x1p-10, 9, true))                // tie: to even
	assert.Equal(t, float32(1+0x1p-8), roundMantissa(1+0x1p-9+0x1p-10, 9, true))  // tie: to even (up)
	assert.Equal(t, float32(2), roundMantissa(2-0x1p-12, 9, true))                // carry into the exponent
	assert.Equal(t, float32(-1), roundMantissa(-1-0x1p-12, 9, false))             // truncation is toward zero
	assert.Equal(t, float32(0), roundMantissa(0, 5, false))
}

// TestFastAccumulationError: with ~14-bit truncating accumulation, the
// error of a long dot product grows with K; promoting every 128 products
// into float32 (DeepSeek-V3) stops the growth: the error stays at the level
// of a 128-product sum whatever K, while a float32 accumulator is exact to
// ~1e-7.
func TestFastAccumulationError(t *testing.T) {
	ks := []int{128, 1024, 8192, 32768}
	if !testenv.Long() {
		ks = ks[:3]
	}
	var prevFast, fast128, promoted128 float64
	for _, k := range ks {
		x := normal(t, 1, k, 1, uint64(k))
		y := normal(t, 1, k, 1, uint64(k)+1)
		for i := range x.Data { // positive products: a sum that grows with K
			x.Data[i] = float32(math.Abs(float64(x.Data[i])))
			y.Data[i] = float32(math.Abs(float64(y.Data[i])))
		}
		exact := 0.0
		for i := range x.Data {
			exact += float64(x.Data[i]) * float64(y.Data[i])
		}
		relErr := func(acc Accumulator) float64 {
			got, err := acc.Dot(x.Data, y.Data)
			require.NoError(t, err)
			return math.Abs(float64(got)-exact) / exact
		}
		f32, fast, promoted := relErr(Float32Accumulator), relErr(FastAccumulator), relErr(PromotedAccumulator)
		t.Logf("K=%5d  float32 %.2e  fast %.2e  promoted/128 %.2e", k, f32, fast, promoted)
		assert.Greater(t, fast, prevFast, "fast-accumulation error grows with K")
		assert.Less(t, f32, 1e-5)
		if k == 128 {
			fast128, promoted128 = fast, promoted
			assert.Equal(t, fast, promoted, "one promotion group: the same sum")
		} else {
			assert.Less(t, promoted, 2*promoted128, "promotion stops the growth")
			assert.Less(t, promoted, fast/5)
		}
		// 23 bits rounded to nearest is float32 itself.
		same, err := Accumulator{MantissaBits: 23, RoundNearest: true}.Dot(x.Data, y.Data)
		require.NoError(t, err)
		plain, err := Float32Accumulator.Dot(x.Data, y.Data)
		require.NoError(t, err)
		assert.Equal(t, plain, same)
		prevFast = fast
	}
	assert.Greater(t, prevFast, 10*fast128, "an order of magnitude more error at long K")
	// Through ScaledMatMul on quantized matrices, the same picture.
	const m, k, n = 4, 8192, 4
	a := normal(t, m, k, 1, 5)
	b := normal(t, k, n, 1, 6)
	for i := range a.Data {
		a.Data[i] = float32(math.Abs(float64(a.Data[i])))
	}
	for i := range b.Data {
		b.Data[i] = float32(math.Abs(float64(b.Data[i])))
	}
	qa, err := Quantize(a, fp8.E4M3FN, PerTensor, Options{})
	require.NoError(t, err)
	qb, err := Quantize(b, fp8.E4M3FN, PerTensor, Options{})
	require.NoError(t, err)
	want := denseProduct64(t, qa, qb)
	worst := func(acc Accumulator) float64 {
		c, err := ScaledMatMul(qa, qb, acc)
		require.NoError(t, err)
		w := 0.0
		for i := range want {
			w = math.Max(w, math.Abs(float64(c.Data[i])-want[i])/want[i])
		}
		return w
	}
	fast, promoted, f32 := worst(FastAccumulator), worst(PromotedAccumulator), worst(Float32Accumulator)
	assert.Greater(t, fast, 10*promoted)
	assert.Greater(t, promoted, f32)
	// Fine-grained scales cut K into 128-long segments: promotion comes free.
	qa, err = Quantize(a, fp8.E4M3FN, Tile1x128, Options{})
	require.NoError(t, err)
	qb, err = Quantize(b, fp8.E4M3FN, Block128, Options{})
	require.NoError(t, err)
	want = denseProduct64(t, qa, qb)
	assert.Less(t, worst(FastAccumulator), fast/5)

	_, err = FastAccumulator.Dot([]float32{1}, nil)
	assert.ErrorIs(t, err, ErrShape)
	_, err = Accumulator{PromoteEvery: -1}.Dot(nil, nil)
	assert.ErrorIs(t, err, ErrOptions)
}

// TestTruncatedKernelMatchesGeneralLoop: the fast path for float32 and
// truncating accumulators gives the general per-product loop's sums bit for bit, for
// every granularity pair, several widths and promotion intervals, and
// column counts that leave a remainder after groups of four.
func TestTruncatedKernelMatchesGeneralLoop(t *testing.T) {
	const m, k = 5, 300
	gs := []Granularity{PerTensor, PerRow, PerCol, Tile1x128, Block128, MX, Block(4, 64)}
	accs := []Accumulator{Float32Accumulator, {PromoteEvery: 5}, {MantissaBits: 23, RoundNearest: true, PromoteEvery: 64}, FastAccumulator, PromotedAccumulator, {MantissaBits: 1}, {MantissaBits: 7, PromoteEvery: 3},
		{MantissaBits: 22, PromoteEvery: 128}}
	for _, n := range []int{1, 7, 8} {
		a := normal(t, m, k, 1, uint64(n))
		b := normal(t, k, n, 1, uint64(n)+100)
		a.Data[3] = 300 // an outlier, so that sums span many binades
		for _, ga := range gs {
			for _, gb := range gs {
				qa, err := Quantize(a, fp8.E4M3FN, ga, Options{})
				require.NoError(t, err)
				qb, err := Quantize(b, fp8.E5M2, gb, Options{})
				require.NoError(t, err)
				for _, acc := range accs {
					want, err := scaledMatMul(qa, qb, false, acc, false)
					require.NoError(t, err)
					got, err := scaledMatMul(qa, qb, false, acc, true)
					require.NoError(t, err)
					for i := range want.Data {
						require.Equal(t, math.Float32bits(want.Data[i]), math.Float32bits(got.Data[i]),
							"n=%d %v×%v %+v: element %d: %g, want %g", n, ga, gb, acc, i, got.Data[i], want.Data[i])
					}
				}
			}
		}
	}
}

// TestTruncOperandsFit: formats whose code products leave float32's normal
// range take the general loop.
func TestTruncOperandsFit(t *testing.T) {
	assert.True(t, truncOperandsFit(fp8.E4M3FN, fp8.E5M2, 1<<16))
	assert.True(t, truncOperandsFit(fp8.E5M2, fp8.E5M2, 1<<40), "k·57344² is far below MaxFloat32")
	assert.False(t, truncOperandsFit(fp8.E8M0, fp8.E8M0, 16), "2^127·2^127 is beyond float32")
	assert.False(t, truncOperandsFit(fp8.E8M0, fp8.E4M3FN, 16), "2^-127·2^-9 is below float32's normals")
}
