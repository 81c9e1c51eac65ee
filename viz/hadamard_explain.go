package viz

import (
	"fmt"
	"strings"

	"github.com/fp8lab/fp8lab/viz/claim"
)

// scalesText names which elements share a scale, for a granularity.
func scalesText(g string) string {
	switch g {
	case "tensor":
		return "one scale for the whole tensor"
	case "row":
		return "one scale per row"
	case "mx":
		return "MX scales (a power of two per 32 values)"
	}
	return g + " scaling"
}

// Explain implements Explainer.
func (s *hadamardScene) Explain() claim.Explanation { return legacyExplanation(s.explainOld()) }

func (s *hadamardScene) explainOld() []string {
	f := facts(s.Facts())
	if e, ok := errorExplanation(f); ok {
		return e
	}
	scales := scalesText(f["granularity"])
	ov := f.int("outlier_values")
	var out []string
	switch {
	case f["tensor"] == "loaded":
		p := fmt.Sprintf("Shown: %s, %s values, quantized to %s with %s, directly and after a Hadamard rotation of blocks of %s. ",
			f["crop"], f["elements"], f["format"], scales, f["block"])
		if ov > 0 {
			verb := "lie beyond %d times the RMS (|x| > %s) and count as outliers"
			if ov == 1 {
				verb = "lies beyond %d times the RMS (|x| > %s) and counts as an outlier"
			}
			p += fmt.Sprintf("%s "+verb+"; the largest magnitude is %s.",
				plural(ov, "value", "values"), outlierRMS, f.r("outlier_threshold"), f.r("amax_before"))
		} else {
			p += fmt.Sprintf("No value lies beyond %d times the RMS (%s), so none counts as an outlier; the largest magnitude is %s.",
				outlierRMS, f.r("outlier_threshold"), f.r("amax_before"))
		}
		out = append(out, p)
	case f.int("outliers") > 0:
		out = append(out, fmt.Sprintf("%s values, every row with %s of size %s, quantized to %s with %s, directly and after a Hadamard rotation of blocks of %s.",
			f["elements"], plural(f.int("outliers"), "outlier", "outliers"), f.r("amax_before"), f["format"], scales, f["block"]))
	default:
		out = append(out, fmt.Sprintf("%s values without outliers (largest magnitude %s), quantized to %s with %s, directly and after a Hadamard rotation of blocks of %s.",
			f["elements"], f.r("amax_before"), f["format"], scales, f["block"]))
	}
	pu, ru := f.int("plain_underflow"), f.int("rotated_underflow")
	p := fmt.Sprintf("Quantized directly, %d of the %s values become zero and the values other than the outliers have an SQNR of %s.",
		pu, f["elements"], f.db("plain_bulk_sqnr_db"))
	if pu > 0 && ov > 0 {
		p += " The outliers choose the scale."
	}
	out = append(out, p)
	zero := "as many values become zero"
	switch {
	case ru < pu:
		zero = fmt.Sprintf("fewer values become zero (%d instead of %d)", ru, pu)
	case ru > pu:
		zero = fmt.Sprintf("more values become zero (%d instead of %d)", ru, pu)
	default:
		zero += fmt.Sprintf(" (%d)", ru)
	}
	amax := "spreading each outlier over its block"
	if f.num("amax_after") >= f.num("amax_before") {
		amax = "which does not shrink it"
	}
	all := change(f.num("plain_sqnr_db"), f.num("rotated_sqnr_db"))
	out = append(out, fmt.Sprintf("After the rotation the largest magnitude is %s, %s; %s. The rotation %s the SQNR of all values, "+
		"from %s to %s, and %s that of the values other than the outliers, from %s to %s.",
		f.r("amax_after"), amax, zero,
		all, f.db("plain_sqnr_db"), f.db("rotated_sqnr_db"),
		change(f.num("plain_bulk_sqnr_db"), f.num("rotated_bulk_sqnr_db")), f.db("plain_bulk_sqnr_db"), f.db("rotated_bulk_sqnr_db")))
	verdict := "neither helps nor hurts"
	why := ""
	switch all {
	case "raises":
		verdict = "helps"
		if ru < pu {
			why = " The smaller amax lets the scale fit the bulk, so fewer values fall below the format's smallest step."
		}
	case "lowers":
		verdict = "hurts: it is net negative"
		if ov > 0 && f.num("outlier_plain_max_error") == 0 {
			why = " Quantized directly the outliers were stored exactly (the scale maps the largest to the format's maximum) " +
				"while the other values kept the format's relative precision; the rotation spreads the outliers' energy into every element, " +
				"where it meets the format's rounding error."
		}
	}
	out = append(out, fmt.Sprintf("Here the rotation %s.%s It is orthogonal (its inverse is its transpose), so it is undone after the matrix product: (A·H)(H⁻¹·B) = A·B.", verdict, why))
	return append(out, hadamardFormats(f))
}

// hadamardFormats sorts the formats of the side-by-side chart by what the
// rotation does to their SQNR, each with its change in decibels.
func hadamardFormats(f facts) string {
	groups := map[string][]string{}
	for _, name := range strings.Split(f["compare_formats"], ",") {
		a, b := f.num(name+".plain_sqnr_db"), f.num(name+".rotated_sqnr_db")
		c := change(a, b)
		item := name
		if c != "leaves unchanged" {
			item = fmt.Sprintf("%s (%+.1f dB)", name, b-a)
		}
		groups[c] = append(groups[c], item)
	}
	var parts []string
	for _, c := range []struct{ key, verb string }{{"raises", "helps"}, {"lowers", "hurts"}, {"leaves unchanged", "leaves unchanged"}} {
		if l := groups[c.key]; len(l) > 0 {
			parts = append(parts, c.verb+" "+joinAnd(l))
		}
	}
	p := "The same tensor in other formats (chart “SQNR change by rotating”, the shown format shaded; click a format to show it): the rotation " + strings.Join(parts, "; it ") + "."
	if len(groups["raises"]) > 0 && len(groups["lowers"]) > 0 {
		var hurt []string
		for _, it := range groups["lowers"] {
			hurt = append(hurt, strings.Fields(it)[0])
		}
		p += " Rotation is no free win: on this tensor it is net negative in " + joinAnd(hurt) + "."
	}
	return p
}
