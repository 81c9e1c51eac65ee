package scaling

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refScale recomputes a block's multiplier from the formulas, independently
// of the package's scale code: float64 arithmetic, math.Log2, math.Pow.
func refScale(t *testing.T, g Granularity, f *fp8.Format, amax, tensorAmax float64) float32 {
	switch g.Scales() {
	case ScaleE8M0:
		emax := map[string]int{"E4M3FN": 8, "E5M2": 15, "E3M2": 4, "E2M3": 2, "E2M1": 2}[f.Name()]
		k := -127
		if amax > 0 {
			k = int(math.Floor(math.Log2(amax))) - emax
			k = max(-127, min(127, k))
		}
		return float32(math.Pow(2, float64(-k)))
	case ScaleE4M3:
		enc := float32(1)
		if tensorAmax > 0 {
			enc = float32(2688) / float32(tensorAmax)
		}
		v := float32(amax) / 6
		v *= enc
		code, err := fp8.E4M3FN.Encode(float64(v), fp8.Mode{})
		require.NoError(t, err)
		d := float32(fp8.E4M3FN.Decode(code))
		if d == 0 {
			return 0
		}
		return enc / d
	}
	return float32(f.Max() / math.Max(amax, 1e-12))
}

// TestQuantizeMatchesReference compares every granularity and format with a
// straightforward per-element recomputation: block amax by brute force, the
// scale from its formula, the float32 product, fp8's scalar Encode.
func TestQuantizeMatchesReference(t *testing.T) {
	// 2×10000 is longer than chunkLen: blocks that straddle a chunk
	// boundary (1×100 tiles at 4096, as a GPU's parity run found).
	shapes := [][2]int{{1, 1}, {3, 7}, {5, 40}, {2, 10000}, {130, 150}}
	if !testenv.Long() {
		shapes = shapes[:4]
	}
	for si, sh := range shapes {
		x := normal(t, sh[0], sh[1], 3, uint64(si))
		x.Data[0] = 0 // a zero, and a few magnitudes
		if len(x.Data) > 5 {
			x.Data[3] *= 1000
			x.Data[4] *= 1e-4
		}
		tensorAmax := refBlockAmax(x, 0, 0, x.Rows, x.Cols)
		for _, g := range append(Granularities(), Tile(8), Tile(100), Tile(6000), Block(4, 16), Block(2, 3), Block(1, 3000), NVFP4Block16) {
			br, bc, err := g.BlockShape(x.Rows, x.Cols)
			require.NoError(t, err)
			gc := (x.Cols + bc - 1) / bc
			amaxes := map[int]float64{}
			for i := 0; i < x.Rows; i += br {
				for j := 0; j < x.Cols; j += bc {
					amaxes[(i/br)*gc+j/bc] = refBlockAmax(x, i, j, br, bc)
				}
			}
			for _, f := range elementFormats(g) {
				q, err := Quantize(x, f, g, Options{})
				require.NoError(t, err, "%s %s", g, f)
				for i := 0; i < x.Rows; i++ {
					for j := 0; j < x.Cols; j++ {
						b := (i/br)*q.ScaleCols + j/bc
						s := refScale(t, g, f, amaxes[b], tensorAmax)
						require.Equal(t, s, q.Scales[b], "%s %s scale of block %d", g, f, b)
						want, err := f.Encode(float64(x.At(i, j)*s), fp8.Mode{})
						require.NoError(t, err)
						require.Equal(t, want, q.Codes[i*x.Cols+j], "%s %s element (%d,%d)", g, f, i, j)
					}
				}
			}
		}
	}
}

