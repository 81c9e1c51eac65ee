package viz

import (
	"math"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/viz/claim"
)

// The gpu scene's explanation, in typed claims (viz/claim): every
// judgement (faster or not, met or missed, grows or stops, how close the
// emulator comes) is a claim holding the shipped numbers it was decided
// from; sweep_gpu_test.go recomputes each from the run's files by a second
// path.

// Explain implements Scene.
func (s *gpuScene) Explain() claim.Explanation {
	var e claim.Explanation
	f := facts(s.Facts())
	if msg, ok := f["error"]; ok {
		e.Addf("The scene cannot be computed: %s.", msg)
		return e
	}
	e.Add(gpuTakeaway(f))
	for _, p := range []claim.Phrase{gpuGEMMText(f), gpuKernelText(f), gpuAccumText(f), gpuEmulatorText(f), gpuLinearText(f)} {
		e.Add(p)
	}
	e.Addf("These are the measurements of run %s (docs/gpu/%s), made by fp8lab-gpu on %s and shipped with the program; "+
		"a later run adds a folder, and the Run control offers it.", f["run"], f["run"], f["device"])
	return e
}

// gpuDevice names the device, its driver and cuBLASLt, and the date.
func gpuDevice(f facts) string {
	s := "an " + f["device"] + " (" + f["compute_capability"] + ", CUDA driver " + f["driver"]
	if f["cublaslt"] != "" {
		s += ", cuBLASLt " + f["cublaslt"]
	}
	return s + ") on " + f["date"]
}

// times writes a ratio as "1.89×" ("44×" from 10 up).
func times(v float64) string {
	if v >= 10 {
		return strconv.FormatFloat(v, 'f', 0, 64) + "×"
	}
	return strconv.FormatFloat(v, 'f', 2, 64) + "×"
}

// pct2 writes a fraction as a percentage with two significant digits
// ("7.0%", "0.062%").
func pct2(v float64) string {
	x := v * 100
	if !(x > 0) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'g', 2, 64) + "%"
	}
	return strconv.FormatFloat(x, 'f', max(0, 1-int(math.Floor(math.Log10(x)))), 64) + "%"
}

// closeness writes how near the emulation's error is to the device's,
// given the larger of their ratios: "within 0.19%" below a factor 1.1,
// "within a factor 1.50" above.
func closeness(worst float64) string {
	if worst < 1.1 {
		return "within " + pct2(worst-1)
	}
	return "within a factor " + strconv.FormatFloat(worst, 'f', 2, 64)
}

// speedIs is the class of a speed-up (speedWord) as the takeaway joins it:
// "and 1.50×" where FP8 is faster, "but no faster" or "but slower" where
// it is not.
func speedIs(key string, x float64) claim.Is {
	w := speedWord(x)
	return claim.Is{Key: key, Value: w, Words: map[string]string{"faster": "and", "as fast": "but no faster", "slower": "but slower"}[w]}
}

// panelRef names a panel of the picture where the focus draws it, and
// other words where it does not.
func panelRef(f facts, panel, key, label, words, elsewise string) claim.Phrase {
	if f["focus"] == gpuAll || f["focus"] == panel {
		return claim.Sprintf("%s", claim.Reference{Key: key, Label: label, Words: words})
	}
	return claim.Lit(elsewise)
}

