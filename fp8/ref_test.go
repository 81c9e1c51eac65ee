package fp8

import (
	"math"
	"math/big"
	"sort"
)

// refFormat is an independent reference encoder. It knows a format only from
// its Spec, computes every value as an exact rational, and rounds by comparing
// exact distances. It shares no code with the encoder under test.
type refFormat struct {
	spec    Spec
	vals    []refVal // non-negative finite values in increasing order, plus one virtual value past Max
	maxCode int
}

type refVal struct {
	v    *big.Rat
	code int
}

func pow2(k int) *big.Rat {
	r := new(big.Rat).SetInt64(1)
	if k >= 0 {
		return r.SetInt(new(big.Int).Lsh(big.NewInt(1), uint(k)))
	}
	return r.SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(-k)))
}

// fieldValue is the value of magnitude fields (e, m) by the textbook formula,
// with no regard for specials. It accepts e past the field's width, which
// gives the virtual value just above the largest code.
func (r *refFormat) fieldValue(code int) *big.Rat {
	s := r.spec
	e, m := code>>s.ManBits, code&(1<<s.ManBits-1)
	if s.Specials == ExponentOnly {
		return pow2(e - s.Bias)
	}
	if e == 0 {
		return new(big.Rat).Mul(big.NewRat(int64(m), 1), pow2(1-s.Bias-s.ManBits))
	}
	return new(big.Rat).Mul(big.NewRat(int64(1<<s.ManBits+m), 1), pow2(e-s.Bias-s.ManBits))
}

// isSpecialMag reports whether a non-negative magnitude code is Inf or NaN.
func (r *refFormat) isSpecialMag(code int) bool {
	s := r.spec
	expOnes := 1<<s.ExpBits - 1
	e, m := code>>s.ManBits, code&(1<<s.ManBits-1)
	switch s.Specials {
	case IEEE, ExponentOnly:
		return e == expOnes
	case FN:
		return e == expOnes && m == 1<<s.ManBits-1
	}
	return false
}

func newRef(s Spec) *refFormat {
	r := &refFormat{spec: s}
	for c := 0; c < 1<<(s.ExpBits+s.ManBits); c++ {
		if r.isSpecialMag(c) {
			continue
		}
		r.vals = append(r.vals, refVal{r.fieldValue(c), c})
		r.maxCode = c
	}
	r.vals = append(r.vals, refVal{r.fieldValue(r.maxCode + 1), r.maxCode + 1})
	return r
}

func (r *refFormat) signBit() int {
	if !r.spec.Signed {
		return 0
	}
	return 1 << (r.spec.ExpBits + r.spec.ManBits)
}

// nanCode is the NaN the reference expects for a NaN input of the given sign.
func (r *refFormat) nanCode(neg bool) (int, bool) {
	s := r.spec
	expOnes := (1<<s.ExpBits - 1) << s.ManBits
	sign := 0
	if neg {
		sign = r.signBit()
	}
	switch s.Specials {
	case IEEE:
		return sign | expOnes | 1<<(s.ManBits-1), true
	case FN:
		return sign | expOnes | (1<<s.ManBits - 1), true
	case FNUZ:
		return r.signBit(), true
	case ExponentOnly:
		return expOnes, true
	}
	return 0, false
}

// encode returns the expected code and ok=false where an error is expected.
func (r *refFormat) encode(x float64, m Mode, random uint32) (int, bool) {
	s := r.spec
	neg := math.Signbit(x)
	sign := 0
	if neg {
		sign = r.signBit()
	}
	expOnes := (1<<s.ExpBits - 1) << s.ManBits
	if math.IsNaN(x) {
		c, ok := r.nanCode(neg)
		return c, ok
	}
	if neg && !s.Signed && x != 0 {
		return 0, false
	}
	if x == 0 && s.Specials == ExponentOnly {
		return 0, false
	}
	// overflowCode is what overflow (and Inf) gives when not saturating.
	overflowCode := func() int {
		if s.Specials == IEEE {
			return sign | expOnes
		}
		c, _ := r.nanCode(neg)
		return c
	}
	hasNaN := s.Specials != FiniteOnly
	if math.IsInf(x, 0) {
		if m.Overflow == Saturate || !hasNaN {
			return sign | r.maxCode, true
		}
		return overflowCode(), true
	}
	return r.encodeRat(new(big.Rat).SetFloat64(math.Abs(x)), neg, m, random), true
}

