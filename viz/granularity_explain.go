package viz

import (
	"fmt"
	"math"
	"strings"

	"github.com/fp8lab/fp8lab/viz/claim"
)

// granOrder lists the granularity scene's finer cases with their
// descriptions, compared in the explanation with one scale per tensor.
var granOrder = []struct{ key, text string }{
	{"row", "One scale per row"},
	{"tile1x128", "1×128 tiles"},
	{"block128", "128×128 blocks"},
	{"mx", "MX, a power-of-two scale per 32 values"},
	{"nvfp4", "NVFP4, E2M1 elements with a scale per 16"},
}

// granKinds describes the synthetic tensors of tensorKinds.
var granKinds = map[string]string{
	"normal":    "every value drawn from one normal distribution",
	"lognormal": "values spread over many binades",
	"gradients": "heavy-tailed values around 2^-12, as gradients are",
}

// Explain implements Explainer.
func (s *granularityScene) Explain() claim.Explanation { return legacyExplanation(s.explainOld()) }

func (s *granularityScene) explainOld() []string {
	f := facts(s.Facts())
	if e, ok := errorExplanation(f); ok {
		return e
	}
	loaded := f["tensor"] == "loaded"
	rows, cols, k := f.int("outlier_rows"), f.int("outlier_cols"), f.int("factor_log2")
	outliers := !loaded && (rows > 0 || cols > 0) && k > 0
	const what = "each column of the picture is one granularity, that is, which elements share a scale."
	var out []string
	switch {
	case loaded:
		out = append(out, fmt.Sprintf("The %s, quantized to %s; %s", f["source"], f["format"], what))
	case outliers:
		out = append(out, fmt.Sprintf("The same %s×%s matrix, with %s and %s 2^%d times larger than the rest, quantized to %s; %s",
			f["rows"], f["cols"], plural(rows, "outlier row", "outlier rows"), plural(cols, "outlier column", "outlier columns"), k, f["format"], what))
	default:
		out = append(out, fmt.Sprintf("The same %s×%s matrix, without outliers (%s), quantized to %s; %s",
			f["rows"], f["cols"], granKinds[f["tensor"]], f["format"], what))
	}
	tu := f.int("tensor.underflow")
	p := fmt.Sprintf("One scale for the whole tensor gives a whole-tensor SQNR of %s and a worst row of %s; ", f.db("tensor.sqnr_db"), f.db("tensor.worst_row_db"))
	switch {
	case tu > 0 && outliers:
		p += fmt.Sprintf("%s become zero: the outliers choose the scale and the small values vanish.", plural(tu, "value", "values"))
	case tu > 0 && loaded:
		p += fmt.Sprintf("%s become zero: below the smallest subnormal once the tensor's one scale is applied.", plural(tu, "value", "values"))
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
		if w > bestDB && !dbEqual(w, bestDB) {
			best, bestDB = g.text, w
		}
	}
	out = append(out, strings.Join(parts, ". ")+".")
	out = append(out, mxSaturation(f))
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
		dbText(hi-lo), dbText(lo), dbText(hi), dbText(whi-wlo), dbText(wlo), dbText(whi), moves, lowerFirst(best)))
	return out
}

// mxSaturation says how many values MX saturates with the chosen rounding
// of its power-of-two scale X, and why.
func mxSaturation(f facts) string {
	n, rule, max := f.int("mx.overflow"), f["mx_rounding"], f["mx.max"]
	p := fmt.Sprintf("MX with the %s rule for its scale X: ", rule)
	if n == 0 {
		p += fmt.Sprintf("no value saturates, none has |x/X| rounding above %s, %s's max.", max, f["mx.format"])
	} else {
		p += fmt.Sprintf("%s saturate: divided by their block's X they round above %s, %s's max, and are clamped to it.",
			plural(n, "value", "values"), max, f["mx.format"])
	}
	if _, ok := f["mx.emax"]; ok && rule == "floor" {
		lo, hi := math.Exp2(float64(f.int("mx.emax"))), math.Exp2(float64(f.int("mx.emax")+1))
		reach := "which stays within"
		if hi > f.num("mx.max") {
			reach = "which reaches past"
		}
		p += fmt.Sprintf(" The floor rule puts each block's largest |x/X| in [%s, %s), %s %s; the ceil rule never saturates.", exact(lo), exact(hi), reach, max)
	}
	return p
}

// lowerFirst lowercases the first letter of a sentence's start for use
// mid-sentence, unless the first word is an acronym ("MX").
func lowerFirst(s string) string {
	if len(s) > 1 && s[1] >= 'a' && s[1] <= 'z' {
		return strings.ToLower(s[:1]) + s[1:]
	}
	return s
}
