package lessons

import (
	"fmt"
	"strings"

	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/train"
	"github.com/fp8lab/fp8lab/train/compare"
)

// files are the recipes only the lessons use, variants of named ones that
// change one thing; the generator writes them as JSON next to the page, so
// that each lesson's command runs as printed.
var files = map[string]func() train.Recipe{
	"underflow-e5m2-grads": func() train.Recipe {
		r, _ := train.RecipeByName("underflow")
		r.Description = "the underflow recipe (every scale 2^16 too small) with dY in E5M2"
		r.Shows = ""
		e5 := train.Operand{Format: "e5m2", Granularity: scaling.PerTensor}
		r.InputGrad.GradOutput, r.WeightGrad.GradOutput = e5, e5
		return *r
	},
	fewerBits: func() train.Recipe {
		r, _ := train.RecipeByName("fast-accum-wgrad")
		a := *r.WeightGrad.Accumulator
		r.Description = fmt.Sprintf("fast-accum-wgrad with the same accumulator model keeping %d fraction bits instead of %d",
			fewerBitsKept, a.MantissaBits)
		r.Shows = ""
		a.MantissaBits = fewerBitsKept
		r.WeightGrad.Accumulator = &a
		return *r
	},
	"tensorwise-nonsat": func() train.Recipe {
		r, _ := train.RecipeByName("tensorwise")
		r.Description = "tensorwise (current scaling) with non-saturating casts"
		r.Overflow = train.OverflowNonsaturating
		return *r
	},
}

// fewerBits is the accumulation lesson's variant of fast-accum-wgrad that
// keeps fewerBitsKept fraction bits: with 8 the loss moved +0.34% on two
// seeds, with 6 +2.35% (long-k, 200 steps, the aligned accumulator model).
const (
	fewerBits     = "fast-accum-wgrad-6bits"
	fewerBitsKept = 6
)

// The lessons' configurations and lengths: the classroom model for 400
// steps (past the fast early drop; a run took about 8 s of CPU time on the
// development VM), and the long-k model for 200 (a run took 20 to 40 s:
// 4096 tokens a step, and fast-accum-wgrad emulates its accumulator
// product by product). Long batches matter twice: the weight gradient sums
// over every token of the step, and the gradient of a mean loss over 4096
// tokens is 16 times smaller than over the classroom's 256, which is what
// makes even E5M2 flush it to zero without scaling.
const (
	classroomSteps = 400
	longKSteps     = 200
)

var all = []Lesson{
	{
		Name: "scaling", Title: "FP8 needs scaling",
		Quotes: []string{"Fp8 needs scaling", `We can't do "bf8"`},
		Config: "long-k", Steps: longKSteps, Baseline: "bf16",
		Recipes: []string{"bf16", "tensorwise", "unscaled", "unscaled-e5m2"},
		shows:   showsScaling,
	},
	{
		Name: "underflow", Title: "Underflowed gradients stall convergence",
		Quotes: []string{"If small gradients are rounded to zero, training might not converge"},
		Config: "classroom", Steps: classroomSteps, Baseline: "bf16",
		Recipes: []string{"bf16", "tensorwise", "underflow"},
		shows:   showsUnderflow,
	},
	{
		Name: "range", Title: "E5M2 gradients: the range that scaling already gives",
		Quotes: []string{"The intention was to use e5m2 for gradients, as they need wider range",
			"However, this worked poorly, and empirically we're better off with full e4m3"},
		Config: "classroom", Steps: classroomSteps, Baseline: "bf16",
		Recipes: []string{"bf16", "tensorwise", "e5m2-grads", "underflow", "underflow-e5m2-grads"},
		shows:   showsRange,
	},
	{
		Name: "overflow", Title: "Infs and NaNs stop training; delayed scaling overflows",
		Quotes: []string{"If Infs or NaNs appear in the model, training stops", "This was complex and prone to overflows"},
		Config: "classroom", Steps: classroomSteps, Baseline: "bf16",
		Recipes: []string{"bf16", "tensorwise", "tensorwise-nonsat", "delayed", "delayed-nonsat"},
		Spike:   compare.Spike{Step: classroomSteps / 2, Factor: 1e4, Len: 5},
		shows:   showsOverflow,
	},
	{
		Name: "accumulation", Title: "Fast accumulation in the backward pass",
		Quotes: []string{"This is too inaccurate for the bwd pass"},
		Config: "long-k", Steps: longKSteps, Baseline: "bf16",
		Recipes: []string{"bf16", "tensorwise", "fast-accum-wgrad", fewerBits},
		shows:   showsAccumulation,
	},
	{
		Name: "rounding", Title: "Stochastic rounding keeps tiny updates",
		Quotes: []string{"if a gradient is very small, we want to *sometimes* round it a non-zero value"},
		Config: "classroom", Steps: classroomSteps, Baseline: "bf16",
		Recipes: []string{"bf16", "bf16-weights-rtn", "bf16-weights-sr"},
		shows:   showsRounding,
	},
}

// unmeasured says a comparison could not be judged (a recipe without a
// finished run on every seed).
func unmeasured(a, b string) string {
	return fmt.Sprintf("%s against %s could not be judged: not both finished on every seed", a, b)
}

