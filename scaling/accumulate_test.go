package scaling

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// alignedRunRat is the aligned model in exact rationals, written from its
// definition and independent of the float64 bit arithmetic of
// Accumulator.run: per group, the largest of |c| and |p_i| lies in
// [2^e, 2^(e+1)); every term is truncated toward zero to a multiple of
// 2^(e-m); the exact sum is truncated toward zero to m fraction bits of its
// own leading bit.
func alignedRunRat(x, y []float32, group, m int) float64 {
	c := new(big.Rat)
	for p := 0; p < len(x); p += group {
		q := min(p+group, len(x))
		terms := []*big.Rat{c}
		for i := p; i < q; i++ {
			terms = append(terms, new(big.Rat).SetFloat64(float64(x[i]*y[i])))
		}
		top := new(big.Rat)
		for _, v := range terms {
			if a := new(big.Rat).Abs(v); a.Cmp(top) > 0 {
				top = a
			}
		}
		if top.Sign() == 0 {
			continue
		}
		grid := pow2Rat(floorLog2(top) - m)
		sum := new(big.Rat)
		for _, v := range terms {
			sum.Add(sum, truncRat(v, grid))
		}
		if sum.Sign() != 0 {
			sum = truncRat(sum, pow2Rat(floorLog2(new(big.Rat).Abs(sum))-m))
		}
		c = sum
	}
	f, _ := c.Float64()
	return f
}

// floorLog2 returns e with 2^e ≤ r < 2^(e+1) for r > 0, by comparison.
func floorLog2(r *big.Rat) int {
	e := 0
	for r.Cmp(pow2Rat(e)) < 0 {
		e--
	}
	for r.Cmp(pow2Rat(e+1)) >= 0 {
		e++
	}
	return e
}

func pow2Rat(e int) *big.Rat {
	if e >= 0 {
		return new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(e)))
	}
	return new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(-e)))
}

// truncRat truncates v toward zero to a multiple of grid.
func truncRat(v, grid *big.Rat) *big.Rat {
	q := new(big.Rat).Quo(v, grid)
	n := new(big.Int).Quo(q.Num(), q.Denom()) // big.Int.Quo truncates toward zero
	return new(big.Rat).Mul(new(big.Rat).SetInt(n), grid)
}

// fp8Values returns n random E4M3FN values (or E5M2) of mixed sign and a
// wide range, zeros among them.
func fp8Values(r *rand.Rand, f *fp8.Format, n int, signed bool) []float32 {
	v := make([]float32, n)
	for i := range v {
		x := r.NormFloat64() * math.Exp2(float64(r.IntN(12)-6))
		if !signed {
			x = math.Abs(x)
		}
		if r.IntN(16) == 0 {
			x = 0
		}
		code, err := f.Encode(x, fp8.Mode{})
		if err != nil {
			panic(err)
		}
		v[i] = float32(f.Decode(code))
	}
	return v
}

// TestAlignedRunMatchesExactRationals: the aligned model's float64
// arithmetic gives the exact-rational definition's value, for several
// widths, group sizes and operand signs.
func TestAlignedRunMatchesExactRationals(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct {
		m, group, k int
		signed      bool
	}{{13, 32, 300, false}, {13, 32, 300, true}, {13, 1, 100, true}, {4, 16, 200, true}, {23, 128, 260, true}, {1, 3, 50, false}, {10, 7, 77, true}} {
		for _, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2} {
			x, y := fp8Values(r, f, tc.k, tc.signed), fp8Values(r, f, tc.k, true)
			acc := Accumulator{MantissaBits: tc.m, AlignGroup: tc.group}
			got := acc.run(x, y)
			want := alignedRunRat(x, y, tc.group, tc.m)
			require.Equal(t, float32(want), got, "%+v %s", tc, f.Name())
		}
	}
}

