package viz

import (
	"math"
	"sort"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/viz/claim"
	"github.com/stretchr/testify/require"
)

// A second path for formats, for the sweep: every code decoded from the
// Spec's fields by the rules of OCP OFP8 and OCP MX, and rounding by search
// over the decoded values, without fp8's tables, grid or encoder.

// refCode is one code decoded from its fields.
type refCode struct {
	code        int
	sign        int
	exp, man    int
	value       float64
	class       fp8.Class
	ulp         float64 // spacing of values at this magnitude; NaN for specials
	power       int     // the binade's exponent (the smallest normal one for subnormals)
	implicitOne bool
}

// refDecoded caches refDecode by format name: the sweep rounds millions
// of values.
var refDecoded = map[string]refFormat{}

// refFormat is a decoded format with its sorted magnitudes.
type refFormat struct {
	sp     fp8.Spec
	codes  []refCode
	vals   []float64
	mags   []int
	maxULP float64
}

// refOf returns the decoded format named name.
func refOf(t *testing.T, name string) refFormat {
	if r, ok := refDecoded[name]; ok {
		return r
	}
	sp, codes := decodeFields(t, name)
	vals, mags, maxULP := refMagnitudes(sp, codes)
	r := refFormat{sp, codes, vals, mags, maxULP}
	refDecoded[name] = r
	return r
}

// refDecode decodes every code of the format named name.
func refDecode(t *testing.T, name string) (fp8.Spec, []refCode) {
	r := refOf(t, name)
	return r.sp, r.codes
}

// decodeFields decodes every code of the format named name.
func decodeFields(t *testing.T, name string) (fp8.Spec, []refCode) {
	f, err := fp8.Lookup(name)
	require.NoError(t, err)
	sp := f.Spec()
	n := 1 << sp.Bits()
	manMask := 1<<sp.ManBits - 1
	expOnes := 1<<sp.ExpBits - 1
	codes := make([]refCode, n)
	maxMag := 0.0
	for c := 0; c < n; c++ {
		r := refCode{code: c, exp: (c >> sp.ManBits) & expOnes, man: c & manMask}
		if sp.Signed {
			r.sign = c >> (sp.Bits() - 1) & 1
		}
		s := 1.0
		if r.sign == 1 {
			s = -1
		}
		special := false
		switch sp.Specials {
		case fp8.IEEE:
			if r.exp == expOnes {
				special = true
				r.value = math.NaN()
				if r.man == 0 {
					r.value = math.Inf(int(s))
				}
			}
		case fp8.FN:
			special = r.exp == expOnes && r.man == manMask
			r.value = math.NaN()
		case fp8.FNUZ:
			special = r.sign == 1 && r.exp == 0 && r.man == 0
			r.value = math.NaN()
		case fp8.ExponentOnly:
			special = r.exp == expOnes
			r.value = math.NaN()
		}
		switch {
		case special:
			r.ulp = math.NaN()
		case sp.Specials == fp8.ExponentOnly:
			r.power = r.exp - sp.Bias
			r.value = math.Ldexp(1, r.power)
			r.ulp, r.implicitOne = r.value, true
		case r.exp == 0:
			r.power = 1 - sp.Bias
			r.value = s * math.Ldexp(float64(r.man), r.power-sp.ManBits)
			r.ulp = math.Ldexp(1, r.power-sp.ManBits)
		default:
			r.power = r.exp - sp.Bias
			r.value = s * math.Ldexp(float64(1<<sp.ManBits+r.man), r.power-sp.ManBits)
			r.ulp, r.implicitOne = math.Ldexp(1, r.power-sp.ManBits), true
		}
		if !math.IsNaN(r.value) && !math.IsInf(r.value, 0) {
			maxMag = math.Max(maxMag, math.Abs(r.value))
		}
		codes[c] = r
	}
	for i := range codes {
		r := &codes[i]
		v := r.value
		switch {
		case math.IsNaN(v):
			r.class = fp8.ClassNaN
		case math.IsInf(v, 0):
			r.class = fp8.ClassInf
		case math.Abs(v) == maxMag:
			r.class = fp8.ClassMax
		case v == 0:
			r.class = fp8.ClassZero
		case !r.implicitOne:
			r.class = fp8.ClassSubnormal
		default:
			r.class = fp8.ClassNormal
		}
	}
	return sp, codes
}

// refMagnitudes returns the non-negative finite values with their
// magnitude codes, ascending, and the largest value's spacing.
func refMagnitudes(sp fp8.Spec, codes []refCode) (vals []float64, mags []int, maxULP float64) {
	magMask := 1<<(sp.ExpBits+sp.ManBits) - 1
	for _, r := range codes {
		if r.code > magMask || math.IsNaN(r.value) || math.IsInf(r.value, 0) || r.value < 0 || (r.value == 0 && r.sign == 1) {
			continue
		}
		vals, mags = append(vals, r.value), append(mags, r.code)
	}
	sort.Sort(byValue{vals, mags})
	top := codes[mags[len(mags)-1]]
	return vals, mags, top.ulp
}

type byValue struct {
	v []float64
	c []int
}

func (b byValue) Len() int           { return len(b.v) }
func (b byValue) Less(i, j int) bool { return b.v[i] < b.v[j] }
func (b byValue) Swap(i, j int) {
	b.v[i], b.v[j] = b.v[j], b.v[i]
	b.c[i], b.c[j] = b.c[j], b.c[i]
}

