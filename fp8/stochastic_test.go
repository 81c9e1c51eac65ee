package fp8

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stochasticMean returns E[round(v)] over all 2^r random words, exactly.
func stochasticMean(t testing.TB, f *Format, v float64, r int, rule StochasticRule) *big.Rat {
	m := Mode{Round: Stochastic, RandomBits: r, SRRule: rule}
	sum := new(big.Rat)
	for rnd := uint32(0); rnd < 1<<r; rnd++ {
		c, err := f.EncodeStochastic(v, rnd, m)
		require.NoError(t, err)
		sum.Add(sum, new(big.Rat).SetFloat64(f.Decode(c)))
	}
	return sum.Quo(sum, big.NewRat(1<<r, 1))
}

// stochasticBias returns E[round(v)] - v over all 2^r random words.
func stochasticBias(t testing.TB, f *Format, v float64, r int, rule StochasticRule) *big.Rat {
	return new(big.Rat).Sub(stochasticMean(t, f, v, r, rule), new(big.Rat).SetFloat64(v))
}

// TestStochasticRuleBias computes the bias of both stochastic rules exactly
// (all 2^r random words) and checks it against the closed forms documented
// on StochasticRule: -ULP·frac(δ·2^r)/2^r for StochasticFloor and
// ULP·(rne(δ·2^r) - δ·2^r)/2^r for StochasticNearest, computed here with
// exact rationals.
func TestStochasticRuleBias(t *testing.T) {
	for _, v := range []float64{259, 277, 288, 311, 257.5, 300.125} {
		for r := 1; r <= 8; r++ {
			lo, ulp := 256.0, 64.0 // E5M2 between 256 and 512
			delta := new(big.Rat).SetFloat64((v - lo) / ulp)
			scaled := new(big.Rat).Mul(delta, big.NewRat(1<<r, 1))
			fl := new(big.Rat).SetInt(new(big.Int).Quo(scaled.Num(), scaled.Denom()))
			ne := new(big.Rat).Mul(nearestEvenMultiple(delta, r), big.NewRat(1<<r, 1))
			unit := big.NewRat(int64(ulp), 1<<r)
			wantFloor := new(big.Rat).Mul(new(big.Rat).Sub(fl, scaled), unit)
			wantNear := new(big.Rat).Mul(new(big.Rat).Sub(ne, scaled), unit)
			gotFloor := stochasticBias(t, E5M2, v, r, StochasticFloor)
			gotNear := stochasticBias(t, E5M2, v, r, StochasticNearest)
			assert.Zero(t, wantFloor.Cmp(gotFloor), "v=%g r=%d floor: %s want %s", v, r, gotFloor, wantFloor)
			assert.Zero(t, wantNear.Cmp(gotNear), "v=%g r=%d nearest: %s want %s", v, r, gotNear, wantNear)
			assert.LessOrEqual(t, gotFloor.Sign(), 0, "the floor rule never rounds up on average")
		}
	}
	// The numbers quoted in StochasticRule's documentation.
	assert.Equal(t, "-5", stochasticBias(t, E5M2, 277, 3, StochasticFloor).RatString())
	assert.Equal(t, "3", stochasticBias(t, E5M2, 277, 3, StochasticNearest).RatString())
	assert.Equal(t, "272", stochasticMean(t, E5M2, 277, 3, StochasticFloor).RatString())
	// With r covering every dropped bit both rules are unbiased.
	for _, rule := range []StochasticRule{StochasticFloor, StochasticNearest} {
		assert.Equal(t, "0", stochasticBias(t, E5M2, 277, 6, rule).RatString())
	}
}

// TestStochasticRuleSlices checks that the slice encoder honours the rule.
func TestStochasticRuleSlices(t *testing.T) {
	src := []float32{259, 277, 311, -277, 1e-6, 0.3952, 6e4}
	random := []uint32{5, 4, 1, 4, 7, 3, 6}
	for _, f := range []*Format{E5M2, E4M3FN} {
		for _, rule := range []StochasticRule{StochasticFloor, StochasticNearest} {
			m := Mode{Round: Stochastic, RandomBits: 3, SRRule: rule}
			dst := make([]uint8, len(src))
			require.NoError(t, f.EncodeSliceStochastic32(dst, src, random, m))
			for i, x := range src {
				c, err := f.EncodeStochastic(float64(x), random[i], m)
				require.NoError(t, err)
				assert.Equal(t, c, dst[i], "%s %v %v", f, rule, x)
			}
		}
	}
	_, err := E5M2.EncodeStochastic(1, 0, Mode{Round: Stochastic, RandomBits: 3, SRRule: 9})
	assert.ErrorIs(t, err, ErrInvalidMode)
	r, err := ParseStochasticRule("nearest")
	require.NoError(t, err)
	assert.Equal(t, StochasticNearest, r)
	assert.Equal(t, "floor", StochasticFloor.String())
	_, err = ParseStochasticRule("odd")
	assert.ErrorIs(t, err, ErrInvalidMode)
}

// upFraction returns how many of the 2^r random words round v away from zero.
func upFraction(t testing.TB, f *Format, v float64, r int, rule StochasticRule) string {
	m := Mode{Round: Stochastic, RandomBits: r, SRRule: rule}
	down, err := f.Encode(v, Mode{Round: TowardZero})
	require.NoError(t, err)
	up := 0
	for rnd := uint32(0); rnd < 1<<r; rnd++ {
		c, err := f.EncodeStochastic(v, rnd, m)
		require.NoError(t, err)
		if c != down {
			up++
		}
	}
	return fmt.Sprintf("%d/%d", up, 1<<r)
}

// TestStochasticGfloatVectors runs gfloat's own stochastic-rounding test
// vectors (graphcore-research/gfloat test/test_round.py,
// test_stochastic_rounding: E5M2, v = 259, 277, 288, 311) exactly, over all
// 2^r random words: StochasticNearest reproduces every expected fraction,
// StochasticFloor does not (issue 12 item 16).
func TestStochasticGfloatVectors(t *testing.T) {
	cases := []struct {
		v         float64
		r         int
		want      string // gfloat's expected_up
		wantFloor string
	}{
		{259, 3, "0/8", "0/8"},
		{259, 5, "2/32", "1/32"},
		{277, 3, "3/8", "2/8"},
		{288, 3, "4/8", "4/8"},
		{311, 3, "7/8", "6/8"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, upFraction(t, E5M2, c.v, c.r, StochasticNearest), "v=%g r=%d", c.v, c.r)
		assert.Equal(t, c.wantFloor, upFraction(t, E5M2, c.v, c.r, StochasticFloor), "v=%g r=%d", c.v, c.r)
	}
}
