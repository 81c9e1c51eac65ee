package viz

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/viz/claim"
)

// ditherMethods are the one-frame methods the explanation ranks, with the
// keys of their facts: each is one image in the grid's levels (the mean of
// N frames is not, so it is reported beside them, never ranked).
var ditherMethods = []struct{ key, name string }{
	{"nearest", "rounding to nearest"},
	{"stochastic_1", "one stochastic frame"},
	{"bayer", "Bayer dithering"},
	{"floyd", "Floyd–Steinberg"},
}

// ditherRaw returns the fact key of a method's raw PSNR.
func ditherRaw(key string) string {
	if key == "floyd" {
		return "psnr_floyd_db"
	}
	return "psnr_" + key + "_db"
}

// ditherBest returns the methods with the highest value of a measure at
// the precision shown (several when they tie), joined with "and", and the
// index of the first.
func ditherBest(val func(key string) float64, text func(float64) string) (string, int) {
	best := math.Inf(-1)
	for _, m := range ditherMethods {
		best = math.Max(best, val(m.key))
	}
	var names []string
	first := -1
	for i, m := range ditherMethods {
		if text(val(m.key)) == text(best) {
			names = append(names, m.name)
			if first < 0 {
				first = i
			}
		}
	}
	return strings.Join(names, " and "), first
}

// ssimText writes an SSIM with three decimals.
func ssimText(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }

// Explain implements Explainer.
func (s *ditherScene) Explain() claim.Explanation { return legacyExplanation(s.explainOld()) }

func (s *ditherScene) explainOld() []string {
	f := facts(s.Facts())
	if e, ok := errorExplanation(f); ok {
		return e
	}
	near, one, avg := f.num("psnr_nearest_db"), f.num("psnr_stochastic_1_db"), f.num("psnr_average_db")
	out := []string{fmt.Sprintf("The picture is quantized to %s grey levels. Rounding to nearest gives a PSNR of %s; one stochastically rounded "+
		"frame (%s random bits) gives %s, %s it, and the mean of %s reaches %s, %s rounding to nearest. "+
		"Each pixel's expected value is the original, so detail that rounding to nearest erases comes back on average.",
		f["levels"], dbText(near), f["random_bits"], dbText(one), above(one, near), plural(f.int("frames"), "such frame", "such frames"), dbText(avg), above(avg, near))}
	if f["growing"] == "true" {
		out[0] += fmt.Sprintf(" Grow N live is on: N grows by one frame at every screen refresh and stops at %s.", f["max_frames"])
	}
	out = append(out, fmt.Sprintf("In one frame, ordered (Bayer) dithering gives %s (%s rounding to nearest) and Floyd–Steinberg error diffusion %s (%s it).",
		f.db("psnr_bayer_db"), above(f.num("psnr_bayer_db"), near), f.db("psnr_floyd_db"), above(f.num("psnr_floyd_db"), near)))
	out = append(out, s.explainEye(f))
	start, exact, nr, sr := f.num("tiny_start"), f.num("tiny_exact_final"), f.num("tiny_nearest_final"), f.num("tiny_stochastic_final")
	p := fmt.Sprintf("The tiny-update chart adds a small update many times to a weight that starts at %s. The exact sum reaches %s; ", sig4(start), sig4(exact))
	if nr == start {
		p += fmt.Sprintf("rounding to nearest stays at %s, because every update is less than half a step and is lost; ", sig4(nr))
	} else {
		p += fmt.Sprintf("rounding to nearest ends at %s; ", sig4(nr))
	}
	closer := "closer to the exact sum than"
	if math.Abs(sr-exact) > math.Abs(nr-exact) {
		closer = "farther from the exact sum than"
	} else if math.Abs(sr-exact) == math.Abs(nr-exact) {
		closer = "as close to the exact sum as"
	}
	p += fmt.Sprintf("stochastic rounding ends at %s, %s rounding to nearest.", sig4(sr), closer)
	return append(out, p)
}

// explainEye compares the three measures of the table: which one-frame
// method wins pixel by pixel, after the eye blur and by SSIM, and why
// they differ, each judgement chosen from the numbers.
func (s *ditherScene) explainEye(f facts) string {
	raw := func(k string) float64 { return f.num(ditherRaw(k)) }
	blur := func(k string) float64 { return f.num("blur_psnr_" + k + "_db") }
	ssim := func(k string) float64 { return f.num("ssim_" + k) }
	rawBest, ri := ditherBest(raw, dbText)
	blurBest, bi := ditherBest(blur, dbText)
	ssimBest, si := ditherBest(ssim, ssimText)
	rk, bk := ditherMethods[ri].key, ditherMethods[bi].key
	p := fmt.Sprintf("Raw PSNR compares pixel by pixel, and there the best one-frame method is %s (%s). "+
		"The eye averages neighbouring pixels, which is what dithering relies on: after a Gaussian blur of σ = %s pixels of both images "+
		"(a stand-in for viewing from farther away) the best is %s (%s). "+
		"SSIM (Wang et al. 2004: local means, contrasts and correlations in 11×11 windows, on the unblurred pixels) ranks %s first (%s).",
		rawBest, dbText(raw(rk)), f["blur_sigma"], blurBest, dbText(blur(bk)), ssimBest, ssimText(ssim(ditherMethods[si].key)))
	if ri != bi {
		gr, gb := blur(rk)-raw(rk), blur(bk)-raw(bk)
		p += fmt.Sprintf(" The rankings differ because the blur raises %s by %s but %s by %s: ",
			ditherMethods[bi].name, dbText(gb), ditherMethods[ri].name, dbText(gr))
		if gb > gr {
			p += fmt.Sprintf("the error of %s is fine-grained and neighbours cancel it, keeping each neighbourhood's mean grey; "+
				"the error of %s lies in whole regions turned to one level, which no averaging removes.", ditherMethods[bi].name, ditherMethods[ri].name)
		} else {
			p += "the blur changes the two methods' errors unequally."
		}
	} else {
		p += " Both measures agree here."
	}
	switch si {
	case ri:
		if ri != bi {
			p += " SSIM sides with raw PSNR: at the scale of single pixels, the dither pattern is contrast and structure the original does not have."
		}
	case bi:
		p += " SSIM sides with the blurred PSNR: it rewards local means kept right."
	}
	return p
}