// encodeRat rounds the exact finite magnitude a (with the sign neg) and
// returns the expected code.
func (r *refFormat) encodeRat(a *big.Rat, neg bool, m Mode, random uint32) int {
	s := r.spec
	sign := 0
	if neg {
		sign = r.signBit()
	}
	expOnes := (1<<s.ExpBits - 1) << s.ManBits
	overflowCode := func() int {
		if s.Specials == IEEE {
			return sign | expOnes
		}
		c, _ := r.nanCode(neg)
		return c
	}
	hasNaN := s.Specials != FiniteOnly
	i := sort.Search(len(r.vals), func(i int) bool { return r.vals[i].v.Cmp(a) >= 0 })
	var pick int
	switch {
	case i < len(r.vals) && r.vals[i].v.Cmp(a) == 0:
		pick = r.vals[i].code
	case i == 0: // below the smallest value: only E8M0, which has no zero
		pick = r.vals[0].code
	case i == len(r.vals): // beyond the virtual value: overflow in every mode
		pick = r.maxCode + 1
	default:
		lo, hi := r.vals[i-1], r.vals[i]
		width := new(big.Rat).Sub(hi.v, lo.v)
		t := new(big.Rat).Quo(new(big.Rat).Sub(a, lo.v), width) // position in (0, 1)
		half := big.NewRat(1, 2)
		switch m.Round {
		case NearestEven:
			switch t.Cmp(half) {
			case -1:
				pick = lo.code
			case 1:
				pick = hi.code
			default:
				pick = lo.code
				if lo.code%2 == 1 {
					pick = hi.code
				}
			}
		case TowardZero:
			pick = lo.code
		case AwayFromZero:
			pick = hi.code
		case Stochastic:
			// Up exactly when t + rnd/2^r >= 1.
			rnd := uint64(random) & (1<<uint(m.RandomBits) - 1)
			if m.SRRule == StochasticNearest {
				t = nearestEvenMultiple(t, m.RandomBits)
			}
			sum := new(big.Rat).Add(t, new(big.Rat).SetFrac(new(big.Int).SetUint64(rnd), new(big.Int).Lsh(big.NewInt(1), uint(m.RandomBits))))
			pick = lo.code
			if sum.Cmp(big.NewRat(1, 1)) >= 0 {
				pick = hi.code
			}
		}
	}
	if pick > r.maxCode {
		if m.Overflow == NoSaturate && m.Round != TowardZero && hasNaN {
			return overflowCode()
		}
		pick = r.maxCode
	}
	if pick == 0 && s.Specials == FNUZ {
		return 0
	}
	return sign | pick
}

// nearestEvenMultiple rounds t to the nearest multiple of 2^-r, ties to an
// even multiple, by exact rational arithmetic.
func nearestEvenMultiple(t *big.Rat, r int) *big.Rat {
	scaled := new(big.Rat).Mul(t, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(r))))
	fl := new(big.Int).Quo(scaled.Num(), scaled.Denom()) // t >= 0: truncation is floor
	frac := new(big.Rat).Sub(scaled, new(big.Rat).SetInt(fl))
	switch frac.Cmp(big.NewRat(1, 2)) {
	case 1:
		fl.Add(fl, big.NewInt(1))
	case 0:
		if fl.Bit(0) == 1 {
			fl.Add(fl, big.NewInt(1))
		}
	}
	return new(big.Rat).SetFrac(fl, new(big.Int).Lsh(big.NewInt(1), uint(r)))
}
