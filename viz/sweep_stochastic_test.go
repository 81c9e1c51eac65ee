package viz

import (
	"math"
	"math/big"
	"strconv"
	"testing"

	"github.com/fp8lab/fp8lab/rng"
	"github.com/stretchr/testify/require"
)

func init() {
	sweeps["stochastic"] = sweepSpec{
		fixed: map[string][]string{"x": {"1.1", "-1.1", "0", "1.125", "100", "-100", "0.0001", "3.3", "1e-05", "-0.3", "0.0009765625"},
			"random_bits": {"1", "2", "4", "8", "23", "24"}, "draws": {"1", "1000", "100000"}, "seed": {"1", "2"}},
		short: 150,
		truth: stochasticTruth,
	}
}

// stochasticTruth recomputes the odds in exact rationals from the
// neighbours refRound finds: the position δ of |x| between the magnitudes
// around it, the floor rule's floor(δ·2^r)/2^r and the nearest rule's
// round-half-even(δ·2^r)/2^r of going away from zero, and the draws by
// applying the rule to the low r bits of each Philox word.
func stochasticTruth(t *testing.T, s Scene) truths {
	get := func(k string) string { return mustGet(t, s, k) }
	x, err := strconv.ParseFloat(get("x"), 64)
	require.NoError(t, err)
	format, rule := get("format"), get("rule")
	r, _ := strconv.Atoi(get("random_bits"))
	draws, _ := strconv.Atoi(get("draws"))
	seed, _ := strconv.Atoi(get("seed"))
	tr := truths{}
	rr, ok := refRound(t, format, x, "nearest", "saturate")
	if !ok {
		return tr
	}
	vals := refOf(t, format).vals
	top := vals[len(vals)-1]
	lower, upper := rr.lower, rr.hi
	if math.Abs(x) > top {
		lower, upper = math.Copysign(top, x), math.Copysign(top, x)
	}
	tr["stochastic.needs_rounding"] = lower != upper
	if lower == upper {
		return tr
	}
	step := upper - lower
	rat := func(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }
	// δa: the position of |x| from the magnitude toward zero, in steps.
	toward := math.Min(math.Abs(lower), math.Abs(upper))
	da := new(big.Rat).Quo(new(big.Rat).Sub(rat(math.Abs(x)), rat(toward)), rat(step))
	two := new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(r)))
	scaled := new(big.Rat).Mul(da, two)
	fl := new(big.Int).Quo(scaled.Num(), scaled.Denom())
	near := new(big.Int).Set(fl)
	frac := new(big.Rat).Sub(scaled, new(big.Rat).SetInt(fl))
	if c := frac.Cmp(big.NewRat(1, 2)); c > 0 || c == 0 && fl.Bit(0) == 1 {
		near.Add(near, big.NewInt(1))
	}
	pAway := map[string]*big.Int{"floor": fl, "nearest": near}
	up := func(d *big.Int) float64 {
		p, _ := new(big.Rat).Quo(new(big.Rat).SetInt(d), two).Float64()
		if x < 0 {
			return 1 - p
		}
		return p
	}
	bias := func(d *big.Int) float64 { return lower + up(d)*step - x }
	dropped := 0
	for den := new(big.Int).Set(da.Denom()); den.Cmp(big.NewInt(1)) > 0; den.Rsh(den, 1) {
		dropped++
	}
	ideal, _ := da.Float64()
	if x < 0 {
		ideal = 1 - ideal
	}
	tr["stochastic.lower"], tr["stochastic.upper"], tr["stochastic.step"] = lower, upper, step
	tr["stochastic.up_probability_ideal"] = ideal
	tr["stochastic.dropped_bits"] = float64(dropped)
	tr["stochastic.bits_cover"] = r >= dropped
	tr["stochastic.random_bits"] = r
	p := up(pAway[rule])
	tr["stochastic.up_probability"] = p
	tr["stochastic.expected"] = lower + p*step
	tr["stochastic.bias"] = bias(pAway[rule])
	tr["stochastic.bias_steps"] = bias(pAway[rule]) / step
	tr["stochastic.bias_direction"] = direction(bias(pAway[rule]))
	tr["stochastic.floor_up_probability"], tr["stochastic.nearest_up_probability"] = up(fl), up(near)
	tr["stochastic.floor_bias_direction"], tr["stochastic.nearest_bias_direction"] = direction(bias(fl)), direction(bias(near))
	// The draws: word i goes away from zero when its low r bits plus the
	// rule's integer reach 2^r.
	words := make([]uint32, draws)
	rng.NewStream(uint64(seed), srStream).Fill(words, 0)
	d := pAway[rule].Uint64()
	ups, sum := 0, 0.0
	for _, w := range words {
		away := d+uint64(w)&(1<<r-1) >= 1<<r
		v := toward
		if away {
			v = toward + step
		}
		v = math.Copysign(v, x)
		if v == upper {
			ups++
		}
		sum += v
	}
	tr["stochastic.draws"], tr["stochastic.ups"] = draws, float64(ups)
	tr["stochastic.up_frequency"] = float64(ups) / float64(draws)
	tr["stochastic.mean"] = sum / float64(draws)
	sigma := math.Sqrt(p * (1 - p) / float64(draws))
	z := 0.0
	if sigma > 0 {
		z = (float64(ups)/float64(draws) - p) / sigma
	}
	tr["stochastic.sigmas_vs_3"] = [2]float64{math.Abs(z), 3}
	return tr
}
