package viz

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/stochastic"
	"github.com/fp8lab/fp8lab/viz/claim"
)

// The dither scene's explanation: the mean of N stochastic frames against
// rounding to nearest, whether the stochastic rounding is unbiased with
// the chosen random bits, the one-frame methods by three measures, and
// the tiny-update chart.

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
func ditherRaw(key string) string { return "psnr_" + key + "_db" }

// ditherBest returns the keys of the methods with the highest value of a
// measure at the precision shown (several when they tie), their names
// joined with "and", and the index of the first.
func ditherBest(val func(key string) float64, text func(float64) string) (keys, names string, first int) {
	best := math.Inf(-1)
	for _, m := range ditherMethods {
		best = math.Max(best, val(m.key))
	}
	var ks, ns []string
	first = -1
	for i, m := range ditherMethods {
		if text(val(m.key)) == text(best) {
			ks, ns = append(ks, m.key), append(ns, m.name)
			if first < 0 {
				first = i
			}
		}
	}
	return strings.Join(ks, "+"), strings.Join(ns, " and "), first
}

// ssimText writes an SSIM with three decimals.
func ssimText(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }

// dbAgainst compares level a with level b at one decimal.
func dbAgainst(key string, a, b float64, above, below, same string) claim.Compare {
	return claim.Compare{Key: key, A: a, B: b, Show: dbText, Above: above, Below: below, Same: same}
}

// Explain implements Scene.
func (s *ditherScene) Explain() claim.Explanation {
	var e claim.Explanation
	f := facts(s.Facts())
	if msg, ok := f["error"]; ok {
		e.Addf("The scene cannot be computed: %s.", msg)
		return e
	}
	near, one, avg := f.num("psnr_nearest_db"), f.num("psnr_stochastic_1_db"), f.num("psnr_average_db")
	n := f.int("frames")
	frames := claim.Count{Key: "dither.frames", N: n, One: "stochastic frame", Many: "stochastic frames"}
	e.Addf("The mean of %s reaches a PSNR of %s, %s the %s of rounding to nearest.", frames,
		claim.Quantity{Key: "dither.psnr_average", V: avg, Show: dbText},
		dbAgainst("dither.average_vs_nearest", avg, near, "above", "below", "the same as"),
		claim.Quantity{Key: "dither.psnr_nearest", V: near, Show: dbText})
	e.Add(s.framesParagraph(f))
	e.Addf("In one frame, ordered (Bayer) dithering gives %s (%s rounding to nearest) and Floyd–Steinberg error diffusion %s (%s it).",
		claim.Quantity{Key: "dither.psnr_bayer", V: f.num("psnr_bayer_db"), Show: dbText},
		dbAgainst("dither.bayer_vs_nearest", f.num("psnr_bayer_db"), near, "above", "below", "the same as"),
		claim.Quantity{Key: "dither.psnr_floyd", V: f.num("psnr_floyd_db"), Show: dbText},
		dbAgainst("dither.floyd_vs_nearest", f.num("psnr_floyd_db"), near, "above", "below", "the same as"))
	e.Add(s.explainEye(f))
	e.Add(s.tinyParagraph(f))
	_ = one
	return e
}

// framesParagraph tells one frame against many, and whether many frames
// average to the picture: they do only when the random bits cover every
// pixel's position between its two levels.
func (s *ditherScene) framesParagraph(f facts) claim.Phrase {
	near, one := f.num("psnr_nearest_db"), f.num("psnr_stochastic_1_db")
	bits := claim.Count{Key: "dither.random_bits", N: f.int("random_bits"), One: "random bit", Many: "random bits"}
	p := claim.Sprintf("The picture is quantized to %s. One stochastically rounded frame (%s) gives %s, %s rounding to nearest.",
		claim.Count{Key: "dither.levels", N: f.int("levels"), One: "grey level", Many: "grey levels"}, bits,
		claim.Quantity{Key: "dither.psnr_one", V: one, Show: dbText},
		dbAgainst("dither.one_vs_nearest", one, near, "above", "below", "the same as"))
	biased := f.int("biased_pixels")
	if biased == 0 {
		p = claim.Sprintf("%s %s, so detail that rounding to nearest erases comes back on average.", p,
			claim.Has{Key: "dither.unbiased", Present: true, Yes: fmt.Sprintf("With %s every pixel's expected value is the original", bits)})
	} else {
		p = claim.Sprintf("%s %s: in %s out of %s the expected value is below the original, so the mean of many frames stays darker than the picture.", p,
			claim.Has{Key: "dither.unbiased", Present: false, No: fmt.Sprintf("With only %s the rounding is biased", bits)},
			claim.Count{Key: "dither.biased_pixels", N: biased, One: "pixel", Many: "pixels"}, f["pixels"])
	}
	if f["growing"] == "true" {
		p = claim.Sprintf("%s %s.", p, claim.Has{Key: "dither.growing", Present: true,
			Yes: fmt.Sprintf("Grow N live is on: N grows by one frame at every screen refresh and stops at %s", f["max_frames"])})
	}
	return p
}

