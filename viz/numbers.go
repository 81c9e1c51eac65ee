package viz

import (
	"math"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// How numbers are written, in one place: on the picture (labels and notes,
// with a typographic minus and a space before %), in Facts (the shortest
// exact text) and in the explanations' sentences (dbText, pctText, sig4).

// exact formats a value with the shortest text that reads back exactly,
// as fp8 prints values ("448", "0.001953125", "NaN", "+Inf").
func exact(v float64) string { return fp8.Number(v).String() }

// short formats a value with about four significant digits and a
// typographic minus, for labels.
func short(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+∞"
	case math.IsInf(v, -1):
		return plot.Minus + "∞"
	case v == 0:
		return "0"
	}
	if e := math.Log2(math.Abs(v)); e == math.Trunc(e) && math.Abs(e) >= 11 {
		return sign(v) + plot.FormatPow2(int(e))
	}
	a := math.Abs(v)
	var s string
	if a >= 1e-3 && a < 1e6 {
		s = strconv.FormatFloat(v, 'g', 4, 64)
		if strings.ContainsAny(s, "e") {
			s = strconv.FormatFloat(v, 'f', -1, 64)
		}
	} else {
		exp10 := int(math.Floor(math.Log10(a)))
		mant := v / math.Pow(10, float64(exp10))
		s = strconv.FormatFloat(mant, 'f', 2, 64)
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".") + "×" + plot.FormatPow10(exp10)
	}
	return strings.ReplaceAll(s, "-", plot.Minus)
}

// sign returns the typographic minus for negative v.
func sign(v float64) string {
	if v < 0 {
		return plot.Minus
	}
	return ""
}

// pow2Label prints a power of two below 1/8 or above 2^16 as 2ⁿ and any
// other value exactly.
func pow2Label(v float64) string {
	if v > 0 && !math.IsInf(v, 0) {
		if m, e := math.Frexp(v); m == 0.5 && (e-1 <= -3 || e-1 > 16) {
			return pow2(e - 1)
		}
	}
	return strings.Replace(exact(v), "-", plot.Minus, 1)
}

// pow2 labels 2^e.
func pow2(e int) string { return plot.FormatPow2(e) }

// dB formats a signal-to-noise ratio.
func dB(v float64) string {
	switch {
	case math.IsNaN(v):
		return "—"
	case math.IsInf(v, 1):
		return "exact"
	}
	return strings.ReplaceAll(strconv.FormatFloat(v, 'f', 1, 64), "-", plot.Minus) + " dB"
}

// percent formats a fraction as a percentage.
func percent(f float64) string {
	switch {
	case f == 0:
		return "0 %"
	case f < 0.001:
		return strconv.FormatFloat(100*f, 'g', 2, 64) + " %"
	}
	return strconv.FormatFloat(100*f, 'f', 1, 64) + " %"
}

// fact formats a number for Facts: the shortest exact text, with "NaN",
// "+Inf" and "-Inf" for the specials.
func fact(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// dbText writes a level in decibels with one decimal.
func dbText(v float64) string {
	if math.IsInf(v, 1) {
		return "∞ dB (exact)"
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + " dB"
}

// sig4 writes v to 4 significant digits.
func sig4(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

// pctText writes a fraction as a percentage.
func pctText(v float64) string {
	x := v * 100
	switch {
	case x == 0:
		return "0%"
	case x >= 99.95 || x < 0.05:
		return strconv.FormatFloat(x, 'g', 3, 64) + "%"
	}
	return strconv.FormatFloat(x, 'f', 1, 64) + "%"
}

// dbEqual reports whether two levels print the same with one decimal, the
// precision an explanation shows them with.
func dbEqual(a, b float64) bool { return dbText(a) == dbText(b) }