// refRounded is what refRound gives.
type refRounded struct {
	code       int
	value      float64
	overflow   bool // a finite input rounded beyond the largest value
	underflow  bool // a nonzero input became zero (or, with no zero, was raised to the smallest value)
	lower, hi  float64
	beyondNext bool // beyond the step after max, which has no code
}

// refRound rounds the finite x by search over the format's values with
// rounding "nearest" (ties to the even code), "zero" or "away", then
// applies the overflow policy. ok is false for inputs the format cannot
// hold (a negative in an unsigned format, zero without a zero).
func refRound(t *testing.T, name string, x float64, rounding, overflow string) (refRounded, bool) {
	rf := refOf(t, name)
	sp, codes, vals, mags, maxULP := rf.sp, rf.codes, rf.vals, rf.mags, rf.maxULP
	a, neg := math.Abs(x), math.Signbit(x)
	if (neg && a != 0 && !sp.Signed) || (a == 0 && vals[0] != 0) {
		return refRounded{}, false
	}
	n := len(vals)
	max := vals[n-1]
	next := max + maxULP
	var out refRounded
	pick := -1 // index into vals, n for the step beyond max
	switch {
	case a > next:
		out.beyondNext = true
		out.lower, out.hi = max, math.NaN()
		pick = n // toward zero too: beyond the step after max, as IEEE 754 flags overflow
	case a < vals[0]:
		out.lower, out.hi = math.NaN(), vals[0]
		pick = 0 // no zero: raised to the smallest value
	default:
		at := func(k int) float64 {
			if k == n {
				return next
			}
			return vals[k]
		}
		i := sort.Search(n+1, func(k int) bool { return at(k) >= a })
		if at(i) == a {
			pick = i
			out.lower, out.hi = a, a
			break
		}
		lo, hi := i-1, i
		out.lower, out.hi = at(lo), at(hi)
		switch rounding {
		case "zero":
			pick = lo
		case "away":
			pick = hi
		default:
			dl, dh := a-at(lo), at(hi)-a
			switch {
			case dl < dh:
				pick = lo
			case dh < dl:
				pick = hi
			default:
				code := func(k int) int {
					if k == n {
						return mags[n-1] + 1
					}
					return mags[k]
				}
				pick = lo
				if code(hi)%2 == 0 {
					pick = hi
				}
			}
		}
	}
	if pick == n {
		out.overflow = true
		pick = n - 1 // saturated, unless the policy says otherwise
	}
	out.value, out.code = vals[pick], mags[pick]
	special := false
	if out.overflow && overflow == "no-saturate" && rounding != "zero" {
		if sc, ok := refSpecial(sp, codes, true, neg); ok {
			out.code, out.value, special = sc.code, sc.value, true // signed already
		}
	}
	if neg && special {
		out.lower, out.hi = -out.hi, -out.lower
	} else if neg && sp.Signed && !(sp.Specials == fp8.FNUZ && out.value == 0) { // FNUZ has no -0
		out.value = -out.value
		out.lower, out.hi = -out.hi, -out.lower
		if !(sp.Specials == fp8.FNUZ && out.value == 0) && out.code < 1<<(sp.ExpBits+sp.ManBits) {
			out.code |= 1 << (sp.Bits() - 1)
		}
	}
	out.underflow = x != 0 && (out.value == 0 || (vals[0] != 0 && a < vals[0]))
	return out, true
}

// refSpecial is the code an overflow (inf) or a NaN becomes: ±Inf where
// the format has infinities and inf is asked for, else a NaN; false when
// the format has neither.
func refSpecial(sp fp8.Spec, codes []refCode, inf, negative bool) (refCode, bool) {
	var nan *refCode
	for i := range codes {
		r := &codes[i]
		if inf && math.IsInf(r.value, 1) && !negative || inf && math.IsInf(r.value, -1) && negative {
			return *r, true
		}
		if r.class == fp8.ClassNaN && nan == nil {
			nan = r
		}
	}
	if nan == nil {
		return refCode{}, false
	}
	return *nan, true
}

// formatPropertyTruth decides a property of a format from its decoded
// codes.
func formatPropertyTruth(t *testing.T, name string, p claim.Property) bool {
	sp, codes := refDecode(t, name)
	has := func(pred func(refCode) bool) bool {
		for _, r := range codes {
			if pred(r) {
				return true
			}
		}
		return false
	}
	switch p {
	case claim.SignBit:
		return has(func(r refCode) bool { return r.value < 0 })
	case claim.Zero:
		return has(func(r refCode) bool { return r.value == 0 })
	case claim.NegativeZero:
		return has(func(r refCode) bool { return r.value == 0 && r.sign == 1 })
	case claim.Subnormals:
		return has(func(r refCode) bool { return r.class == fp8.ClassSubnormal })
	case claim.Infinity:
		return has(func(r refCode) bool { return math.IsInf(r.value, 0) })
	case claim.NaN:
		return has(func(r refCode) bool { return math.IsNaN(r.value) })
	case claim.AlwaysSaturates:
		return !has(func(r refCode) bool { return math.IsNaN(r.value) || math.IsInf(r.value, 0) })
	case claim.PowersOfTwo:
		return !has(func(r refCode) bool {
			m, _ := math.Frexp(math.Abs(r.value))
			return r.value != 0 && !math.IsNaN(r.value) && !math.IsInf(r.value, 0) && m != 0.5
		})
	}
	t.Fatalf("property %v has no second path", p)
	_ = sp
	return false
}