// explainEye compares the three measures of the table: which one-frame
// method wins pixel by pixel, after the eye blur and by SSIM, and why
// they differ, each judgement chosen from the numbers.
func (s *ditherScene) explainEye(f facts) claim.Phrase {
	raw := func(k string) float64 { return f.num(ditherRaw(k)) }
	blur := func(k string) float64 { return f.num("blur_psnr_" + k + "_db") }
	ssim := func(k string) float64 { return f.num("ssim_" + k) }
	rawKeys, rawBest, ri := ditherBest(raw, dbText)
	blurKeys, blurBest, bi := ditherBest(blur, dbText)
	ssimKeys, ssimBest, si := ditherBest(ssim, ssimText)
	rk, bk := ditherMethods[ri].key, ditherMethods[bi].key
	p := claim.Sprintf("Raw PSNR compares pixel by pixel, and there the best one-frame method is %s (%s). "+
		"The eye averages neighbouring pixels, which is what dithering relies on: after a Gaussian blur of σ = %s pixels of both images "+
		"(a stand-in for viewing from farther away) the best is %s (%s). "+
		"SSIM (Wang et al. 2004: local means, contrasts and correlations in 11×11 windows, on the unblurred pixels) ranks %s first (%s).",
		claim.Is{Key: "dither.best_raw", Value: rawKeys, Words: rawBest}, dbText(raw(rk)), f["blur_sigma"],
		claim.Is{Key: "dither.best_blurred", Value: blurKeys, Words: blurBest}, dbText(blur(bk)),
		claim.Is{Key: "dither.best_ssim", Value: ssimKeys, Words: ssimBest}, ssimText(ssim(ditherMethods[si].key)))
	if ri == bi {
		return claim.Sprintf("%s Both PSNRs rank the same method first here.", p)
	}
	gr, gb := blur(rk)-raw(rk), blur(bk)-raw(bk)
	gain := claim.Compare{Key: "dither.blur_gain", A: gb, B: gr, Show: dbText,
		Above: fmt.Sprintf("the blur raises %s by %s but %s by only %s: the error of %s is fine-grained and neighbours cancel it, keeping each neighbourhood's mean grey, "+
			"while the error of %s lies in whole regions turned to one level, which no averaging removes",
			ditherMethods[bi].name, dbText(gb), ditherMethods[ri].name, dbText(gr), ditherMethods[bi].name, ditherMethods[ri].name),
		Below: fmt.Sprintf("the blur raises %s by %s and %s by %s, and the order changes", ditherMethods[bi].name, dbText(gb), ditherMethods[ri].name, dbText(gr)),
		Same:  fmt.Sprintf("the blur raises both by %s", dbText(gb))}
	p = claim.Sprintf("%s The rankings differ because %s.", p, gain)
	switch si {
	case ri:
		p = claim.Sprintf("%s SSIM sides with raw PSNR: at the scale of single pixels, the dither pattern is contrast and structure the original does not have.", p)
	case bi:
		p = claim.Sprintf("%s SSIM sides with the blurred PSNR: it rewards local means kept right.", p)
	}
	return p
}

// tinyParagraph explains the tiny-update chart.
func (s *ditherScene) tinyParagraph(f facts) claim.Phrase {
	start, exact, nr, sr := f.num("tiny_start"), f.num("tiny_exact_final"), f.num("tiny_nearest_final"), f.num("tiny_stochastic_final")
	p := claim.Sprintf("The tiny-update chart adds %s a thousand times to a weight that starts at %s, stored in %s. The exact sum reaches %s; ",
		scaleText(float64(s.ps.int("tiny_update"))), sig4(start), s.ps.str("tiny_format"), claim.Quantity{Key: "dither.tiny_exact", V: exact, Show: sig4})
	if nr == start {
		p = claim.Sprintf("%srounding to nearest stays at %s, because the update is %s and every sum rounds back; ", p,
			claim.Quantity{Key: "dither.tiny_nearest", V: nr, Show: sig4},
			claim.Compare{Key: "dither.tiny_update_vs_half_step", A: s.tinyUpdate, B: s.tinyHalfStep(),
				Above: "more than half a step", Below: "less than half a step", Same: "exactly half a step, a tie that goes back to the even value"})
	} else {
		p = claim.Sprintf("%srounding to nearest ends at %s; ", p, claim.Quantity{Key: "dither.tiny_nearest", V: nr, Show: sig4})
	}
	return claim.Sprintf("%sstochastic rounding ends at %s, %s rounding to nearest.", p,
		claim.Quantity{Key: "dither.tiny_stochastic", V: sr, Show: sig4},
		claim.Compare{Key: "dither.tiny_distance", A: math.Abs(sr - exact), B: math.Abs(nr - exact), Show: sig4,
			Above: "farther from the exact sum than", Below: "closer to the exact sum than", Same: "as close to the exact sum as"})
}

// tinyHalfStep is half the distance from the tiny-update start to the next
// value of its format.
func (s *ditherScene) tinyHalfStep() float64 {
	up, err := nextUp(s.ps.str("tiny_format"), s.tinyStart)
	if err != nil {
		return math.NaN()
	}
	return (up - s.tinyStart) / 2
}

// nextUp returns the value after v (a value of the format) in the format
// named name.
func nextUp(name string, v float64) (float64, error) {
	r, err := stochastic.NewRounder(name)
	if err != nil {
		return 0, err
	}
	_, away, err := r.Neighbors(math.Nextafter(v, math.Inf(1)))
	return away, err
}
