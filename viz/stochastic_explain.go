package viz

import (
	"math"

	"github.com/fp8lab/fp8lab/viz/claim"
)

// The stochastic-rounding scene's explanation: the two neighbours of x and
// the ideal odds, what r random bits give under the chosen rule (biased or
// not), both rules side by side, and the draws against the exact odds.

// biasIs is the claim of a bias's direction.
func biasIs(key string, bias float64) claim.Is {
	return claim.Is{Key: key, Value: direction(bias), Words: direction(bias)}
}

// Explain implements Scene.
func (s *stochasticScene) Explain() claim.Explanation {
	var e claim.Explanation
	f := facts(s.Facts())
	if msg, ok := f["error"]; ok {
		e.Addf("The scene cannot be computed: %s.", msg)
		return e
	}
	name, x := f["format"], f.r("x")
	bits := claim.Count{Key: "stochastic.random_bits", N: f.int("random_bits"), One: "random bit", Many: "random bits"}
	p := claim.Quantity{Key: "stochastic.up_probability", V: f.num("up_probability"), Show: sig4}
	ideal := claim.Quantity{Key: "stochastic.up_probability_ideal", V: f.num("up_probability_ideal"), Show: sig4}
	if f["lower"] == f["upper"] {
		why := "it is a value of the format"
		if f.num("x") != f.num("upper") {
			why = "it lies beyond the format's largest magnitude and saturates to " + f.r("upper")
		}
		e.Addf("In %s, %s %s: %s.", name, x, claim.Has{Key: "stochastic.needs_rounding", No: "needs no rounding"}, why)
		e.Addf("Every rounding of it gives %s, whatever the random bits, so there are no odds to show: click the number line to put x between two values of %s.",
			f.r("upper"), name)
		return e
	}
	e.Addf("With %s the %s rule rounds %s up to %s with probability %s, where the ideal is %s: %s.", bits, f["rule"], x, f.r("upper"), p, ideal,
		biasIs("stochastic.bias_direction", f.num("bias")))
	e.Addf("In %s, %s lies between the neighbouring values %s and %s, %s apart. Ideal stochastic rounding picks %s with probability %s, "+
		"the position of x between them, so the mean of many roundings is x itself.",
		name, x, claim.Quantity{Key: "stochastic.lower", V: f.num("lower"), Show: sig4}, claim.Quantity{Key: "stochastic.upper", V: f.num("upper"), Show: sig4},
		claim.Quantity{Key: "stochastic.step", V: f.num("step"), Show: sig4}, f.r("upper"), ideal)
	r, obj, covers, lacks := f.int("random_bits"), "them", "cover", "do not cover"
	if f.int("dropped_bits") == 1 {
		obj = "it"
	}
	if r == 1 {
		covers, lacks = "covers", "does not cover"
	}
	cover := claim.Has{Key: "stochastic.bits_cover", Present: f["bits_cover"] == "cover", Yes: covers + " " + obj, No: lacks + " " + obj}
	dropped := claim.Quantity{Key: "stochastic.dropped_bits", V: f.num("dropped_bits")}
	e.Addf("A machine draws %s, not a real number: x has %s %s below the last bit %s keeps, and %s %s. "+
		"Under the %s rule %s comes with probability %s, so the mean of the rounded values is %s: %s (bias %s, %s of a step).",
		bits, dropped, map[bool]string{true: "bit", false: "bits"}[f.int("dropped_bits") == 1], name, plural(r, "random bit", "random bits"), cover, f["rule"], f.r("upper"), p,
		claim.Quantity{Key: "stochastic.expected", V: f.num("expected"), Show: sig4}, biasIs("stochastic.bias_direction", f.num("bias")),
		claim.Quantity{Key: "stochastic.bias", V: f.num("bias"), Show: sig4}, claim.Quantity{Key: "stochastic.bias_steps", V: f.num("bias_steps"), Show: pctText})
	e.Addf("The two rules side by side, with %s: floor (add the bits below the last kept bit and truncate, as fp8lab and the GPU kernels do) "+
		"goes up with probability %s and is %s; nearest (round the position to %s first, as gfloat does) goes up with probability %s and is %s. "+
		"The right plot shows both for every r.",
		bits, claim.Quantity{Key: "stochastic.floor_up_probability", V: f.num("floor_up_probability"), Show: sig4}, biasIs("stochastic.floor_bias_direction", f.num("floor_bias")),
		plural(r, "bit", "bits"), claim.Quantity{Key: "stochastic.nearest_up_probability", V: f.num("nearest_up_probability"), Show: sig4},
		biasIs("stochastic.nearest_bias_direction", f.num("nearest_bias")))
	z := f.num("frequency_sigmas")
	e.Addf("%s from the Philox stream of seed %s went up %s times, a frequency of %s against the exact %s: %s standard deviations off, %s the 3 expected by chance. "+
		"Their mean is %s. Click the number line to move x.",
		claim.Count{Key: "stochastic.draws", N: f.int("draws"), One: "draw", Many: "draws"}, f["seed"],
		claim.Quantity{Key: "stochastic.ups", V: f.num("ups")}, claim.Quantity{Key: "stochastic.up_frequency", V: f.num("up_frequency"), Show: sig4}, p,
		sig4(math.Abs(z)), claim.Compare{Key: "stochastic.sigmas_vs_3", A: math.Abs(z), B: 3, Above: "beyond", Below: "within", Same: "at"},
		claim.Quantity{Key: "stochastic.mean", V: f.num("mean"), Show: sig4})
	return e
}
