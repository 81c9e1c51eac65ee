package train

import (
	"fmt"

	"github.com/fp8lab/fp8lab/scaling"
)

// Operand shorthands for the named recipes.
var (
	e4 = Operand{Format: "e4m3fn"}
	e5 = Operand{Format: "e5m2"}
	bf = Operand{Format: "bf16"}
)

func with(o Operand, g scaling.Granularity) Operand { o.Granularity = g; return o }

// uniform returns a recipe whose three products use x for activations and
// weights and grad for dY.
func uniform(desc string, x, w, grad Operand) Recipe {
	return Recipe{
		Description: desc,
		Forward:     Product{Input: x, Weight: w},
		InputGrad:   Product{GradOutput: grad, Weight: w},
		WeightGrad:  Product{Input: x, GradOutput: grad},
	}
}

// The built-in recipes, after their sources (see DESIGN.md §9).
var recipes = map[string]func() Recipe{
	"fp32": func() Recipe {
		return Recipe{Description: "float32 operands and accumulation: the baseline"}
	},
	"bf16": func() Recipe {
		return uniform("operands rounded to BF16, float32 accumulation", bf, bf, bf)
	},
	"tensorwise": func() Recipe {
		t := with(e4, scaling.PerTensor)
		return uniform("torchao tensorwise: E4M3 everywhere, one current scale per tensor", t, t, t)
	},
	"rowwise": func() Recipe {
		r := with(e4, scaling.PerRow)
		rc := uniform("torchao rowwise: E4M3, one power-of-two scale per K-vector", r, r, r)
		rc.Scaling.Pow2 = "down"
		return rc
	},
	"rowwise-gw-hp": func() Recipe {
		r := with(e4, scaling.PerRow)
		rc := uniform("torchao rowwise_with_gw_hp: rowwise, but the weight gradient in BF16", r, r, r)
		rc.WeightGrad = Product{Input: bf, GradOutput: bf}
		rc.Scaling.Pow2 = "down"
		return rc
	},
	"deepseek": func() Recipe {
		x, w := with(e4, scaling.Tile1x128), with(e4, scaling.Block128)
		acc := scaling.PromotedAccumulator
		rc := Recipe{
			Description: "DeepSeek-V3: E4M3, 1×128 activation and gradient tiles, 128×128 weight blocks, " +
				"fast accumulation promoted to float32 every 128 products",
			Forward:    Product{Input: x, Weight: w, Accumulator: &acc},
			InputGrad:  Product{GradOutput: x, Weight: w, Accumulator: &acc},
			WeightGrad: Product{Input: x, GradOutput: x, Accumulator: &acc},
		}
		return rc
	},
	"mxfp8": func() Recipe {
		m := with(e4, scaling.MX)
		return uniform("OCP MXFP8: E4M3 elements, 32-element blocks along K with E8M0 scales", m, m, m)
	},
	"nvfp4": func() Recipe {
		n := Operand{Format: "e2m1", Granularity: scaling.NVFP4}
		w := Operand{Format: "e2m1", Granularity: scaling.NVFP4Block16}
		rc := uniform("NVFP4: E2M1 elements, 1×16 blocks (16×16 for weights) with E4M3 scales and a float32 "+
			"tensor scale; 16-point random Hadamard on the weight-gradient operands and stochastic rounding "+
			"of dY, as Transformer Engine's NVFP4 recipe", n, w, n)
		rc.WeightGrad.Hadamard = 16
		rc.StochasticGrads = true
		return rc
	},
	"e5m2-grads": func() Recipe {
		t := with(e4, scaling.PerTensor)
		return uniform("tensorwise with dY in E5M2 (Transformer Engine's HYBRID format)", t, t, with(e5, scaling.PerTensor))
	},
	"fast-accum-bwd": func() Recipe {
		t := with(e4, scaling.PerTensor)
		rc := uniform("tensorwise with Hopper-like fast accumulation (14 significant bits, never promoted) "+
			"in both backward products", t, t, t)
		a := scaling.FastAccumulator
		rc.InputGrad.Accumulator, rc.WeightGrad.Accumulator = &a, &a
		return rc
	},
	"delayed": func() Recipe {
		t := with(e4, scaling.PerTensor)
		rc := uniform("Transformer Engine delayed scaling: E4M3 per tensor, scales from the max of the "+
			"last 16 amaxes, margin 0", t, t, t)
		rc.Scaling = Scaling{Delayed: true, HistoryLen: 16, AmaxAlgo: "max"}
		return rc
	},
	// The failure recipes: each breaks one thing the working recipes get
	// right, so that what the talk of seed 002 says goes wrong can be seen.
	"unscaled": func() Recipe {
		t := with(e4, scaling.PerTensor)
		rc := uniform("E4M3 everywhere cast with scale 1, no scaling: FP8 used as a plain dtype", t, t, t)
		rc.Scaling.None = true
		rc.Shows = "FP8 needs scaling: cast as a plain dtype, every gradient element below E4M3's smallest subnormal (2^-9) flushes to zero"
		return rc
	},
	"unscaled-e5m2": func() Recipe {
		t := with(e5, scaling.PerTensor)
		rc := uniform("E5M2 everywhere cast with scale 1: the \"bf8\" the talk says cannot work", t, t, t)
		rc.Scaling.None = true
		rc.Shows = "whether E5M2's wider range (subnormals down to 2^-16) can do without scaling: the smaller the gradients, the more of them flush to zero"
		return rc
	},
	"underflow": func() Recipe {
		t := with(e4, scaling.PerTensor)
		rc := uniform("tensorwise with every scale 2^16 too small (margin 16)", t, t, t)
		rc.Scaling.Margin = 16
		rc.Shows = "underflowed gradients stall convergence: scales 2^16 too small push each tensor's small elements below E4M3's subnormals, to zero"
		return rc
	},
	"delayed-nonsat": func() Recipe {
		t := with(e4, scaling.PerTensor)
		rc := uniform("delayed scaling as in the delayed recipe, with non-saturating casts (overflow gives NaN)", t, t, t)
		rc.Scaling = Scaling{Delayed: true, HistoryLen: 16, AmaxAlgo: "max"}
		rc.Overflow = OverflowNonsaturating
		rc.Shows = "Infs and NaNs stop training: delayed scales come from past steps' amaxes, and the first value that outgrows them becomes a NaN that stops the run"
		return rc
	},
	"fast-accum-wgrad": func() Recipe {
		t := with(e4, scaling.PerTensor)
		a := scaling.FastAccumulator
		rc := uniform(fmt.Sprintf("tensorwise with the H100's fast accumulation (scaling.FastAccumulator: groups of %d "+
			"products aligned to %d fraction bits, never promoted) in the weight gradient, whose K is every token of "+
			"the step", a.AlignGroup, a.MantissaBits), t, t, t)
		rc.WeightGrad.Accumulator = &a
		rc.Shows = "whether Hopper's fast accumulation is too inaccurate for the backward pass: dW sums over every token of a step (4096 in the long-k config)"
		return rc
	},
	"bf16-weights-rtn": func() Recipe {
		rc := uniform("BF16 operands and BF16 master weights, updates rounded to nearest", bf, bf, bf)
		rc.MasterWeights = "bf16-rtn"
		return rc
	},
	"bf16-weights-sr": func() Recipe {
		rc := uniform("BF16 operands and BF16 master weights, updates rounded stochastically", bf, bf, bf)
		rc.MasterWeights = "bf16-sr"
		return rc
	},
}
