package native_test

import (
	"math"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/native"
	"github.com/fp8lab/fp8lab/native/parity"
	"github.com/fp8lab/fp8lab/rng"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// input returns parity's seeded input of kind k.
func input(t *testing.T, rows, cols int, k parity.InputKind, seed uint64) *scaling.Tensor {
	t.Helper()
	x, err := parity.MakeInput(rows, cols, k, seed)
	require.NoError(t, err)
	return x
}

// granularities are the recipes' granularities and the GPU's generic
// tiles and blocks, as parity checks them.
func granularities() []scaling.Granularity {
	return append(scaling.Granularities(), scaling.Tile(64), scaling.Tile(100), scaling.Block(32, 64))
}

// bits returns the bits of every value, so that NaNs compare by payload.
func bits(v []float32) []uint32 {
	out := make([]uint32, len(v))
	for i, x := range v {
		out[i] = math.Float32bits(x)
	}
	return out
}

// assertSameQuantized checks that got is want bit for bit.
func assertSameQuantized(t *testing.T, want, got *scaling.Quantized, msg ...any) {
	t.Helper()
	w, g := *want, *got
	assert.Equal(t, bits(w.Scales), bits(g.Scales), msg...)
	assert.Equal(t, bits(w.Amax), bits(g.Amax), msg...)
	w.Scales, w.Amax, g.Scales, g.Amax = nil, nil, nil, nil
	assert.Equal(t, w, g, msg...)
}

func TestCPUAmaxEqualsCore(t *testing.T) {
	cpu := native.NewCPU()
	x := input(t, 130, 257, parity.InputSpecial, 4)
	for _, g := range granularities() {
		got, err := cpu.Amax(x, g)
		require.NoError(t, err, g)
		want, err := scaling.AmaxGrid(x, g)
		require.NoError(t, err)
		assert.Equal(t, want.Rows, got.Rows)
		assert.Equal(t, bits(want.Data), bits(got.Data), g)
	}
	// An independent check of one granularity: the per-row amax by hand.
	y := input(t, 5, 33, parity.InputNormal, 5)
	rows, err := cpu.Amax(y, scaling.PerRow)
	require.NoError(t, err)
	for i := 0; i < 5; i++ {
		m := float32(0)
		for _, v := range y.Row(i) {
			m = max(m, float32(math.Abs(float64(v))))
		}
		assert.Equal(t, m, rows.Data[i])
	}
}

func TestCPUQuantizeEqualsCore(t *testing.T) {
	cpu := native.NewCPU()
	x := input(t, 37, 300, parity.InputNormal, 6)
	for _, g := range granularities() {
		f := fp8.E4M3FN
		if g.Kind == scaling.KindNVFP4 {
			f = fp8.E2M1
		}
		got, err := cpu.Quantize(x, f, g, native.QuantizeOptions{})
		require.NoError(t, err, g)
		want, err := scaling.Quantize(x, f, g, scaling.Options{})
		require.NoError(t, err)
		assertSameQuantized(t, want, got, g)
	}
}

func TestCPUStochasticUsesPhiloxStream(t *testing.T) {
	cpu := native.NewCPU()
	x := input(t, 9, 70, parity.InputWide, 7)
	st := &native.Stochastic{Seed: 42, Stream: 5, Bits: 32}
	q, err := cpu.Quantize(x, fp8.E5M2, scaling.PerTensor, native.QuantizeOptions{Stochastic: st})
	require.NoError(t, err)
	require.Len(t, q.Scales, 1)
	mode := fp8.Mode{Round: fp8.Stochastic, RandomBits: 32}
	assert.Equal(t, mode, q.Mode)
	for i := 0; i < x.Rows; i++ {
		for j := 0; j < x.Cols; j++ {
			k := i*x.Cols + j
			want, err := fp8.E5M2.EncodeStochastic(float64(x.Data[k]*q.Scales[0]), rng.Bits(42, 5, uint64(k)), mode)
			require.NoError(t, err)
			require.Equal(t, want, q.Codes[k], "element (%d, %d)", i, j)
		}
	}
	other, err := cpu.Quantize(x, fp8.E5M2, scaling.PerTensor, native.QuantizeOptions{Stochastic: &native.Stochastic{Seed: 42, Stream: 6, Bits: 32}})
	require.NoError(t, err)
	assert.NotEqual(t, q.Codes, other.Codes, "another stream rounds differently")
}

func TestCPUQuantizeWithScalesAndErrors(t *testing.T) {
	cpu := native.NewCPU()
	x := input(t, 4, 40, parity.InputSpecial, 8)
	_, err := cpu.Quantize(x, fp8.E4M3FN, scaling.PerRow, native.QuantizeOptions{})
	assert.ErrorIs(t, err, scaling.ErrNonFinite)
	scales := []float32{1, 2, 0.5, 4}
	got, err := cpu.Quantize(x, fp8.E4M3FN, scaling.PerRow, native.QuantizeOptions{Scales: scales})
	require.NoError(t, err)
	want, err := scaling.QuantizeWithScales(x, fp8.E4M3FN, scaling.PerRow, scales, scaling.Options{})
	require.NoError(t, err)
	assertSameQuantized(t, want, got)
	_, err = cpu.Quantize(x, fp8.E4M3FN, scaling.PerRow, native.QuantizeOptions{Stochastic: &native.Stochastic{Bits: 33}})
	assert.ErrorIs(t, err, native.ErrInvalidArgument)
	_, err = cpu.Quantize(x, fp8.E4M3FN, scaling.PerRow, native.QuantizeOptions{Codec: 9})
	assert.ErrorIs(t, err, native.ErrInvalidArgument)
	_, err = cpu.Quantize(nil, fp8.E4M3FN, scaling.PerRow, native.QuantizeOptions{})
	assert.ErrorIs(t, err, scaling.ErrShape)
}

func TestCPUDequantizeEqualsCore(t *testing.T) {
	cpu := native.NewCPU()
	x := input(t, 33, 129, parity.InputWide, 9)
	for _, g := range []scaling.Granularity{scaling.PerTensor, scaling.Tile1x128, scaling.MX} {
		q, err := cpu.Quantize(x, fp8.E4M3FN, g, native.QuantizeOptions{})
		require.NoError(t, err)
		got, err := cpu.Dequantize(q)
		require.NoError(t, err)
		want, err := q.Dequantize()
		require.NoError(t, err)
		assert.Equal(t, bits(want.Data), bits(got.Data), g)
	}
}

func TestCPUFWHT(t *testing.T) {
	cpu := native.NewCPU()
	for _, block := range []int{1, 2, 16, 128, 4096} {
		x := input(t, 1, block*9, parity.InputNormal, uint64(block))
		got := append([]float32(nil), x.Data...)
		require.NoError(t, cpu.FWHT(got, block))
		// Bitwise equal to the core, block by block.
		want := append([]float32(nil), x.Data...)
		for b := 0; b < 9; b++ {
			require.NoError(t, scaling.FWHT(want[b*block:(b+1)*block]))
		}
		assert.Equal(t, bits(want), bits(got), "block %d", block)
		// Independent check on the first block: H·x/√n in float64.
		if block <= 128 {
			h, err := scaling.HadamardMatrix(block)
			require.NoError(t, err)
			for i := 0; i < block; i++ {
				var s float64
				for j := 0; j < block; j++ {
					s += float64(h.At(i, j)) * float64(x.Data[j])
				}
				s /= math.Sqrt(float64(block))
				assert.InDelta(t, s, float64(got[i]), 1e-3*(1+math.Abs(s)), "block %d row %d", block, i)
			}
		}
	}
	// Large inputs take the parallel path and give the same answer.
	x := input(t, 16, 32768, parity.InputNormal, 10)
	par := append([]float32(nil), x.Data...)
	require.NoError(t, cpu.FWHT(par, 4096))
	for b := 0; b < len(x.Data)/4096; b++ {
		require.NoError(t, scaling.FWHT(x.Data[b*4096:(b+1)*4096]))
	}
	assert.Equal(t, bits(x.Data), bits(par))
	assert.ErrorIs(t, cpu.FWHT(make([]float32, 12), 3), native.ErrInvalidArgument)
	assert.ErrorIs(t, cpu.FWHT(make([]float32, 12), 8), native.ErrInvalidArgument)
	assert.ErrorIs(t, cpu.FWHT(make([]float32, 1<<16), 1<<16), native.ErrInvalidArgument)
}

func TestCPUScaledMatMul(t *testing.T) {
	cpu := native.NewCPU()
	a := input(t, 20, 48, parity.InputNormal, 11)
	b := input(t, 48, 12, parity.InputNormal, 12)
	qa, err := cpu.Quantize(a, fp8.E4M3FN, scaling.PerRow, native.QuantizeOptions{})
	require.NoError(t, err)
	qb, err := cpu.Quantize(b, fp8.E4M3FN, scaling.PerCol, native.QuantizeOptions{})
	require.NoError(t, err)
	got, err := cpu.ScaledMatMul(qa, qb, native.OutputFloat32)
	require.NoError(t, err)
	want, err := scaling.ScaledMatMul(qa, qb, scaling.Float32Accumulator)
	require.NoError(t, err)
	assert.Equal(t, bits(want.Data), bits(got.Data))
	// BF16 output is the float32 result rounded to BF16.
	bf, err := cpu.ScaledMatMul(qa, qb, native.OutputBF16)
	require.NoError(t, err)
	for i, v := range want.Data {
		assert.Equal(t, fp8.BF16.Decode(fp8.BF16.Encode32(v)), bf.Data[i])
		assert.Zero(t, math.Float32bits(bf.Data[i])&0xFFFF, "a BF16 value has 16 zero low bits")
	}
	_, err = cpu.ScaledMatMul(qa, qa, native.OutputFloat32)
	assert.ErrorIs(t, err, scaling.ErrShape)
	_, err = cpu.ScaledMatMul(qa, qb, native.Output(7))
	assert.ErrorIs(t, err, native.ErrInvalidArgument)
}

func TestCPUMatMulBF16(t *testing.T) {
	cpu := native.NewCPU()
	a := input(t, 7, 33, parity.InputNormal, 13)
	b := input(t, 33, 5, parity.InputNormal, 14)
	got, err := cpu.MatMulBF16(a, b, native.OutputFloat32)
	require.NoError(t, err)
	// Reference: round each operand to BF16 by truncating the float32 bits
	// with round-to-nearest-even done by hand, then a float64 dot product.
	rt := func(v float32) float64 {
		u := math.Float32bits(v)
		u += 0x7FFF + (u>>16)&1
		return float64(math.Float32frombits(u &^ 0xFFFF))
	}
	for i := 0; i < 7; i++ {
		for j := 0; j < 5; j++ {
			var s float64
			for p := 0; p < 33; p++ {
				s += rt(a.At(i, p)) * rt(b.At(p, j))
			}
			assert.Equal(t, float32(s), got.At(i, j), "(%d, %d)", i, j)
		}
	}
}

func TestCPUClosed(t *testing.T) {
	cpu := native.NewCPU()
	require.NoError(t, cpu.Close())
	_, err := cpu.Amax(input(t, 1, 4, parity.InputNormal, 1), scaling.PerTensor)
	assert.ErrorIs(t, err, native.ErrClosed)
	assert.ErrorIs(t, cpu.FWHT(make([]float32, 4), 4), native.ErrClosed)
	assert.Equal(t, "cpu", native.Default().Info().Name)
}

func TestCodecAndOutputNames(t *testing.T) {
	for _, c := range []native.Codec{native.CodecAuto, native.CodecSoftware, native.CodecHardware} {
		got, err := native.ParseCodec(c.String())
		require.NoError(t, err)
		assert.Equal(t, c, got)
	}
	_, err := native.ParseCodec("fast")
	assert.ErrorIs(t, err, native.ErrInvalidArgument)
	assert.Equal(t, "bf16", native.OutputBF16.String())
	assert.Equal(t, "float32", native.OutputFloat32.String())
}
