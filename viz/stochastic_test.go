package viz

import (
	"image"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// srReference computes, with exact rationals and independently of fp8's
// codec, the probability that x rounds up to upper with r random bits:
// the position δ = (x - lower)/(upper - lower) made a multiple of 2^-r by
// the rule (floor, or nearest with ties to even), counted from the
// neighbour toward zero. lower and upper are from the scene's facts.
func srReference(t *testing.T, x, lower, upper float64, r int, rule string) *big.Rat {
	t.Helper()
	rat := func(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }
	toward, away := lower, upper
	if x < 0 {
		toward, away = upper, lower
	}
	d := new(big.Rat).Quo(new(big.Rat).Sub(rat(x), rat(toward)), new(big.Rat).Sub(rat(away), rat(toward)))
	if r < 0 {
		return d // no quantization: the ideal probability of going away
	}
	scaled := new(big.Rat).Mul(d, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(r))))
	q, m := new(big.Int).QuoRem(scaled.Num(), scaled.Denom(), new(big.Int))
	if rule == "nearest" {
		c := new(big.Int).Lsh(m, 1).Cmp(scaled.Denom())
		if c > 0 || c == 0 && q.Bit(0) == 1 {
			q.Add(q, big.NewInt(1))
		}
	}
	pAway := new(big.Rat).SetFrac(q, new(big.Int).Lsh(big.NewInt(1), uint(r)))
	if x < 0 {
		return new(big.Rat).Sub(big.NewRat(1, 1), pAway)
	}
	return pAway
}

func srFacts(t *testing.T, params map[string]string) map[string]string {
	t.Helper()
	s, err := New("stochastic")
	require.NoError(t, err)
	require.NoError(t, SetAll(s, params))
	f := s.Facts()
	require.NotContains(t, f, "error")
	return f
}

// TestStochasticFacts checks the exact probabilities of several settings
// against exact rationals, the sign of the bias of each rule, and the
// frequency of the draws against a binomial 5σ band.
func TestStochasticFacts(t *testing.T) {
	cases := []struct {
		params map[string]string
		lower  float64
		upper  float64
	}{
		// 1 + 105/2^17: 14 dropped bits, covered by r = 24: exact.
		{map[string]string{"x": "1.0008010864257812", "random_bits": "24", "rule": "floor"}, 1, 1.125},
		// The default: 1.1 between 1 and 1.125, r = 4.
		{map[string]string{}, 1, 1.125},
		{map[string]string{"rule": "nearest"}, 1, 1.125},
		// Negative, E5M2, two bits, many draws.
		{map[string]string{"x": "-0.3952", "format": "E5M2", "random_bits": "2", "rule": "nearest", "draws": "100000", "seed": "7"}, -0.4375, -0.375},
		{map[string]string{"x": "0.3952", "format": "E5M2", "random_bits": "2", "draws": "100000", "seed": "7"}, 0.375, 0.4375},
		// A subnormal of E4M3FN (min subnormal 2^-9).
		{map[string]string{"x": "0.0025", "random_bits": "3", "draws": "5000"}, 0.001953125, 0.00390625},
	}
	for _, c := range cases {
		f := srFacts(t, c.params)
		x := factFloat(t, f, "x")
		assert.Equal(t, c.lower, factFloat(t, f, "lower"), "%v", c.params)
		assert.Equal(t, c.upper, factFloat(t, f, "upper"), "%v", c.params)
		r, _ := strconv.Atoi(f["random_bits"])
		ideal, _ := srReference(t, x, c.lower, c.upper, -1, "").Float64()
		if x < 0 {
			ideal = 1 - ideal
		}
		assert.InDelta(t, ideal, factFloat(t, f, "up_probability_ideal"), 1e-15, "%v", c.params)
		for _, rule := range []string{"floor", "nearest"} {
			want, _ := srReference(t, x, c.lower, c.upper, r, rule).Float64()
			assert.Equal(t, want, factFloat(t, f, rule+"_up_probability"), "%s %v", rule, c.params)
		}
		p := factFloat(t, f, "up_probability")
		assert.Equal(t, f[f["rule"]+"_up_probability"], f["up_probability"])
		n := factFloat(t, f, "draws")
		sigma := math.Sqrt(p * (1 - p) / n)
		assert.InDelta(t, p, factFloat(t, f, "up_frequency"), 5*sigma+1e-12, "%v", c.params)
		// The mean of the draws: lower + frequency·step.
		assert.InDelta(t, c.lower+factFloat(t, f, "up_frequency")*(c.upper-c.lower), factFloat(t, f, "mean"), 1e-12)
	}

	// Enough random bits: the probability is exactly the position, no bias.
	f := srFacts(t, cases[0].params)
	want := new(big.Rat).Quo(new(big.Rat).Sub(new(big.Rat).SetFloat64(1.0008010864257812), big.NewRat(1, 1)), big.NewRat(1, 8))
	wf, exact := want.Float64()
	require.True(t, exact)
	assert.Equal(t, wf, factFloat(t, f, "up_probability"))
	assert.Equal(t, "14", f["dropped_bits"])
	assert.Equal(t, "cover", f["bits_cover"])
	assert.Equal(t, "0", f["bias"])
	assert.Equal(t, "unbiased", f["bias_direction"])

	// Few random bits, 1.1 (δ = 0.8, 12.8 sixteenths): floor keeps 12
	// and is biased down; nearest takes 13 and is biased up.
	f = srFacts(t, nil)
	assert.Equal(t, "0.75", f["floor_up_probability"])
	assert.Equal(t, "0.8125", f["nearest_up_probability"])
	assert.Equal(t, "biased down", f["floor_bias_direction"])
	assert.Equal(t, "biased up", f["nearest_bias_direction"])
	assert.Equal(t, "biased down", f["bias_direction"])
	assert.Equal(t, "do not cover", f["bits_cover"])
	assert.Less(t, factFloat(t, f, "floor_bias"), 0.0)
	assert.Greater(t, factFloat(t, f, "nearest_bias"), 0.0)
	// Floor pulls toward zero: up for a negative x.
	f = srFacts(t, map[string]string{"x": "-1.1"})
	assert.Equal(t, "biased up", f["floor_bias_direction"])

	// A value of the format, and one beyond max: no choice to make.
	f = srFacts(t, map[string]string{"x": "1.125"})
	assert.Equal(t, f["lower"], f["upper"])
	assert.Equal(t, "0", f["up_probability"])
	assert.Equal(t, "unbiased", f["bias_direction"])
	f = srFacts(t, map[string]string{"x": "100", "format": "E2M1"})
	assert.Equal(t, "6", f["lower"])
	assert.Equal(t, "6", f["mean"])
}