// TestAlignedHandCases: what truncating the addends means, on sums a
// person can follow.
func TestAlignedHandCases(t *testing.T) {
	acc := Accumulator{MantissaBits: 13, AlignGroup: 32}
	ones := func(n int, v float32) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = v
		}
		return s
	}
	// 2^14 then ones: the grid of 2^14 with 13 fraction bits is 2, so every
	// 1 truncates to 0, in the first group and after it.
	x := append([]float32{16384}, ones(95, 1)...)
	assert.Equal(t, float32(16384), acc.run(x, ones(96, 1)))
	// The same with -1: truncated toward zero, so also lost (the classic
	// model, truncating the sum, would shrink it instead).
	x = append([]float32{16384}, ones(95, -1)...)
	assert.Equal(t, float32(16384), acc.run(x, ones(96, 1)))
	classic, err := Accumulator{MantissaBits: 13}.Dot(x, ones(96, 1))
	require.NoError(t, err)
	assert.Equal(t, float32(16384-95), classic, "rounding the sum instead: below 2^14 the grid is 1, and 16384 − 95 is exact")
	// Below 2^14 the grid is 1 or finer: ones are exact.
	assert.Equal(t, float32(4096), acc.run(ones(4096, 1), ones(4096, 1)))
	// One group: the products align to the largest among them.
	assert.Equal(t, float32(1024+0.125), acc.run([]float32{1024, 0.1875}, []float32{1, 1}), "grid 2^-3 below 1024")
	// A sum whose terms cancel exactly is exact.
	assert.Equal(t, float32(0), acc.run([]float32{3, -3, 0.5, -0.5}, ones(4, 1)))
}

// TestAccumulatorSlices: split-K cuts whole 128-product tiles into
// ⌈K/SplitLen⌉ slices from SplitFrom on.
func TestAccumulatorSlices(t *testing.T) {
	for _, tc := range []struct {
		k    int
		want []int
	}{
		{4096, nil},
		{8191, nil},
		{8192, []int{21 * 128, 42 * 128}}, // 64 tiles in 3 slices: 21, 21, 22
		{16384, []int{21 * 128, 42 * 128, 64 * 128, 85 * 128, 106 * 128}}, // 128 tiles in 6
	} {
		assert.Equal(t, tc.want, FastAccumulator.slices(tc.k), "K = %d", tc.k)
	}
	tiny := Accumulator{SplitFrom: 16, SplitLen: 128}
	assert.Equal(t, []int{128}, tiny.slices(200), "two tiles, two slices")
	assert.Empty(t, tiny.slices(100), "one tile cannot be split")
	assert.Nil(t, PromotedAccumulator.slices(1<<20))
}

// TestAccumulatorCheck: every invalid combination is an error, never a
// panic later.
func TestAccumulatorCheck(t *testing.T) {
	for _, bad := range []Accumulator{
		{MantissaBits: -1}, {MantissaBits: 24}, {PromoteEvery: -1},
		{MantissaBits: 13, AlignGroup: -1}, {MantissaBits: 13, AlignGroup: MaxAlignGroup + 1},
		{AlignGroup: 32}, {MantissaBits: 13, RoundNearest: true, AlignGroup: 32},
		{SplitFrom: -1}, {SplitLen: -1}, {SplitFrom: 8192}, {SplitFrom: 8192, SplitLen: 64},
	} {
		assert.ErrorIs(t, bad.Check(), ErrOptions, "%+v", bad)
		_, err := bad.Dot([]float32{1}, []float32{1})
		assert.ErrorIs(t, err, ErrOptions)
	}
	for _, good := range []Accumulator{Float32Accumulator, FastAccumulator, PromotedAccumulator, {MantissaBits: 23, AlignGroup: MaxAlignGroup}, {SplitFrom: 1, SplitLen: SplitTile}} {
		assert.NoError(t, good.Check(), "%+v", good)
	}
}

// TestAlignedKernelMatchesGeneralLoop: the vector kernel (and its Go twin)
// gives the reference runs' sums bit for bit, through ScaledMatMul and
// ScaledMatMulNT, for every granularity pair, column counts around the
// kernel's eight lanes, promotion and split-K.
func TestAlignedKernelMatchesGeneralLoop(t *testing.T) {
	const m, k = 3, 300
	gs := []Granularity{PerTensor, PerRow, Tile1x128, Block128, MX, Block(4, 64)}
	accs := []Accumulator{FastAccumulator, PromotedAccumulator, {MantissaBits: 4, AlignGroup: 1, PromoteEvery: 7},
		{MantissaBits: 17, AlignGroup: 32}, {MantissaBits: 13, AlignGroup: 5, SplitFrom: 256, SplitLen: 128},
		{MantissaBits: 20, AlignGroup: 128}} // the last takes the general loop: sums past 2^24
	for _, n := range []int{1, 7, 8, 9, 17} {
		a := normal(t, m, k, 1, uint64(n))
		b := normal(t, k, n, 1, uint64(n)+100)
		a.Data[3] = 300 // an outlier, so that sums span many binades
		for i := 0; i < k; i += 5 {
			b.Data[i*n] = -b.Data[i*n] * 4
		}
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
					requireSameBits(t, want.Data, got.Data, "n=%d %v×%v %+v", n, ga, gb, acc)
				}
			}
		}
	}
}