func showsScaling(f facts) string {
	v4, ok4 := f.verdict("unscaled", "tensorwise")
	v5, ok5 := f.verdict("unscaled-e5m2", "tensorwise")
	if !ok4 || !ok5 {
		return unmeasured("unscaled or unscaled-e5m2", "tensorwise")
	}
	u4, u5, ut := f.underflow("unscaled", "grad_output"), f.underflow("unscaled-e5m2", "grad_output"), f.underflow("tensorwise", "grad_output")
	s := fmt.Sprintf("Cast with scale 1, E4M3 %s, %s of its gradient elements (dY) flushed to zero against %s with "+
		"scaling; E5M2, whose subnormals reach down to 2^-16, %s, with %s of dY flushed",
		against(v4), percent(u4), percent(ut), against(v5), percent(u5))
	if !effect(v5) {
		s += fmt.Sprintf(": the gradient of a loss averaged over %d tokens a step is not small enough to leave "+
			"E5M2's range, so this run cannot show E5M2 failing without scaling", f.rec.Config.TokensPerStep())
	}
	return s
}

func showsUnderflow(f facts) string {
	v, ok := f.verdict("underflow", "tensorwise")
	if !ok {
		return unmeasured("underflow", "tensorwise")
	}
	return fmt.Sprintf("With every scale 2^16 too small, %s of the gradient elements (dY) flush to zero (against %s with "+
		"scales that fit) and the run %s", percent(f.underflow("underflow", "grad_output")),
		percent(f.underflow("tensorwise", "grad_output")), against(v))
}

func showsRange(f facts) string {
	vs, oks := f.verdict("e5m2-grads", "tensorwise")
	vu, oku := f.verdict("underflow-e5m2-grads", "underflow")
	if !oks || !oku {
		return unmeasured("e5m2-grads or underflow-e5m2-grads", "their E4M3 recipes")
	}
	s := fmt.Sprintf("With scales that fit, the recipe with E5M2 gradients (e5m2-grads) %s", against(vs))
	switch vs.Outcome {
	case compare.Worse:
		s += ", as the talk found"
	case compare.Better:
		s += ", the opposite of what the talk found at scale"
	default:
		s += ": this model cannot show the talk's finding, since E4M3's extra bit of precision in dY does not move its " +
			"loss by what this lab calls an effect"
	}
	s += fmt.Sprintf("; with every scale 2^16 too small, the recipe with E5M2 gradients %s, with %s of its dY flushed "+
		"to zero against %s in E4M3", strings.Replace(against(vu), "than underflow", "than the same recipe with E4M3 gradients", 1),
		percent(f.underflow("underflow-e5m2-grads", "grad_output")), percent(f.underflow("underflow", "grad_output")))
	if vu.Outcome == compare.Better {
		s += ": a wider range rescues a bad scale, and scaling already provides the range"
	}
	return s
}

func showsOverflow(f facts) string {
	sp := f.rec.Spike
	n, first := f.diverged("delayed-nonsat")
	nt, _ := f.diverged("tensorwise-nonsat")
	s := fmt.Sprintf("With non-saturating casts, delayed scaling stopped on %d of %d seeds", n, f.seeds())
	if first != nil {
		s += fmt.Sprintf(", the first at step %d, before the spike at step %d: in %s %s, operand %s, the largest |x| "+
			"(%.3g) times the scale from earlier steps' amaxes (%.4g) is %.3g, beyond %s's %g", first.Step, sp.Step,
			first.Layer, first.Product, first.Operand, first.Amax, first.Scale, float64(first.Amax)*float64(first.Scale),
			first.Format, first.Max)
	}
	s += fmt.Sprintf("; with saturating casts it clipped %d elements and trained on", f.overflow("delayed"))
	if ot := f.overflow("tensorwise"); ot == 0 && nt == 0 {
		s += "; current scaling, which scales each tensor by its own amax, clipped none, and with non-saturating casts " +
			"stopped on no seed, spike included"
	} else {
		s += fmt.Sprintf("; current scaling clipped %d elements, and with non-saturating casts stopped on %d of %d seeds",
			ot, nt, f.seeds())
	}
	if v, ok := f.verdict("delayed", "tensorwise"); ok {
		s += "; at the end delayed " + against(v)
	}
	return s
}

func showsAccumulation(f facts) string {
	v, ok := f.verdict("fast-accum-wgrad", "tensorwise")
	v6, ok6 := f.verdict(fewerBits, "tensorwise")
	if !ok || !ok6 {
		return unmeasured("fast-accum-wgrad or "+fewerBits, "tensorwise")
	}
	fast, _ := train.RecipeByName("fast-accum-wgrad")
	a := fast.WeightGrad.Accumulator
	s := fmt.Sprintf("Summing dW over K = %d tokens as the H100's fast accumulation does (scaling.FastAccumulator: "+
		"groups of %d products aligned to %d fraction bits and truncated, never promoted), the run %s; keeping %d "+
		"fraction bits, it %s", f.rec.Config.TokensPerStep(), a.AlignGroup, a.MantissaBits, against(v), fewerBitsKept, against(v6))
	switch {
	case !effect(v) && v6.Outcome == compare.Worse:
		s += ": the accumulator's error does reach the loss as bits are dropped, but at the H100's width and this K it " +
			"stays below what this model's training can show"
	case !effect(v):
		s += ": at this K, this model cannot show the accumulator's error"
	}
	return s
}

func showsRounding(f facts) string {
	vr, okr := f.verdict("bf16-weights-rtn", "bf16")
	vs, oks := f.verdict("bf16-weights-sr", "bf16")
	if !okr || !oks {
		return unmeasured("bf16-weights-rtn or bf16-weights-sr", "bf16")
	}
	return fmt.Sprintf("Kept in BF16 and updated with round to nearest, the weights lose every update smaller than half "+
		"their spacing, and the run %s; with the updates rounded stochastically, the run %s", against(vr), against(vs))
}
