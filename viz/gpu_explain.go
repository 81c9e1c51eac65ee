package viz

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The gpu scene's explanation: each sentence is decided by a small
// function from the scene's facts, so that every judgement (faster or not,
// met or missed, grows or stops, how close the emulator comes) follows the
// shipped numbers.

// Explain implements Explainer.
func (s *gpuScene) Explain() []string {
	f := facts(s.Facts())
	if e, ok := errorExplanation(f); ok {
		return e
	}
	out := []string{gpuTakeaway(f)}
	for _, p := range []string{gpuGEMMText(f), gpuKernelText(f), gpuAccumText(f), gpuEmulatorText(f), gpuLinearText(f), gpuSourceText(f)} {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// gpuDevice names the device, its driver and cuBLASLt, and the date.
func gpuDevice(f facts) string {
	s := fmt.Sprintf("an %s (%s, CUDA driver %s", f["device"], f["compute_capability"], f["driver"])
	if f["cublaslt"] != "" {
		s += ", cuBLASLt " + f["cublaslt"]
	}
	return s + ") on " + f["date"]
}

// times writes a ratio as "1.89×" (three significant digits, "44×" from
// 10 up).
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
// given the larger of their ratios: "within 0.2%" below a factor 1.1,
// "within a factor 1.4" above.
func closeness(worst float64) string {
	if worst < 1.1 {
		return "within " + pct2(worst-1)
	}
	return "within a factor " + strconv.FormatFloat(worst, 'f', 2, 64)
}

// gpuTakeaway is the one-sentence lesson of the run: how much faster FP8
// products were at the largest size and whether that held at the
// smallest, and how much a growing sum lost to fast accumulation.
func gpuTakeaway(f facts) string {
	var parts []string
	if f.int("gemm_shapes") > 0 {
		p := fmt.Sprintf("FP8 matrix products ran %s as fast as BF16 at %s", times(f.num("gemm_largest_speedup")), f["gemm_largest"])
		switch w := speedWord(f.num("gemm_smallest_speedup")); {
		case f.int("gemm_shapes") == 1:
		case w == "faster":
			p += fmt.Sprintf(" and %s at the smallest, %s", times(f.num("gemm_smallest_speedup")), f["gemm_smallest"])
		default:
			p += fmt.Sprintf(" but %s at the smallest, %s (%s)", map[string]string{"slower": "slower", "as fast": "no faster"}[w],
				f["gemm_smallest"], times(f.num("gemm_smallest_speedup")))
		}
		parts = append(parts, p)
	}
	if f.int("accum_rows") > 0 {
		p := fmt.Sprintf("fast accumulation lost %s of a growing sum at K = %s", pct2(f.num("accum_positive_on_peak")), f["accum_positive_on_peak_k"])
		if f["accum_emulated"] == "true" {
			p += ", which fp8lab's emulator reproduces " + closeness(f.num("accum_fit_worst_on"))
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return fmt.Sprintf("This run of %s holds neither products nor an accumulation study.", gpuDevice(f))
	}
	return "On " + gpuDevice(f) + ", " + strings.Join(parts, ", and ") + "."
}

// gpuGEMMText: the products by size, and where FP8 pays.
func gpuGEMMText(f facts) string {
	n := f.int("gemm_shapes")
	if n == 0 {
		return ""
	}
	p := fmt.Sprintf("The products panel plots the TFLOPS of %s, FP8 (E4M3, the faster of cuBLASLt's fast accumulation on and off) "+
		"and BF16, against the work of each (2·M·N·K). At %s FP8 reached %s TFLOPS against BF16's %s.",
		plural(n, "product shape", "product shapes"), f["gemm_largest"], f.r("gemm_largest_fp8_tflops"), f.r("gemm_largest_bf16_tflops"))
	faster := f.int("gemm_faster")
	switch {
	case faster == n:
		p += " FP8 was faster at every size."
	case faster == 0:
		p += " FP8 was faster at none of them."
	default:
		p += fmt.Sprintf(" FP8 was faster (by 10%% or more) at %d of the %d shapes; at the rest the product is too small to keep the tensor cores busy, "+
			"so it costs about its launch and its memory traffic, which FP8 does not shorten.", faster, n)
	}
	return p
}

// gpuKernelText: the copy, and the kernels' shares of it against their
// goals.
func gpuKernelText(f facts) string {
	n := f.int("kernels")
	if n == 0 {
		return ""
	}
	p := "The run measured " + plural(n, "kernel", "kernels") + " against a device-to-device copy"
	if _, ok := f["copy_gbps"]; ok {
		p += fmt.Sprintf(" (%s GB/s", f.r("copy_gbps"))
		if _, ok := f["copy_of_peak"]; ok {
			p += fmt.Sprintf(", %s of the memory's theoretical %s GB/s", f.pct("copy_of_peak"), f.r("peak_gbps"))
		}
		p += ")"
	}
	p += fmt.Sprintf(", counting the bytes each must read and write: from %s (%s) to %s (%s).",
		f.pct("kernel_worst_of_copy"), f["kernel_worst"], f.pct("kernel_best_of_copy"), f["kernel_best"])
	met, missed := f.int("kernel_goals_met"), f.int("kernel_goals_missed")
	if met+missed > 0 {
		p += fmt.Sprintf(" Of the %d with a goal, %d met it (green) and %d missed it (vermillion).", met+missed, met, missed)
	}
	return p
}

// gpuAccumText: how the device's fast accumulation error grows with K, for
// a growing sum and for mixed signs, and what turning it off does.
func gpuAccumText(f facts) string {
	if f.int("accum_rows") == 0 {
		return ""
	}
	p := fmt.Sprintf("The accumulation panel shows cuBLASLt's error against the exact product for 128×K by K×128 E4M3 operands. "+
		"A sum that only grows (|N(0,1)| operands) lost %s at K = %s and %s at K = %s",
		pct2(f.num("accum_positive_on_min_k")), f["accum_positive_k_min"], pct2(f.num("accum_positive_on_peak")), f["accum_positive_on_peak_k"])
	if f["accum_positive_stops_growing"] == "true" {
		p += fmt.Sprintf(", then stopped growing (%s at K = %s)", pct2(f.num("accum_positive_on_max_k")), f["accum_positive_k_max"])
	}
	p += "."
	if _, ok := f["accum_signed_on_max_k"]; ok {
		ratio := f.num("accum_positive_on_max_k") / f.num("accum_signed_on_max_k")
		rel := "less"
		if ratio < 1 {
			rel, ratio = "more", 1/ratio
		}
		p += fmt.Sprintf(" Mixed signs (N(0,1)) lost %s at K = %s, %s %s than the growing sum at that K.",
			pct2(f.num("accum_signed_on_max_k")), f["accum_signed_k_max"], times(ratio), rel)
	}
	lo, hi := pct2(f.num("accum_positive_off_lo")), pct2(f.num("accum_positive_off_hi"))
	if lo == hi {
		p += fmt.Sprintf(" With fast accumulation off, the growing sum's error stays at %s whatever K.", lo)
	} else {
		p += fmt.Sprintf(" With fast accumulation off, the growing sum's error stays between %s and %s.", lo, hi)
	}
	return p
}

// gpuEmulatorText: how close the emulator fitted to this run comes.
func gpuEmulatorText(f facts) string {
	if f["accum_emulated"] != "true" {
		return ""
	}
	p := fmt.Sprintf("The dashed lines and hollow marks are fp8lab's emulation of the same products on the same operands, rebuilt bit for bit: "+
		"fast accumulation as %s comes %s of the device's error at every K, and with fast accumulation off, %s comes %s of it. "+
		"Each group of products is aligned to the largest exponent and truncated there, as the tensor core's adder does: "+
		"a term of the opposite sign is truncated toward zero too, so the errors of mixed signs cancel.",
		f["accum_fast_model"], closeness(f.num("accum_fit_worst_on")), f["accum_promoted_model"], closeness(f.num("accum_fit_worst_off")))
	if f.int("accum_fast_split_from") > 0 && f["accum_positive_stops_growing"] == "true" {
		p += fmt.Sprintf(" The error stops growing from K = %s on because cuBLASLt cuts K into slices that are accumulated apart and added in float32; "+
			"the emulation splits K there too.", f["accum_fast_split_from"])
	}
	if r := f["accum_recipes"]; r != "" {
		p += " The training lab's recipes " + joinAnd(strings.Split(r, ",")) + " use this emulation."
	}
	return p
}

// gpuLinearText: one linear layer's plans, when the run timed them.
func gpuLinearText(f facts) string {
	if f["layer"] == "" {
		return ""
	}
	var plans []string
	for _, name := range []string{"bf16", "fp8-naive", "fp8-fused"} {
		if _, ok := f["layer_"+name+"_ms"]; ok {
			plans = append(plans, fmt.Sprintf("%s %s ms (products %s)", name, f.r("layer_"+name+"_ms"), f.pct("layer_"+name+"_gemm_share")))
		}
	}
	p := fmt.Sprintf("The linear layer %s, forward and backward, took %s.", strings.ReplaceAll(f["layer"], "x", "×"), joinAnd(plans))
	if _, ok := f["layer_fp8-naive_transpose_share"]; ok {
		p += fmt.Sprintf(" In the naive FP8 plan the transposed copies of X, W and dY took %s of the time; the fused plan writes them in the cast.",
			f.pct("layer_fp8-naive_transpose_share"))
	}
	return p
}

// gpuSourceText says where the numbers come from.
func gpuSourceText(f facts) string {
	return fmt.Sprintf("These are the measurements of run %s (docs/gpu/%s), made by fp8lab-gpu on %s and shipped with the program; "+
		"a later run adds a folder, and the Run control offers it.", f["run"], f["run"], f["device"])
}
