package viz

import (
	"fmt"
	"math"

	"github.com/fp8lab/fp8lab/viz/claim"
)

// above names how level a compares with level b at the shown precision.
func above(a, b float64) string {
	switch {
	case dbEqual(a, b):
		return "the same as"
	case a > b:
		return "above"
	}
	return "below"
}

// Explain implements Explainer.
func (s *delayedScene) Explain() claim.Explanation { return legacyExplanation(s.explainOld()) }

func (s *delayedScene) explainOld() []string {
	f := facts(s.Facts())
	if e, ok := errorExplanation(f); ok {
		return e
	}
	var out []string
	spike := f.int("spike_log2") > 0
	if spike {
		out = append(out, fmt.Sprintf("%s training steps of a tensor, one of them (step %s) a spike 2^%s times larger, quantized to %s. "+
			"Delayed scaling takes each step's scale from the amax history of earlier steps, as Transformer Engine does, so the scale lags behind the data.",
			f["steps"], f["spike_step"], f["spike_log2"], f["format"]))
	} else {
		out = append(out, fmt.Sprintf("%s training steps of a tensor without a spike, quantized to %s. "+
			"Delayed scaling takes each step's scale from the amax history of earlier steps, as Transformer Engine does, so the scale lags behind the data.",
			f["steps"], f["format"]))
	}
	ov := f.int("overflow_steps")
	var p string
	if ov == 0 {
		p = "No step overflows: the history always knew a large enough amax."
	} else {
		p = fmt.Sprintf("%s (%s clipped; the first at step %s): the new values arrive before the history knows them.",
			plural(ov, "step overflows", "steps overflow"), plural(f.int("overflow_values"), "value", "values"), f["first_overflow_step"])
		if spike {
			if f.int("spike_overflow") > 0 {
				p += fmt.Sprintf(" The spike step alone clips %s of %s.", plural(f.int("spike_overflow"), "value", "values"), f["values_per_step"])
			} else {
				p += " The spike step itself clips nothing."
			}
		}
	}
	if spike {
		if k := f.int("stale_steps"); k > 0 {
			span := fmt.Sprintf("%s to %s", f["stale_from"], f["stale_to"])
			if k == 1 {
				span = f["stale_from"]
			}
			p += fmt.Sprintf(" After the spike its amax stays in the history: for %s (%s) the scale is %s times smaller than before",
				plural(k, "step", "steps"), span, f.r("stale_scale_ratio"))
			switch n := f.int("flush_steps_after_spike"); {
			case n == 0:
				p += ", yet no value is flushed to zero."
			case k == 1:
				p += fmt.Sprintf(", and it flushes %s of %s to zero.", plural(f.int("flushed_after_spike"), "value", "values"), f["values_per_step"])
			default:
				p += fmt.Sprintf(", and %d of them flush small values to zero (%s of the %d values in those steps).",
					n, plural(f.int("flushed_after_spike"), "value", "values"), k*f.int("values_per_step"))
			}
			if _, ok := f["before_spike_mean_sqnr_db"]; ok {
				b, a := f.num("before_spike_mean_sqnr_db"), f.num("stale_mean_sqnr_db")
				how := change(b, a) + " it"
				if how == "leaves unchanged it" {
					how = "leaves it unchanged"
				}
				those := map[bool]string{true: "that step", false: "those steps"}[k == 1]
				p += fmt.Sprintf(" Over %s the mean SQNR is %s against %s over as many steps before the spike: the stale scale %s",
					those, dbText(a), dbText(b), how)
				if math.Abs(a-b) < 1 {
					p += " (SQNR weighs the large values, which keep their precision)"
				}
				p += "."
			}
		} else {
			p += " The scale is back to its old size at the next step: the spike leaves the history at once, and nothing after it is flushed."
		}
	}
	out = append(out, p+" The worst step's SQNR is "+f.db("worst_sqnr_db")+".")
	m, c := f.num("mean_sqnr_db"), f.num("mean_current_sqnr_db")
	out = append(out, fmt.Sprintf("Over all steps the mean SQNR is %s, %s the %s of current scaling, which computes the scale from the step itself. The final scale is %s.",
		dbText(m), above(m, c), dbText(c), f.r("final_scale")))
	return out
}

// Explain implements Explainer.
func (s *stochasticScene) Explain() claim.Explanation { return legacyExplanation(s.explainOld()) }

func (s *stochasticScene) explainOld() []string {
	f := facts(s.Facts())
	if e, ok := errorExplanation(f); ok {
		return e
	}
	var out []string
	if f["lower"] == f["upper"] {
		out = append(out, fmt.Sprintf("In %s, %s needs no rounding: it is a value of the format or beyond its largest value, where it saturates to %s.",
			f["format"], f.r("x"), f.r("upper")))
	} else {
		out = append(out, fmt.Sprintf("In %s, %s lies between the neighbouring values %s and %s, %s apart. Ideal stochastic rounding picks %s with probability %s, "+
			"the position of x between them, so the mean of many roundings is x itself.",
			f["format"], f.r("x"), f.r("lower"), f.r("upper"), f.r("step"), f.r("upper"), f.r("up_probability_ideal")))
	}
	out = append(out, fmt.Sprintf("A machine draws %s random bits, not a real number: x has %s bits below the last bit %s keeps, and %s random bits %s them. "+
		"Under the %s rule %s comes with probability %s, so the mean of the rounded values is %s: %s (bias %s, %s of a step).",
		f["random_bits"], f["dropped_bits"], f["format"], f["random_bits"], f["bits_cover"], f["rule"], f.r("upper"), f.r("up_probability"),
		f.r("expected"), direction(f.num("bias")), f.r("bias"), f.pct("bias_steps")))
	out = append(out, fmt.Sprintf("The two rules side by side, with %s bits: floor (add the bits below the last kept bit and truncate, as fp8lab and the GPU kernels do) "+
		"goes up with probability %s and is %s; nearest (round the position to %s bits first, as gfloat does) goes up with probability %s and is %s. "+
		"The right plot shows both for every r.",
		f["random_bits"], f.r("floor_up_probability"), direction(f.num("floor_bias")), f["random_bits"], f.r("nearest_up_probability"), direction(f.num("nearest_bias"))))
	z := f.num("frequency_sigmas")
	within := "within"
	if math.Abs(z) > 3 {
		within = "beyond"
	}
	out = append(out, fmt.Sprintf("%s draws from the Philox stream of seed %s went up %s times, a frequency of %s against the exact %s: %s standard deviations off, %s the 3 expected by chance. "+
		"Their mean is %s. Click the number line to move x.",
		f["draws"], f["seed"], f["ups"], f.r("up_frequency"), f.r("up_probability"), sig4(math.Abs(z)), within, f.r("mean")))
	return out
}
