package stochastic

import (
	"math"
	"math/big"
	"sort"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refNeighbors finds the values around |x| from the format's decoded codes,
// independently of Rounder.Neighbors.
func refNeighbors(t *testing.T, f *fp8.Format, x float64) (toward, away float64) {
	var vals []float64
	for c := 0; c < f.NumCodes(); c++ {
		v := f.Decode(uint8(c))
		if !math.IsNaN(v) && !math.IsInf(v, 0) && v >= 0 {
			vals = append(vals, v)
		}
	}
	sort.Float64s(vals)
	a := math.Abs(x)
	i := sort.SearchFloat64s(vals, a)
	require.Less(t, i, len(vals))
	if vals[i] == a {
		return a, a
	}
	return vals[i-1], vals[i]
}

// refProbAway is floor(f·2^r)/2^r in exact rational arithmetic.
func refProbAway(x, toward, away float64, r int) *big.Rat {
	if toward == away {
		return new(big.Rat)
	}
	num := new(big.Rat).Sub(new(big.Rat).SetFloat64(math.Abs(x)), new(big.Rat).SetFloat64(toward))
	pos := num.Quo(num, new(big.Rat).SetFloat64(away-toward))
	scaled := pos.Mul(pos, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(r))))
	fl := new(big.Int).Quo(scaled.Num(), scaled.Denom()) // floor: both positive
	return new(big.Rat).SetFrac(fl, new(big.Int).Lsh(big.NewInt(1), uint(r)))
}

// TestProbAwayMatchesEnumeration checks the theory of biased stochastic
// rounding three ways: the package's ProbAway, an exact rational formula,
// and the fraction of all 2^r random words for which fp8's encoder rounds
// away from zero (enumerated exhaustively).
func TestProbAwayMatchesEnumeration(t *testing.T) {
	xs := []float64{1 + 1.0/3*0.125, 1.0 + 0.07, 300.7, -2.9e-3, 0.001, 5.3, -0.77, 1.0625, 17}
	for _, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2, fp8.E2M1, fp8.E3M4} {
		rd, err := FormatRounder(f)
		require.NoError(t, err)
		for _, x := range xs {
			if math.Abs(x) > f.Max() {
				continue
			}
			toward, away := refNeighbors(t, f, x)
			gotT, gotA, err := rd.Neighbors(x)
			require.NoError(t, err)
			assert.Equal(t, math.Copysign(toward, x), gotT, "%s %g", f, x)
			assert.Equal(t, math.Copysign(away, x), gotA, "%s %g", f, x)
			for r := 1; r <= 12; r++ {
				want := refProbAway(x, toward, away, r)
				p, err := rd.ProbAway(x, r)
				require.NoError(t, err)
				wantF, _ := want.Float64()
				assert.Equal(t, wantF, p, "%s x=%g r=%d", f, x, r)
				// Exhaustive: every r-bit word.
				aways := 0
				mode := fp8.Mode{Round: fp8.Stochastic, RandomBits: r}
				for w := uint32(0); w < 1<<r; w++ {
					c, err := f.EncodeStochastic(x, w, mode)
					require.NoError(t, err)
					if toward != away && math.Abs(f.Decode(c)) == away {
						aways++
					}
				}
				assert.Equal(t, wantF, float64(aways)/float64(int(1)<<r), "%s x=%g r=%d enumeration", f, x, r)
			}
		}
	}
}

func TestExpectedStochasticBiasShrinksWithBits(t *testing.T) {
	rd, err := NewRounder("E4M3FN")
	require.NoError(t, err)
	x := 1 + 0.125/3 // a third of the way from 1 to 1.125: 0.0101... in binary
	prevBias := math.Inf(-1)
	for r := 1; r <= 32; r++ {
		e, err := rd.ExpectedStochastic(x, r)
		require.NoError(t, err)
		bias := e - x
		assert.Less(t, bias, 0.0, "r=%d: a truncated probability pulls toward zero", r)
		assert.LessOrEqual(t, -bias, 0.125*math.Ldexp(1, -r), "r=%d: at most 2^-r of a step", r)
		assert.GreaterOrEqual(t, bias, prevBias-1e-18, "r=%d: never worse with more bits", r)
		prevBias = bias
	}
	// A value with few bits below the kept ones is exact once r covers them.
	y := 1 + 0.125*0.75 // position 0.11 in binary: two dropped bits
	for r := 2; r <= 32; r++ {
		e, err := rd.ExpectedStochastic(y, r)
		require.NoError(t, err)
		assert.Equal(t, y, e, "r=%d", r)
	}
	e, err := rd.ExpectedStochastic(y, 1)
	require.NoError(t, err)
	assert.Equal(t, 1+0.125*0.5, e)
	// Beyond Max, saturation makes the expectation Max.
	e, err = rd.ExpectedStochastic(1000, 8)
	require.NoError(t, err)
	assert.Equal(t, 448.0, e)
}

