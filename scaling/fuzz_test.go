package scaling

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// floatsFrom turns fuzz bytes into float32 values (any bit pattern:
// NaNs, infinities, subnormals included).
func floatsFrom(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

// FuzzQuantize: random shapes, values, granularities and formats never
// panic; consistent inputs either quantize or give a package error, and a
// successful quantization dequantizes and measures.
func FuzzQuantize(f *testing.F) {
	f.Add(2, 3, uint8(0), uint8(0), []byte("0123456789abcdefghijklmnopqrstuvwx"), false)
	f.Add(1, 40, uint8(5), uint8(1), bytes.Repeat([]byte{0, 0, 0x80, 0x3f}, 40), true)
	f.Add(3, 17, uint8(6), uint8(9), bytes.Repeat([]byte{1, 2, 3, 0x7f}, 51), false)
	f.Add(0, 5, uint8(1), uint8(0), []byte{}, false)
	f.Fuzz(func(t *testing.T, rows, cols int, gi, fi uint8, raw []byte, stochastic bool) {
		data := floatsFrom(raw)
		formats := fp8.Presets()
		gs := append(Granularities(), Tile(5), Block(2, 3), Granularity{Kind: 99})
		g := gs[int(gi)%len(gs)]
		fm := formats[int(fi)%len(formats)]
		x := &Tensor{Rows: rows, Cols: cols, Data: data}
		opts := Options{}
		if stochastic {
			opts.Mode = fp8.Mode{Round: fp8.Stochastic, RandomBits: 1 + int(gi)%32}
			opts.Random = make([]uint32, len(data))
			for i := range opts.Random {
				opts.Random[i] = uint32(i) * 2654435761
			}
		}
		q, err := Quantize(x, fm, g, opts)
		if err != nil {
			assert.True(t, errors.Is(err, ErrShape) || errors.Is(err, ErrNonFinite) || errors.Is(err, ErrFormat) ||
				errors.Is(err, ErrGranularity) || errors.Is(err, ErrOptions), "unexpected error %v", err)
			if rows > 0 && cols > 0 && rows*cols != len(data) && rows < 1<<20 && cols < 1<<20 {
				assert.Error(t, err, "bad shape must fail")
			}
			return
		}
		require.Equal(t, rows*cols, len(data))
		for _, s := range q.Scales {
			assert.False(t, math.IsNaN(float64(s)) || math.IsInf(float64(s), 0))
		}
		deq, err := q.Dequantize()
		require.NoError(t, err)
		for _, v := range deq.Data {
			assert.False(t, math.IsNaN(float64(v)), "finite inputs never dequantize to NaN")
		}
		_, err = Measure(x, q)
		require.NoError(t, err)
	})
}

// FuzzParseGranularity: names never panic, and a parsed name prints back to
// a name that parses to the same granularity.
func FuzzParseGranularity(f *testing.F) {
	for _, s := range []string{"tensor", "tile1x128", "block64x32", "mx", "nvfp4", "block", "tile1x", "blockx7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseGranularity(s)
		if err != nil {
			assert.ErrorIs(t, err, ErrGranularity)
			return
		}
		back, err := ParseGranularity(g.String())
		require.NoError(t, err)
		assert.Equal(t, g, back)
	})
}

// FuzzRotationAndMatMul: random shapes through the rotation and the scaled
// matmul never panic; mismatched shapes give ErrShape.
func FuzzRotationAndMatMul(f *testing.F) {
	f.Add(2, 8, 3, 4, uint8(1), []byte("some bytes for the values here!!"))
	f.Add(1, 16, 1, 16, uint8(0), []byte{})
	f.Add(3, 6, 2, 3, uint8(200), []byte{0xff, 0xff, 0xff, 0x7f})
	f.Fuzz(func(t *testing.T, m, k, n, block int, acc uint8, raw []byte) {
		if m < 1 || k < 1 || n < 1 || m > 64 || k > 256 || n > 64 {
			_, err := NewTensor(m, k)
			if m < 1 || k < 1 {
				assert.ErrorIs(t, err, ErrShape)
			}
			return
		}
		vals := floatsFrom(raw)
		a, err := NewTensor(m, k)
		require.NoError(t, err)
		for i := range a.Data {
			if len(vals) > 0 {
				a.Data[i] = vals[i%len(vals)]
			}
		}
		r, err := NewRandomRotation(k, block, uint64(acc))
		if err == nil {
			require.NoError(t, r.RotateRows(a))
			if m != k {
				assert.ErrorIs(t, r.RotateCols(a), ErrShape, "RotateCols needs k rows")
			}
		} else {
			assert.ErrorIs(t, err, ErrShape)
		}
		b, err := NewTensor(k, n)
		require.NoError(t, err)
		for i := range b.Data {
			b.Data[i] = float32(i%7) - 3
		}
		qa, errA := Quantize(a, fp8.E4M3FN, Tile(max(1, block%40)), Options{})
		qb, err := Quantize(b, fp8.E5M2, PerCol, Options{})
		require.NoError(t, err)
		if errA != nil {
			assert.ErrorIs(t, errA, ErrNonFinite)
			return
		}
		c, err := ScaledMatMul(qa, qb, Accumulator{MantissaBits: int(acc % 24), PromoteEvery: int(acc % 5)})
		require.NoError(t, err)
		assert.Equal(t, m, c.Rows)
		assert.Equal(t, n, c.Cols)
		// B·A is defined only when n == m.
		_, err = ScaledMatMul(qb, qa, Float32Accumulator)
		if n != m {
			assert.ErrorIs(t, err, ErrShape)
		} else {
			assert.NoError(t, err)
		}
	})
}