// TestRoundTripErrorBound checks, per granularity and format, that each
// element's error is within half a unit in the last place of its scaled
// value (relative 2^-(m+1)), or half the smallest subnormal in the block's
// units, plus float32 rounding of the multiply and divide.
func TestRoundTripErrorBound(t *testing.T) {
	x := normal(t, 64, 256, 1, 99)
	for i := 0; i < x.Rows; i += 7 { // rows of very different sizes
		row := x.Row(i)
		for j := range row {
			row[j] *= float32(math.Pow(10, float64(i%5-2)))
		}
	}
	for _, g := range Granularities() {
		for _, f := range elementFormats(g) {
			q, err := Quantize(x, f, g, Options{})
			require.NoError(t, err)
			deq, err := q.Dequantize()
			require.NoError(t, err)
			in := info(f)
			rel := math.Ldexp(1, -in.ManBits-1) + 0x1p-22
			if g.Scales() == ScaleE8M0 {
				// Floor rule: up to 2^(emax+1) > Max, so block maxima may saturate;
				// the error of a saturated value is at most amax - Max·X.
				rel = math.Max(rel, 1-in.Max/math.Ldexp(1, int(math.Floor(math.Log2(in.Max)))+1))
			}
			bad := 0
			for i := 0; i < x.Rows; i++ {
				for j := 0; j < x.Cols; j++ {
					b := (i/q.BlockRows)*q.ScaleCols + j/q.BlockCols
					d := q.BlockDecodeScale(b)
					xv := float64(x.At(i, j))
					bound := math.Abs(xv)*rel + in.MinSubnormal/2*d*1.0001
					if err := math.Abs(xv - float64(deq.At(i, j))); err > bound {
						bad++
					}
				}
			}
			assert.Zero(t, bad, "%s %s: elements beyond the bound", g, f)
		}
	}
}

// TestStochasticRounding checks that stochastic rounding with 32 random bits
// is unbiased: the mean of many roundings of one value approaches it.
func TestStochasticRounding(t *testing.T) {
	const n = 1 << 14
	data := make([]float32, n)
	for i := range data {
		data[i] = 0.3 // between E4M3FN neighbours after scaling
	}
	data[0] = 1 // sets the amax: scale 448, 0.3·448 = 134.4 between 128 and 144
	x, err := FromSlice(1, n, data)
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(1, 2))
	random := make([]uint32, n)
	for i := range random {
		random[i] = r.Uint32()
	}
	opts := Options{Mode: fp8.Mode{Round: fp8.Stochastic, RandomBits: 32}, Random: random}
	for _, g := range []Granularity{PerTensor, PerRow, Tile1x128, MX} {
		q, err := Quantize(x, fp8.E4M3FN, g, opts)
		require.NoError(t, err)
		deq, err := q.Dequantize()
		require.NoError(t, err)
		sum := 0.0
		distinct := map[float32]bool{}
		for _, v := range deq.Data[1:] {
			sum += float64(v)
			distinct[v] = true
		}
		mean := sum / float64(n-1)
		assert.InDelta(t, 0.3, mean, 0.002, g.String())
		if g.Kind == KindTensor || g.Kind == KindRow {
			assert.Len(t, distinct, 2, "%s rounds to both neighbours", g)
		}
		// Same random words, same codes.
		q2, err := Quantize(x, fp8.E4M3FN, g, opts)
		require.NoError(t, err)
		assert.Equal(t, q.Codes, q2.Codes)
	}
	// Nearest rounding of the same data is biased: all 0.3 become one value.
	q, err := Quantize(x, fp8.E4M3FN, PerTensor, Options{})
	require.NoError(t, err)
	deq, err := q.Dequantize()
	require.NoError(t, err)
	assert.NotEqual(t, float32(0.3), deq.Data[1])
}

