package fp8

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"testing"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/stretchr/testify/require"
)

// The codec checked against refFormat, an independent reference encoder
// defined at the end of this file.

// interestingInputs returns the inputs where rounding can go wrong for f:
// every value, every midpoint between neighbours, the float32 and float64
// numbers just around each, and the special values.
func interestingInputs(r *refFormat) []float64 {
	var xs []float64
	add := func(v float64) {
		xs = append(xs, v, -v,
			math.Nextafter(v, math.Inf(1)), math.Nextafter(v, math.Inf(-1)),
			float64(math.Nextafter32(float32(v), float32(math.Inf(1)))),
			float64(math.Nextafter32(float32(v), float32(math.Inf(-1)))))
	}
	for i, v := range r.vals {
		f, _ := v.v.Float64()
		add(f)
		if i > 0 {
			mid := new(big.Rat).Add(v.v, r.vals[i-1].v)
			mid.Quo(mid, big.NewRat(2, 1))
			m, exact := mid.Float64()
			if !exact {
				panic("midpoint not exact in float64")
			}
			add(m)
			// Quarter points exercise stochastic rounding probabilities.
			q := new(big.Rat).Add(mid, r.vals[i-1].v)
			q.Quo(q, big.NewRat(2, 1))
			qf, _ := q.Float64()
			add(qf)
		}
	}
	first, _ := r.vals[0].v.Float64()
	add(first / 2)
	add(first / 3)
	add(first / 1024)
	for _, v := range []float64{0, 1, 464, 465, 61440, 65536, 1e30, 1e300, 5e-324, 1e-40,
		-431.99999999999994, math.MaxFloat32, math.MaxFloat64, math.SmallestNonzeroFloat32} {
		add(v)
	}
	xs = append(xs, math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN(),
		math.Float64frombits(0x7FF0000000000001), math.Float64frombits(0xFFF8000000000042))
	return xs
}

var allModes = func() []Mode {
	var ms []Mode
	for _, r := range []Rounding{NearestEven, TowardZero, AwayFromZero} {
		for _, o := range []Overflow{Saturate, SaturateKeepInf, NoSaturate} {
			ms = append(ms, Mode{Round: r, Overflow: o})
		}
	}
	return ms
}()

func TestEncodeMatchesReference(t *testing.T) {
	for _, f := range Presets() {
		ref := newRef(f.Spec())
		inputs := interestingInputs(ref)
		t.Run(f.Name(), func(t *testing.T) {
			for _, m := range allModes {
				for _, x := range inputs {
					want, ok := ref.encode(x, m, 0)
					got, err := f.Encode(x, m)
					if !ok {
						require.Error(t, err, "%s %v: %g should be rejected", f, m, x)
						continue
					}
					require.NoError(t, err, "%s %v: %g", f, m, x)
					require.Equal(t, want, int(got), "%s %v: %v (%#x) gave %#x want %#x", f, m, x, math.Float64bits(x), got, want)
				}
			}
		})
	}
}

func TestStochasticMatchesReference(t *testing.T) {
	randoms := []uint32{0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x12345678, 0xDEADBEEF, 0x0000FFFF, 0xFFFF0000}
	bits := []int{1, 2, 3, 7, 8, 16, 23, 31, 32}
	if !testenv.Long() {
		randoms = []uint32{0, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xDEADBEEF}
		bits = []int{1, 3, 8, 32}
	}
	for _, f := range Presets() {
		ref := newRef(f.Spec())
		inputs := interestingInputs(ref)
		t.Run(f.Name(), func(t *testing.T) {
			for _, r := range bits {
				for i, o := range []Overflow{Saturate, NoSaturate, Saturate, NoSaturate} {
					m := Mode{Round: Stochastic, Overflow: o, RandomBits: r, SRRule: StochasticRule(i / 2)}
					for _, x := range inputs {
						for _, rnd := range randoms {
							want, ok := ref.encode(x, m, rnd)
							got, err := f.EncodeStochastic(x, rnd, m)
							if !ok {
								require.Error(t, err)
								continue
							}
							require.NoError(t, err)
							require.Equal(t, want, int(got), "%s %+v %v rnd=%#x", f, m, x, rnd)
						}
					}
				}
			}
		})
	}
}

// TestDecodeMatchesReference checks every code's value against the reference.
func TestDecodeMatchesReference(t *testing.T) {
	for _, f := range Presets() {
		ref := newRef(f.Spec())
		for _, v := range ref.vals[:len(ref.vals)-1] {
			want, _ := v.v.Float64()
			require.Equal(t, want, f.Decode(uint8(v.code)), "%s code %#x", f, v.code)
			if f.Signed() && f.Spec().Specials != FNUZ || f.Signed() && v.code != 0 {
				neg := uint8(v.code | ref.signBit())
				require.Equal(t, -want, f.Decode(neg), "%s code %#x", f, neg)
				require.Equal(t, math.Signbit(-want), math.Signbit(f.Decode(neg)))
			}
		}
	}
}

func TestRoundTripEveryCode(t *testing.T) {
	for _, f := range Presets() {
		for c := 0; c < f.NumCodes(); c++ {
			code := uint8(c)
			v := f.Decode(code)
			if math.IsNaN(v) {
				continue
			}
			for _, m := range allModes {
				got, err := f.Encode(v, m)
				require.NoError(t, err)
				if math.IsInf(v, 0) && m.Overflow == Saturate {
					require.Equal(t, f.MaxCode()|code&0x80, got, "%s %v", f, m)
					continue
				}
				require.Equal(t, code, got, "%s code %#x value %v mode %v", f, code, v, m)
				got32, err := f.Encode32(float32(v), m)
				require.NoError(t, err)
				require.Equal(t, code, got32)
			}
		}
	}
}

func TestDecodeEncodeIsNearest(t *testing.T) {
	// decode(encode(x)) is a value at least as close to x as any other.
	for _, f := range Presets() {
		if f.Spec().Specials == ExponentOnly {
			continue // no zero: values far below 2^-127 are raised, by design
		}
		mags := f.magnitudes()
		for _, x := range interestingInputs(newRef(f.Spec())) {
			if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > f.Max() || x < 0 && !f.Signed() {
				continue
			}
			c, err := f.Encode(x, Mode{})
			if math.IsNaN(x) {
				continue
			}
			require.NoError(t, err)
			d := math.Abs(f.Decode(c) - x)
			for _, v := range mags {
				require.LessOrEqual(t, d, math.Abs(math.Copysign(v, x)-x), fmt.Sprintf("%s x=%v", f, x))
			}
		}
	}
}

// The reference encoder.

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
