package fp8

import (
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
)

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
	if testing.Short() {
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