func TestQuantizeErrors(t *testing.T) {
	x := normal(t, 4, 64, 1, 1)
	cases := []struct {
		name string
		f    *fp8.Format
		g    Granularity
		opts Options
		err  error
	}{
		{"nil format", nil, PerTensor, Options{}, ErrFormat},
		{"E8M0 elements", fp8.E8M0, PerTensor, Options{}, ErrFormat},
		{"FNUZ in MX", fp8.E4M3FNUZ, MX, Options{}, ErrFormat},
		{"E4M3 in MX", fp8.E4M3, MX, Options{}, ErrFormat},
		{"E4M3FN in NVFP4", fp8.E4M3FN, NVFP4, Options{}, ErrFormat},
		{"unknown kind", fp8.E4M3FN, Granularity{Kind: 42}, Options{}, ErrGranularity},
		{"bad MX size", fp8.E4M3FN, Granularity{Kind: KindMX, BlockCols: 16}, Options{}, ErrGranularity},
		{"bad tile", fp8.E4M3FN, Granularity{Kind: KindTile, BlockRows: 2, BlockCols: 8}, Options{}, ErrGranularity},
		{"rule with MX", fp8.E4M3FN, MX, Options{Rule: ScaleRule{Pow2: Pow2Down}}, ErrOptions},
		{"rule with NVFP4", fp8.E2M1, NVFP4, Options{Rule: ScaleRule{Margin: 1}}, ErrOptions},
		{"MX rounding elsewhere", fp8.E4M3FN, PerRow, Options{MXRounding: fp8.ScaleCeil}, ErrOptions},
		{"stochastic without random", fp8.E4M3FN, PerTensor, Options{Mode: fp8.Mode{Round: fp8.Stochastic, RandomBits: 8}}, ErrOptions},
		{"stochastic short random", fp8.E4M3FN, PerTensor, Options{Mode: fp8.Mode{Round: fp8.Stochastic, RandomBits: 8}, Random: make([]uint32, 3)}, ErrOptions},
		{"stochastic no bits", fp8.E4M3FN, PerTensor, Options{Mode: fp8.Mode{Round: fp8.Stochastic}, Random: make([]uint32, 256)}, ErrOptions},
		{"random without stochastic", fp8.E4M3FN, PerTensor, Options{Random: make([]uint32, 256)}, ErrOptions},
		{"bad mode", fp8.E4M3FN, PerTensor, Options{Mode: fp8.Mode{Overflow: 9}}, ErrOptions},
	}
	for _, tc := range cases {
		_, err := Quantize(x, tc.f, tc.g, tc.opts)
		assert.ErrorIs(t, err, tc.err, tc.name)
	}
	_, err := Quantize(nil, fp8.E4M3FN, PerTensor, Options{})
	assert.ErrorIs(t, err, ErrShape)
	_, err = Quantize(&Tensor{Rows: 2, Cols: 2, Data: make([]float32, 3)}, fp8.E4M3FN, PerTensor, Options{})
	assert.ErrorIs(t, err, ErrShape)
	for _, v := range []float32{float32(math.NaN()), float32(math.Inf(-1))} {
		y := x.Clone()
		y.Data[70] = v
		for _, g := range Granularities() {
			f := fp8.E4M3FN
			if e := g.ElementFormat(); e != nil {
				f = e
			}
			_, err := Quantize(y, f, g, Options{})
			assert.ErrorIs(t, err, ErrNonFinite, "%s %g", g, v)
		}
	}
}

// TestQuantizeSpecialBlocks: all-zero tensors and blocks give zeros and
// finite scales for every granularity.
func TestQuantizeSpecialBlocks(t *testing.T) {
	zero, err := NewTensor(3, 40)
	require.NoError(t, err)
	for _, g := range Granularities() {
		for _, f := range elementFormats(g) {
			q, err := Quantize(zero, f, g, Options{})
			require.NoError(t, err)
			for b, s := range q.Scales {
				assert.False(t, math.IsNaN(float64(s)) || math.IsInf(float64(s), 0), "%s %s scale %d", g, f, b)
			}
			deq, err := q.Dequantize()
			require.NoError(t, err)
			assert.Equal(t, zero.Data, deq.Data, "%s %s", g, f)
			m, err := Measure(zero, q)
			require.NoError(t, err)
			assert.True(t, math.IsNaN(m.SQNR), "no signal: SQNR NaN")
			assert.Zero(t, m.MSE)
		}
	}
}

func TestQuantizeWithScales(t *testing.T) {
	x, err := FromRows([][]float32{{1, 2}, {1000, -3}})
	require.NoError(t, err)
	q, err := QuantizeWithScales(x, fp8.E4M3FN, PerTensor, []float32{1}, Options{})
	require.NoError(t, err)
	deq, err := q.Dequantize()
	require.NoError(t, err)
	assert.Equal(t, []float32{1, 2, 448, -3}, deq.Data) // 1000 saturates
	m, err := Measure(x, q)
	require.NoError(t, err)
	assert.Equal(t, 1, m.Overflow)

	// Non-finite elements follow the format's rules: Inf saturates.
	y, err := FromRows([][]float32{{float32(math.Inf(1)), 1}})
	require.NoError(t, err)
	q, err = QuantizeWithScales(y, fp8.E4M3FN, PerRow, []float32{2}, Options{})
	require.NoError(t, err)
	assert.Equal(t, fp8.E4M3FN.MaxCode(), q.Codes[0])
	m, err = Measure(y, q)
	require.NoError(t, err)
	assert.Equal(t, 1, m.NonFinite)
	assert.Equal(t, 0.0, m.MSE)

	_, err = QuantizeWithScales(x, fp8.E4M3FN, PerRow, []float32{1}, Options{})
	assert.ErrorIs(t, err, ErrShape)
	_, err = QuantizeWithScales(x, fp8.E4M3FN, PerTensor, []float32{0}, Options{})
	assert.ErrorIs(t, err, ErrValue)
	_, err = QuantizeWithScales(x, fp8.E4M3FN, PerTensor, []float32{float32(math.NaN())}, Options{})
	assert.ErrorIs(t, err, ErrValue)
	_, err = QuantizeWithScales(x, fp8.E4M3FN, MX, []float32{1, 1}, Options{})
	assert.ErrorIs(t, err, ErrGranularity)
}