// gpuTakeaway is the one-sentence lesson of the run: how much faster FP8
// products were at the largest size and whether that held at the
// smallest, and how much a growing sum lost to fast accumulation.
func gpuTakeaway(f facts) claim.Phrase {
	var parts []claim.Phrase
	if n := f.int("gemm_shapes"); n > 0 {
		p := claim.Sprintf("FP8 matrix products ran %s as fast as BF16 at %s",
			claim.Quantity{Key: "gpu.largest_speedup", V: f.num("gemm_largest_speedup"), Show: times}, f["gemm_largest"])
		if n > 1 {
			p = claim.Sprintf("%s %s at the smallest, %s (%s)", p, speedIs("gpu.smallest_speed", f.num("gemm_smallest_speedup")),
				f["gemm_smallest"], claim.Quantity{Key: "gpu.smallest_speedup", V: f.num("gemm_smallest_speedup"), Show: times})
		}
		parts = append(parts, p)
	}
	if f.int("accum_rows") > 0 {
		p := claim.Sprintf("fast accumulation lost %s of a growing sum at K = %s",
			claim.Share{Key: "gpu.accum_peak", Fraction: f.num("accum_positive_on_peak"), Show: pct2},
			claim.Quantity{Key: "gpu.accum_peak_k", V: f.num("accum_positive_on_peak_k")})
		if f["accum_emulated"] == "true" {
			p = claim.Sprintf("%s, which fp8lab's emulator reproduces %s", p,
				claim.Quantity{Key: "gpu.fit_on", V: f.num("accum_fit_worst_on"), Show: closeness})
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return claim.Lit("This run of " + gpuDevice(f) + " holds neither products nor an accumulation study.")
	}
	return claim.Sprintf("On %s, %s.", gpuDevice(f), claim.Join(parts, ", and "))
}

// gpuGEMMText: the products by size, and where FP8 pays.
func gpuGEMMText(f facts) claim.Phrase {
	n := f.int("gemm_shapes")
	if n == 0 {
		return claim.Phrase{}
	}
	shapes := claim.Count{Key: "gpu.shapes", N: n, One: "product shape", Many: "product shapes"}
	what := "FP8 (E4M3, the faster of cuBLASLt's fast accumulation on and off) and BF16"
	intro := claim.Sprintf("The run measured the TFLOPS of %s, %s.", shapes, what)
	if f["focus"] == gpuAll || f["focus"] == gpuGEMM {
		intro = claim.Sprintf("%s plots the TFLOPS of %s, %s, against the work of each (2·M·N·K).",
			claim.Reference{Key: "gpu.products_panel", Label: "Matrix products: TFLOPS by size", Words: "The products panel"}, shapes, what)
	}
	p := claim.Sprintf("%s At %s FP8 reached %s TFLOPS against BF16's %s.", intro, f["gemm_largest"],
		claim.Quantity{Key: "gpu.largest_fp8_tflops", V: f.num("gemm_largest_fp8_tflops"), Show: sig4},
		claim.Quantity{Key: "gpu.largest_bf16_tflops", V: f.num("gemm_largest_bf16_tflops"), Show: sig4})
	faster := f.int("gemm_faster")
	switch {
	case faster == n:
		return claim.Sprintf("%s FP8 was faster %s.", p, claim.Is{Key: "gpu.faster_at", Value: "all", Words: "at every size"})
	case faster == 0:
		return claim.Sprintf("%s FP8 was faster %s.", p, claim.Is{Key: "gpu.faster_at", Value: "none", Words: "at none of them"})
	}
	return claim.Sprintf("%s FP8 was faster by 10%% or more at %s %s of the %s; at the rest the product is too small to keep the tensor cores busy, "+
		"so it costs about its launch and its memory traffic, which FP8 does not shorten.", p,
		claim.Is{Key: "gpu.faster_at", Value: "some", Words: "only"},
		claim.Quantity{Key: "gpu.faster", V: float64(faster)}, shapes)
}

// gpuKernelText: the copy, and the kernels' shares of it against their
// goals.
func gpuKernelText(f facts) claim.Phrase {
	n := f.int("kernels")
	if n == 0 {
		return claim.Phrase{}
	}
	p := claim.Sprintf("The run measured %s against a device-to-device copy", claim.Count{Key: "gpu.kernels", N: n, One: "kernel", Many: "kernels"})
	if _, ok := f["copy_gbps"]; ok {
		c := claim.Quantity{Key: "gpu.copy_gbps", V: f.num("copy_gbps"), Show: sig4}
		if _, ok := f["copy_of_peak"]; ok {
			p = claim.Sprintf("%s (%s GB/s, %s of the memory's theoretical %s GB/s)", p, c,
				claim.Share{Key: "gpu.copy_of_peak", Fraction: f.num("copy_of_peak"), Show: pctText},
				claim.Quantity{Key: "gpu.peak_gbps", V: f.num("peak_gbps"), Show: sig4})
		} else {
			p = claim.Sprintf("%s (%s GB/s)", p, c)
		}
	}
	p = claim.Sprintf("%s, counting the bytes each must read and write: from %s (%s) to %s (%s).", p,
		claim.Share{Key: "gpu.kernel_worst", Fraction: f.num("kernel_worst_of_copy"), Show: pctText}, f["kernel_worst"],
		claim.Share{Key: "gpu.kernel_best", Fraction: f.num("kernel_best_of_copy"), Show: pctText}, f["kernel_best"])
	met, missed := f.int("kernel_goals_met"), f.int("kernel_goals_missed")
	if met+missed == 0 {
		return p
	}
	return claim.Sprintf("%s Of the %s with a goal, %s met it (green) and %s missed it (vermillion).", p,
		claim.Count{Key: "gpu.goals", N: met + missed, One: "kernel", Many: "kernels"},
		claim.Count{Key: "gpu.goals_met", N: met, One: "kernel", Many: "kernels"},
		claim.Count{Key: "gpu.goals_missed", N: missed, One: "kernel", Many: "kernels"})
}

// gpuAccumText: how the device's fast accumulation error grows with K, for
// a growing sum and for mixed signs, and what turning it off does.
func gpuAccumText(f facts) claim.Phrase {
	if f.int("accum_rows") == 0 {
		return claim.Phrase{}
	}
	share := func(key, fact string) claim.Share {
		return claim.Share{Key: key, Fraction: f.num(fact), Show: pct2}
	}
	k := func(key, fact string) claim.Quantity { return claim.Quantity{Key: key, V: f.num(fact)} }
	// The panel draws the Operands chosen (when it is on screen); the
	// sentences after the first quote the run, both kinds, whatever it draws.
	shown := map[string]string{
		"both":     "both kinds: a sum that only grows (|N(0,1)|, ●) and mixed signs (N(0,1), ▲)",
		"positive": "a sum that only grows (|N(0,1)|); Operands = signed shows mixed signs",
		"signed":   "mixed signs (N(0,1)); Operands = positive shows a sum that only grows",
	}[f["operands"]]
	if shown == "" || (f["focus"] != gpuAll && f["focus"] != gpuAccum) {
		shown = "a sum that only grows (|N(0,1)|) and mixed signs (N(0,1))"
	}
	p := claim.Sprintf("%s cuBLASLt's error against the exact product for 128×K by K×128 E4M3 operands, %s. "+
		"In this run a sum that only grows lost %s at K = %s and %s at K = %s",
		panelRef(f, gpuAccum, "gpu.accum_panel", "Fast accumulation: error against K", "The accumulation panel shows", "The run measured"),
		shown, share("gpu.accum_first", "accum_positive_on_min_k"), k("gpu.accum_first_k", "accum_positive_k_min"),
		share("gpu.accum_peak", "accum_positive_on_peak"), k("gpu.accum_peak_k", "accum_positive_on_peak_k"))
	stops := f["accum_positive_stops_growing"] == "true"
	if stops {
		p = claim.Sprintf("%s, then %s (%s at K = %s)", p, claim.Has{Key: "gpu.stops_growing", Present: true, Yes: "stopped growing"},
			share("gpu.accum_last", "accum_positive_on_max_k"), k("gpu.accum_last_k", "accum_positive_k_max"))
	}
	p = claim.Sprintf("%s.", p)
	if _, ok := f["accum_signed_on_max_k"]; ok {
		pos, sig := f.num("accum_positive_on_max_k"), f.num("accum_signed_on_max_k")
		p = claim.Sprintf("%s Mixed signs (N(0,1)) lost %s at K = %s, %s %s than the growing sum at that K.", p,
			share("gpu.signed_last", "accum_signed_on_max_k"), k("gpu.signed_last_k", "accum_signed_k_max"),
			claim.Quantity{Key: "gpu.signed_factor", V: math.Max(pos/sig, sig/pos), Show: times},
			claim.Compare{Key: "gpu.signed_vs_growing", A: pos, B: sig, Show: times, Above: "less", Below: "more", Same: "as much"})
	}
	lo, hi := share("gpu.off_lo", "accum_positive_off_lo"), share("gpu.off_hi", "accum_positive_off_hi")
	spread := claim.Compare{Key: "gpu.off_spread", A: hi.Fraction, B: lo.Fraction, Show: pct2, Above: "stays between", Same: "stays at", Below: "stays between"}
	if spread.Order() == 0 {
		return claim.Sprintf("%s With fast accumulation off, the growing sum's error %s %s whatever K.", p, spread, lo)
	}
	return claim.Sprintf("%s With fast accumulation off, the growing sum's error %s %s and %s.", p, spread, lo, hi)
}

// gpuEmulatorText: how close the emulator fitted to this run comes.
func gpuEmulatorText(f facts) claim.Phrase {
	if f["accum_emulated"] != "true" {
		return claim.Phrase{}
	}
	what := claim.Lit("fp8lab's emulation")
	if f["focus"] == gpuAll || f["focus"] == gpuAccum {
		what = claim.Lit("The dashed lines and hollow marks are fp8lab's emulation")
	}
	p := claim.Sprintf("%s of the same products on the same operands, rebuilt bit for bit: fast accumulation as %s comes %s of the device's error "+
		"at every K, and with fast accumulation off, %s comes %s of it. Each group of products is aligned to the largest exponent and truncated "+
		"there, as the tensor core's adder does: a term of the opposite sign is truncated toward zero too, so the errors of mixed signs cancel.",
		what, f["accum_fast_model"], claim.Quantity{Key: "gpu.fit_on", V: f.num("accum_fit_worst_on"), Show: closeness},
		f["accum_promoted_model"], claim.Quantity{Key: "gpu.fit_off", V: f.num("accum_fit_worst_off"), Show: closeness})
	if f.int("accum_fast_split_from") > 0 && f["accum_positive_stops_growing"] == "true" {
		p = claim.Sprintf("%s The error stops growing from K = %s on because cuBLASLt cuts K into slices that are accumulated apart and added in float32; "+
			"%s.", p, claim.Quantity{Key: "gpu.split_from", V: f.num("accum_fast_split_from")},
			claim.Has{Key: "gpu.split_reproduced", Present: true, Yes: "the emulation splits K there too"})
	}
	if r := f["accum_recipes"]; r != "" {
		p = claim.Sprintf("%s The training lab's recipes %s use this emulation.", p, joinAnd(strings.Split(r, ",")))
	}
	return p
}

// gpuLinearText: one linear layer's plans, when the run timed them.
func gpuLinearText(f facts) claim.Phrase {
	if f["layer"] == "" {
		return claim.Phrase{}
	}
	var plans []claim.Phrase
	for _, name := range []string{"bf16", "fp8-naive", "fp8-fused"} {
		if _, ok := f["layer_"+name+"_ms"]; ok {
			plans = append(plans, claim.Sprintf("%s %s ms (products %s)", name,
				claim.Quantity{Key: "gpu.layer_" + name + "_ms", V: f.num("layer_" + name + "_ms"), Show: sig4},
				claim.Share{Key: "gpu.layer_" + name + "_gemm_share", Fraction: f.num("layer_" + name + "_gemm_share"), Show: pctText}))
		}
	}
	p := claim.Sprintf("The linear layer %s, forward and backward, took %s.", strings.ReplaceAll(f["layer"], "x", "×"), claim.JoinAnd(plans))
	if _, ok := f["layer_fp8-naive_transpose_share"]; ok {
		p = claim.Sprintf("%s In the naive FP8 plan the transposed copies of X, W and dY took %s of the time; the fused plan writes them in the cast.", p,
			claim.Share{Key: "gpu.layer_naive_transpose_share", Fraction: f.num("layer_fp8-naive_transpose_share"), Show: pctText})
	}
	return p
}
