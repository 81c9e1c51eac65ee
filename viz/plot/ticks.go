package plot

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Tick is one tick mark on an axis. Minor ticks are drawn shorter and have
// no label.
type Tick struct {
	Value float64 // Position in data units.
	Label string  // Text under (x) or beside (y) the tick; empty for minor ticks.
	Minor bool
}

// Minus is the typographic minus sign (U+2212) used in tick labels; it is
// wider and easier to read than a hyphen.
const Minus = "\u2212"

// maxTicks bounds every tick list so that a bad request cannot allocate
// without limit.
const maxTicks = 1000

// NiceStep returns the step of the form 1, 2 or 5 × 10^k closest (on a log
// scale) to span/target, so that span splits into about target intervals.
// It returns 0 if span is not positive and finite or target < 1.
func NiceStep(span float64, target int) float64 {
	if !(span > 0) || math.IsInf(span, 0) || target < 1 {
		return 0
	}
	raw := span / float64(target)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	if mag == 0 || math.IsInf(mag, 0) {
		return 0
	}
	// Thresholds are the geometric means of neighbouring steps: √2 between
	// 1 and 2, √10 between 2 and 5, √50 between 5 and 10.
	switch f := raw / mag; {
	case f >= math.Sqrt(50):
		return 10 * mag
	case f >= math.Sqrt(10):
		return 5 * mag
	case f >= math.Sqrt(2):
		return 2 * mag
	}
	return mag
}

// LinearTicks returns the multiples of a nice step (see NiceStep) that lie in
// [lo, hi] (either order), about target of them, and the step. Values are
// rounded to the step's decimal precision, so 0.1+0.2 shows up as 0.3.
func LinearTicks(lo, hi float64, target int) ([]float64, float64, error) {
	if !finite(lo) || !finite(hi) {
		return nil, 0, fmt.Errorf("plot: ticks for [%g, %g]: %w: not finite", lo, hi, ErrBadDomain)
	}
	if lo > hi {
		lo, hi = hi, lo
	}
	if lo == hi {
		return []float64{lo}, 0, nil
	}
	step := NiceStep(hi-lo, max(target, 1))
	if step == 0 {
		return nil, 0, fmt.Errorf("plot: ticks for [%g, %g]: %w: span too large", lo, hi, ErrBadDomain)
	}
	k0 := math.Ceil(lo/step - 1e-9)
	k1 := math.Floor(hi/step + 1e-9)
	if k1-k0 > maxTicks {
		return nil, 0, fmt.Errorf("plot: ticks for [%g, %g]: %w: too many ticks", lo, hi, ErrBadDomain)
	}
	dec := stepDecimals(step)
	out := make([]float64, 0, int(k1-k0)+1)
	for k := k0; k <= k1; k++ {
		v, err := strconv.ParseFloat(strconv.FormatFloat(k*step, 'f', dec, 64), 64)
		if err != nil {
			v = k * step
		}
		if v == 0 {
			v = 0 // no negative zero
		}
		out = append(out, v)
	}
	return out, step, nil
}

// stepDecimals is the number of decimals needed to show multiples of step.
func stepDecimals(step float64) int {
	if !(step > 0) || math.IsInf(step, 0) {
		return 0
	}
	d := -int(math.Floor(math.Log10(step) + 1e-9))
	// Steps like 0.25 need one more digit than their leading digit suggests.
	for d < 17 {
		scaled := step * math.Pow(10, float64(max(d, 0)))
		if math.Abs(scaled-math.Round(scaled)) < 1e-6*scaled {
			break
		}
		d++
	}
	return max(d, 0)
}