// TestMeasureBiasAgreesWithTheory runs the experiment and checks each
// measured mean against the exact expectation within 4.5 standard errors
// (fixed seed: a deterministic test whose false-alarm rate for a correct
// implementation is below 1e-5 per point).
func TestMeasureBiasAgreesWithTheory(t *testing.T) {
	samples := 1 << 15
	if !testenv.Long() {
		samples = 1 << 13
	}
	for _, format := range []string{"E4M3FN", "E5M2", "BF16"} {
		x := 1 + 1.0/3*0.125
		res, err := MeasureBias(BiasConfig{Format: format, X: x, Samples: samples, Seed: 3})
		require.NoError(t, err)
		require.Len(t, res.Points, 24)
		assert.Equal(t, format, res.Format)
		assert.InDelta(t, (x-res.Toward)/(res.Away-res.Toward), res.Position, 1e-15)
		for _, p := range res.Points {
			assert.InDelta(t, p.Expected, p.Mean, 4.5*p.StdErr+1e-15, "%s r=%d", format, p.RandomBits)
			assert.InDelta(t, p.ExpectedProbAway, p.ProbAway, 4.5*math.Sqrt(0.25/float64(samples)), "%s r=%d", format, p.RandomBits)
			assert.Equal(t, p.Expected-x, p.ExpectedBias)
		}
		// With one bit the probability of rounding up is floor(2/3... ·2)/2 = 0:
		// every rounding goes down and the bias is the whole distance.
		assert.Equal(t, res.Toward, res.Points[0].Mean, format)
		last := res.Convergence[len(res.Convergence)-1]
		assert.Equal(t, samples, last.N)
		assert.Equal(t, 24, res.ConvergenceAt)
		assert.InDelta(t, 0, last.Error, 4.5*last.Sigma+math.Abs(res.Points[23].ExpectedBias))
		for i := 1; i < len(res.Convergence); i++ {
			assert.Equal(t, 2*res.Convergence[i-1].N, res.Convergence[i].N)
		}
	}
}

func TestMeasureBiasErrors(t *testing.T) {
	_, err := MeasureBias(BiasConfig{Format: "E9M9", X: 1, Samples: 10})
	assert.ErrorIs(t, err, fp8.ErrUnknownFormat)
	_, err = MeasureBias(BiasConfig{Format: "E4M3FN", X: 1, Samples: 0})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, err = MeasureBias(BiasConfig{Format: "E4M3FN", X: 1, Samples: 10, RandomBits: []int{0}})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, err = MeasureBias(BiasConfig{Format: "E4M3FN", X: 1, Samples: 10, RandomBits: []int{}})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, err = MeasureBias(BiasConfig{Format: "E4M3FN", X: math.NaN(), Samples: 10})
	assert.ErrorIs(t, err, ErrNaN)
	_, err = MeasureBias(BiasConfig{Format: "E4M3FN", X: math.Inf(1), Samples: 10})
	assert.ErrorIs(t, err, ErrNaN)
	_, err = MeasureBias(BiasConfig{Format: "E8M0", X: -1, Samples: 10})
	assert.ErrorIs(t, err, ErrInvalidArgument)
}

func TestRounderBasics(t *testing.T) {
	for name, want := range map[string]string{"bf16": "BF16", " fp16 ": "FP16", "float8_e4m3fn": "E4M3FN", "e5m2": "E5M2"} {
		rd, err := NewRounder(name)
		require.NoError(t, err)
		assert.Equal(t, want, rd.Name())
	}
	_, err := FormatRounder(nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, err = WideRounder(nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)

	bf, err := NewRounder("BF16")
	require.NoError(t, err)
	v, err := bf.Nearest(1 + 1.0/256) // a tie between 1 and 1+2^-7: to even
	require.NoError(t, err)
	assert.Equal(t, 1.0, v)
	v, err = bf.Stochastic(1+1.0/256, 0, 8)
	require.NoError(t, err)
	assert.Equal(t, 1.0, v, "no random bits: truncation")
	v, err = bf.Stochastic(1+1.0/256, 0xFF, 8)
	require.NoError(t, err)
	assert.Equal(t, 1+1.0/128, v, "all-ones word: up")
	assert.InDelta(t, 3.3895313892515355e38, bf.Max(), 1e24)
	_, err = bf.Nearest(math.NaN())
	assert.ErrorIs(t, err, ErrNaN)
	_, err = bf.Stochastic(math.NaN(), 0, 8)
	assert.ErrorIs(t, err, ErrNaN)
	_, err = bf.Stochastic(1, 0, 0)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, err = bf.ProbAway(1, 33)
	assert.ErrorIs(t, err, ErrInvalidArgument)

	e4, err := NewRounder("E4M3FN")
	require.NoError(t, err)
	v, err = e4.Nearest(1e6)
	require.NoError(t, err)
	assert.Equal(t, 448.0, v, "minifloats saturate")
	lo, hi, err := e4.Neighbors(-0.3)
	require.NoError(t, err)
	assert.Equal(t, []float64{-0.28125, -0.3125}, []float64{lo, hi})
}