// The same seed gives the same draws; another seed other draws.
func TestStochasticSeed(t *testing.T) {
	a := srFacts(t, map[string]string{"seed": "3"})
	b := srFacts(t, map[string]string{"seed": "3"})
	c := srFacts(t, map[string]string{"seed": "4"})
	assert.Equal(t, a, b)
	assert.NotEqual(t, a["mean"], c["mean"])
}

func TestStochasticClickMovesX(t *testing.T) {
	s, err := New("stochastic")
	require.NoError(t, err)
	render(t, s, 1280, 720)
	ax := s.(*stochasticScene).line
	require.NotNil(t, ax)
	px := int(ax.X.Map(1.05))
	require.True(t, s.Click(px, (ax.Plot.Min.Y+ax.Plot.Max.Y)/2, 1280, 720))
	v, _ := s.Get("x")
	x, err := strconv.ParseFloat(v, 64)
	require.NoError(t, err)
	assert.InDelta(t, 1.05, x, 0.001)
	assert.LessOrEqual(t, len(v), 6, "a click gives a short value, not %s", v)
	// Outside the number line nothing changes.
	assert.False(t, s.Click(px, ax.Plot.Max.Y+40, 1280, 720))
}

// The value of x is never cut by the top of its short plot (the desktop
// app's 980×447 picture cut "x = 1.1" by 3 px): it goes beside the
// triangle where there is no room above it, and is drawn whole.
func TestStochasticValueLabelWhole(t *testing.T) {
	for _, x := range []string{"", "-100", "100"} {
		for _, sz := range []image.Point{{980, 447}, {1280, 720}, {MinWidth, MinHeight}} {
			s, err := New("stochastic")
			require.NoError(t, err)
			if x != "" {
				require.NoError(t, s.Set("x", x))
			}
			_, boxes := renderRecorded(t, s, image.Rectangle{Max: sz}, Display{})
			found := false
			for _, b := range boxes {
				if strings.Contains(b.Text, "x = ") {
					found = true
					assert.False(t, b.Clipped(), "x=%s at %v: %q %v cut by %v", x, sz, b.Text, b.Box, b.Clip)
				}
			}
			assert.True(t, found, "x=%s at %v: the value of x is shown", x, sz)
		}
	}
}