func TestQuantizedCheck(t *testing.T) {
	x := normal(t, 4, 32, 1, 3)
	q, err := Quantize(x, fp8.E4M3FN, MX, Options{})
	require.NoError(t, err)
	require.NoError(t, q.Check())
	bad := *q
	bad.ScaleCodes = append([]uint8(nil), q.ScaleCodes...)
	bad.ScaleCodes[0] = 0xFF
	_, err = bad.Dequantize()
	assert.ErrorIs(t, err, ErrNonFinite)
	bad = *q
	bad.Codes = bad.Codes[:5]
	_, err = bad.Dequantize()
	assert.ErrorIs(t, err, ErrShape)
	bad = *q
	bad.BlockCols = 16
	assert.ErrorIs(t, bad.Check(), ErrShape)
	q2, err := Quantize(x, fp8.E4M3FN, PerRow, Options{})
	require.NoError(t, err)
	bad = *q2
	bad.Scales = []float32{1, 0, 1, 1}
	assert.ErrorIs(t, bad.Check(), ErrValue)
	var nilQ *Quantized
	assert.ErrorIs(t, nilQ.Check(), ErrShape)
	assert.True(t, math.IsNaN(q.BlockDecodeScale(-1)))
}

// TestStochasticMatchesScalar compares the bulk stochastic path with fp8's
// scalar EncodeStochastic on the scaled values, for every granularity and
// format, with few and many random bits.
func TestStochasticMatchesScalar(t *testing.T) {
	x := normal(t, 6, 80, 1, 21)
	x.Data[5], x.Data[6] = 1e-7, -3e-9 // deep in the subnormal range once scaled
	r := rand.New(rand.NewPCG(3, 4))
	random := make([]uint32, x.Len())
	for i := range random {
		random[i] = r.Uint32()
	}
	for _, bitsN := range []int{3, 32} {
		mode := fp8.Mode{Round: fp8.Stochastic, RandomBits: bitsN}
		for _, g := range Granularities() {
			for _, f := range elementFormats(g) {
				q, err := Quantize(x, f, g, Options{Mode: mode, Random: random})
				require.NoError(t, err)
				for i := 0; i < x.Rows; i++ {
					for j := 0; j < x.Cols; j++ {
						k := i*x.Cols + j
						s := q.Scales[(i/q.BlockRows)*q.ScaleCols+j/q.BlockCols]
						want, err := f.EncodeStochastic(float64(x.Data[k]*s), random[k], mode)
						require.NoError(t, err)
						require.Equal(t, want, q.Codes[k], "%s %s bits %d element %d", g, f, bitsN, k)
					}
				}
			}
		}
	}
}

// TestQuantizeIntoMatchesQuantize checks that QuantizeInto, reusing one
// destination across granularities and shapes, gives Quantize's result.
func TestQuantizeIntoMatchesQuantize(t *testing.T) {
	dst := new(Quantized)
	for _, shape := range [][2]int{{64, 256}, {16, 64}, {128, 384}} {
		x, err := RandomNormal(shape[0], shape[1], 3, 7)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range []Granularity{PerTensor, PerRow, Tile1x128, Block128, MX, NVFP4} {
			f := fp8.E4M3FN
			if g == NVFP4 {
				f = fp8.E2M1
			}
			want, err := Quantize(x, f, g, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := QuantizeInto(dst, x, f, g, Options{}); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(want, dst) {
				t.Fatalf("%v %s: QuantizeInto differs from Quantize", shape, g)
			}
		}
	}
	if err := QuantizeInto(nil, &Tensor{Rows: 1, Cols: 1, Data: []float32{1}}, fp8.E4M3FN, PerTensor, Options{}); err == nil {
		t.Fatal("nil destination accepted")
	}
}