// TestScaledMatMulNT: the TN entry point equals ScaledMatMul of the
// transposed operand bit for bit, for classic, aligned and float32
// accumulators and every granularity whose transpose is a granularity.
func TestScaledMatMulNT(t *testing.T) {
	const m, k, n = 4, 256, 12
	a := normal(t, m, k, 1, 11)
	bt := normal(t, n, k, 1, 12) // Bᵀ, K-major
	b, err := bt.Transpose()
	require.NoError(t, err)
	pairs := []struct{ nt, kn Granularity }{
		{PerTensor, PerTensor}, {PerRow, PerCol}, {Tile1x128, Block(128, 1)}, {Block128, Block128}, {Block(4, 64), Block(64, 4)},
	}
	for _, p := range pairs {
		qbt, err := Quantize(bt, fp8.E4M3FN, p.nt, Options{})
		require.NoError(t, err)
		qb, err := Quantize(b, fp8.E4M3FN, p.kn, Options{})
		require.NoError(t, err)
		qa, err := Quantize(a, fp8.E4M3FN, Tile1x128, Options{})
		require.NoError(t, err)
		for _, acc := range []Accumulator{Float32Accumulator, {MantissaBits: 13}, {MantissaBits: 13, PromoteEvery: 128}, FastAccumulator, PromotedAccumulator} {
			want, err := ScaledMatMul(qa, qb, acc)
			require.NoError(t, err)
			got, err := ScaledMatMulNT(qa, qbt, acc)
			require.NoError(t, err)
			requireSameBits(t, want.Data, got.Data, "%v %+v", p.nt, acc)
		}
	}
	qa, err := Quantize(a, fp8.E4M3FN, PerTensor, Options{})
	require.NoError(t, err)
	_, err = ScaledMatMulNT(qa, qa, FastAccumulator)
	require.NoError(t, err, "A·Aᵀ is a valid product")
	qb, err := Quantize(b, fp8.E4M3FN, PerTensor, Options{})
	require.NoError(t, err)
	_, err = ScaledMatMulNT(qa, qb, FastAccumulator)
	assert.ErrorIs(t, err, ErrShape)
}

// TestAlignedNonFinite: NaN and infinite codes take the general loop and
// propagate.
func TestAlignedNonFinite(t *testing.T) {
	a, err := FromRows([][]float32{{1, 2, 3, 4, 5, 6, 7, 8}})
	require.NoError(t, err)
	qa, err := Quantize(a, fp8.E5M2, PerTensor, Options{})
	require.NoError(t, err)
	qb, err := Quantize(mustTranspose(t, a), fp8.E5M2, PerTensor, Options{})
	require.NoError(t, err)
	qa.Codes[2] = 0x7C // +Inf
	c, err := ScaledMatMul(qa, qb, FastAccumulator)
	require.NoError(t, err)
	assert.True(t, math.IsInf(float64(c.Data[0]), 1))
	qa.Codes[5] = 0xFC // −Inf beside +Inf
	c, err = ScaledMatMul(qa, qb, FastAccumulator)
	require.NoError(t, err)
	assert.True(t, math.IsNaN(float64(c.Data[0])))
}

func mustTranspose(t *testing.T, x *Tensor) *Tensor {
	y, err := x.Transpose()
	require.NoError(t, err)
	return y
}

func requireSameBits(t *testing.T, want, got []float32, msg string, args ...any) {
	t.Helper()
	require.Len(t, got, len(want))
	for i := range want {
		if math.Float32bits(want[i]) != math.Float32bits(got[i]) {
			require.Failf(t, "bits differ", "element %d: %g, want %g; "+msg, append([]any{i, got[i], want[i]}, args...)...)
		}
	}
}

func TestAccumulatorString(t *testing.T) {
	for acc, want := range map[Accumulator]string{
		Float32Accumulator:                     "float32",
		{MantissaBits: 13}:                     "13-bit truncating",
		{MantissaBits: 12, RoundNearest: true}: "12-bit nearest",
		PromotedAccumulator:                    "13-bit aligned in groups of 32, promoted every 128",
		FastAccumulator:                        "13-bit aligned in groups of 32, K split from 8192 into slices of at most 3072",
	} {
		assert.Equal(t, want, acc.String())
	}
}
