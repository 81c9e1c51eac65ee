package viz

import (
	"fmt"
	"math"
	"strings"
)

// granOrder lists the granularity scene's cases with their descriptions.
var granOrder = []struct{ key, text string }{
	{"row", "One scale per row"},
	{"tile1x128", "1×128 tiles"},
	{"block128", "128×128 blocks"},
	{"mx", "MX, a power-of-two scale per 32 values"},
	{"nvfp4", "NVFP4, E2M1 elements with a scale per 16"},
}

// Explain implements Explainer.
func (s *granularityScene) Explain() []string {
	f := facts(s.Facts())
	if e, ok := errorExplanation(f); ok {
		return e
	}
	rows, cols, k := f.int("outlier_rows"), f.int("outlier_cols"), f.int("factor_log2")
	outliers := (rows > 0 || cols > 0) && k > 0
	var out []string
	if outliers {
		out = append(out, fmt.Sprintf("The same %s×%s matrix, with %s and %s 2^%d times larger than the rest, quantized to %s; "+
			"each column of the picture is one granularity, that is, which elements share a scale.",
			f["rows"], f["cols"], plural(rows, "outlier row", "outlier rows"), plural(cols, "outlier column", "outlier columns"), k, f["format"]))
	} else {
		out = append(out, fmt.Sprintf("The same %s×%s matrix, without outliers (every value drawn from one normal distribution), quantized to %s; "+
			"each column of the picture is one granularity, that is, which elements share a scale.", f["rows"], f["cols"], f["format"]))
	}
	tu := f.int("tensor.underflow")
	p := fmt.Sprintf("One scale for the whole tensor gives a whole-tensor SQNR of %s and a worst row of %s; ", f.db("tensor.sqnr_db"), f.db("tensor.worst_row_db"))
	switch {
	case tu > 0 && outliers:
		p += fmt.Sprintf("%s become zero: the outliers choose the scale and the small values vanish.", plural(tu, "value", "values"))
	case tu > 0:
		p += fmt.Sprintf("%s become zero, the tails of the distribution below the window.", plural(tu, "value", "values"))
	default:
		p += "no value becomes zero."
	}
	out = append(out, p)
	var parts []string
	tw := f.num("tensor.worst_row_db")
	best, bestDB := "one scale for the whole tensor", tw
	for _, g := range granOrder {
		w := f.num(g.key + ".worst_row_db")
		cmp := "better than"
		switch {
		case dbEqual(w, tw):
			cmp = "the same as"
		case w < tw:
			cmp = "worse than"
		}
		parts = append(parts, fmt.Sprintf("%s (%s scales): %s lost, worst row %s, %s one scale",
			g.text, f[g.key+".scales"], plural(f.int(g.key+".underflow"), "value", "values"), f.db(g.key+".worst_row_db"), cmp))
		if w > bestDB {
			best, bestDB = g.text, w
		}
	}
	out = append(out, strings.Join(parts, ". ")+".")
	lo, hi := math.Inf(1), math.Inf(-1)
	wlo, whi := math.Inf(1), math.Inf(-1)
	for _, g := range append([]string{"tensor"}, "row", "tile1x128", "block128", "mx", "nvfp4") {
		lo, hi = math.Min(lo, f.num(g+".sqnr_db")), math.Max(hi, f.num(g+".sqnr_db"))
		wlo, whi = math.Min(wlo, f.num(g+".worst_row_db")), math.Max(whi, f.num(g+".worst_row_db"))
	}
	moves := "less"
	if hi-lo > whi-wlo {
		moves = "more"
	}
	out = append(out, fmt.Sprintf("Across granularities the whole-tensor SQNR spans %s (%s to %s) and the worst row %s (%s to %s): "+
		"the whole-tensor figure moves %s than the worst row. The best worst row here comes from: %s.",
		dbText(hi-lo), dbText(lo), dbText(hi), dbText(whi-wlo), dbText(wlo), dbText(whi), moves, best))
	return out
}

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
func (s *delayedScene) Explain() []string {
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
				p += fmt.Sprintf(" The spike step alone clips %s.", plural(f.int("spike_overflow"), "value", "values"))
			} else {
				p += " The spike step itself clips nothing."
			}
		}
	}
	if spike {
		if n := f.int("flush_steps_after_spike"); n > 0 {
			p += fmt.Sprintf(" After the spike its amax stays in the history and shrinks the scale: %s values to zero (%s).",
				plural(n, "step flushes", "steps flush"), plural(f.int("flushed_after_spike"), "value", "values"))
		} else {
			p += " After the spike no value is flushed to zero."
		}
	}
	out = append(out, p+" The worst step's SQNR is "+f.db("worst_sqnr_db")+".")
	m, c := f.num("mean_sqnr_db"), f.num("mean_current_sqnr_db")
	out = append(out, fmt.Sprintf("Over all steps the mean SQNR is %s, %s the %s of current scaling, which computes the scale from the step itself. The final scale is %s.",
		dbText(m), above(m, c), dbText(c), f.r("final_scale")))
	return out
}

// Explain implements Explainer.
func (s *stochasticScene) Explain() []string {
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