// FormatTick formats v for a tick label on an axis whose ticks are step
// apart: no trailing zeros, a typographic minus, and m×10ⁿ notation for very
// large (≥ 10⁶) or very small (< 10⁻⁴) magnitudes. A step of 0 formats v
// with the shortest exact representation.
func FormatTick(v, step float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "∞"
	case math.IsInf(v, -1):
		return Minus + "∞"
	case v == 0:
		return "0"
	}
	if !(step > 0) || math.IsInf(step, 0) {
		step = 0
	}
	a := math.Abs(v)
	ref := math.Max(a, step)
	if ref >= 1e6 || (step > 0 && step < 1e-4) || (step == 0 && a < 1e-4) {
		return formatScientific(v, step)
	}
	var s string
	if step == 0 {
		s = strconv.FormatFloat(v, 'f', -1, 64)
	} else {
		s = trimZeros(strconv.FormatFloat(v, 'f', stepDecimals(step), 64))
	}
	return fixMinus(s)
}

// formatScientific writes v as m×10ⁿ with as many mantissa digits as step
// needs (or the shortest exact ones when step is 0).
func formatScientific(v, step float64) string {
	n := int(math.Floor(math.Log10(math.Abs(v))))
	m := v / math.Pow(10, float64(n))
	// Rounding can carry the mantissa to 10.
	if math.Abs(m) >= 10-1e-9 {
		m /= 10
		n++
	}
	var ms string
	if step > 0 {
		d := max(0, n-int(math.Floor(math.Log10(step)+1e-9)))
		ms = trimZeros(strconv.FormatFloat(m, 'f', min(d, 15), 64))
	} else {
		ms = strconv.FormatFloat(m, 'g', 15, 64)
		ms = trimZeros(ms)
	}
	if ms == "1" {
		return FormatPow10(n)
	}
	if ms == "-1" {
		return Minus + FormatPow10(n)
	}
	return fixMinus(ms) + "×" + FormatPow10(n)
}

// trimZeros removes trailing zeros after a decimal point, and the point
// itself if nothing follows it; "-0" becomes "0".
func trimZeros(s string) string {
	if strings.ContainsRune(s, '.') && !strings.ContainsAny(s, "eE") {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	if s == "-0" {
		return "0"
	}
	return s
}

func fixMinus(s string) string {
	if strings.HasPrefix(s, "-") {
		return Minus + s[1:]
	}
	return s
}

var superscriptDigits = [10]rune{'⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'}

// Superscript writes n with Unicode superscript digits and minus ("⁻¹²").
// The embedded Go fonts have all of these glyphs.
func Superscript(n int) string {
	var b strings.Builder
	s := strconv.Itoa(n)
	for _, r := range s {
		if r == '-' {
			b.WriteRune('⁻')
			continue
		}
		b.WriteRune(superscriptDigits[r-'0'])
	}
	return b.String()
}

// FormatPow2 returns "2" followed by the superscript exponent, e.g. "2⁻⁹".
func FormatPow2(e int) string { return "2" + Superscript(e) }

// FormatPow10 returns "10" followed by the superscript exponent, e.g. "10⁻³".
func FormatPow10(e int) string { return "10" + Superscript(e) }

// roundStrides are the strides at which a log axis labels its exponents.
var roundStrides = []int{1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 25, 32, 50, 64, 100}

// exponentStride returns the smallest "round" stride s such that labelling
// every s-th of count integer exponents gives at most target labels.
func exponentStride(count, target int) int {
	if target < 1 {
		target = 1
	}
	for _, s := range roundStrides {
		if (count+s-1)/s <= target {
			return s
		}
	}
	return (count + target - 1) / target
}

// smallerStride returns the largest round stride below s (1 for s ≤ 1).
func smallerStride(s int) int {
	out := 1
	for _, r := range roundStrides {
		if r < s {
			out = r
		}
	}
	return out
}

// labelledExponents counts the multiples of stride in [e0, e1], the
// exponents a log axis labels.
func labelledExponents(e0, e1, stride int) int {
	n := 0
	for e := e0; e <= e1; e++ {
		if floorMod(e, stride) == 0 {
			n++
		}
	}
	return n
}

// floorMod is the non-negative remainder of a/b for b > 0.
func floorMod(a, b int) int {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}
