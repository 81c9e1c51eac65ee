package fp8

import (
	"fmt"
	"math"

	"github.com/x448/float16"
)

// Wide is a 16-bit IEEE-like format shown beside the minifloats wherever
// formats are compared: FP16 (binary16) and BF16. Both have ±Inf, NaN and
// subnormals, and overflow to Inf under round to nearest.
type Wide struct {
	name    string
	expBits int
	manBits int
	bias    int
	grid    grid
	decode  func(uint16) float32
}

// FP16 is IEEE binary16; its float32 conversions are those of x448/float16.
var FP16 = newWide("FP16", 5, 10, 15, func(c uint16) float32 { return float16.Frombits(c).Float32() })

// BF16 is bfloat16: float32's exponent with 7 mantissa bits.
var BF16 = newWide("BF16", 8, 7, 127, func(c uint16) float32 { return math.Float32frombits(uint32(c) << 16) })

func newWide(name string, e, m, bias int, decode func(uint16) float32) *Wide {
	maxMag := uint64(1<<e-1)<<m - 1
	return &Wide{name: name, expBits: e, manBits: m, bias: bias, grid: newGrid(m, bias, maxMag, false), decode: decode}
}

// valid reports whether w is FP16 or BF16 (not nil, not the zero Wide):
// on any other receiver the methods give "invalid Wide", NaN, zero codes
// or an error wrapping ErrInvalidFormat.
func (w *Wide) valid() bool { return w != nil && w.decode != nil }

// Name returns "FP16" or "BF16".
func (w *Wide) Name() string {
	if !w.valid() {
		return "invalid Wide"
	}
	return w.name
}

// String returns the format's name.
func (w *Wide) String() string { return w.Name() }

// Decode returns the value of a 16-bit code.
func (w *Wide) Decode(c uint16) float32 {
	if !w.valid() {
		return float32(math.NaN())
	}
	return w.decode(c)
}

// Encode32 rounds x to nearest even; overflow gives ±Inf. For FP16 this is
// x448/float16's Fromfloat32.
func (w *Wide) Encode32(x float32) uint16 {
	if w == FP16 {
		return float16.Fromfloat32(x).Bits()
	}
	c, _ := w.encode(float64(x), Mode{Overflow: NoSaturate}, 0)
	return c
}

// Encode rounds a float64 once, to nearest even, with ±Inf on overflow.
func (w *Wide) Encode(x float64) uint16 {
	c, _ := w.encode(x, Mode{Overflow: NoSaturate}, 0)
	return c
}

// EncodeStochastic rounds x stochastically with the low r bits of random
// (1 <= r <= 32), saturating at ±Max, as the minifloat encoder does.
func (w *Wide) EncodeStochastic(x float64, random uint32, r int) (uint16, error) {
	m := Mode{Round: Stochastic, RandomBits: r}
	if err := m.check(); err != nil {
		return 0, err
	}
	return w.encode(x, m, random)
}

// EncodeMode rounds x in any mode m, as the minifloat encoder does: random
// supplies the bits when m.Round is Stochastic and is ignored otherwise. NaN
// keeps its sign; ±Inf and overflow follow m.Overflow.
func (w *Wide) EncodeMode(x float64, m Mode, random uint32) (uint16, error) {
	if err := m.check(); err != nil {
		return 0, err
	}
	return w.encode(x, m, random)
}

func (w *Wide) encode(x float64, m Mode, random uint32) (uint16, error) {
	if !w.valid() {
		return 0, fmt.Errorf("%w: %s", ErrInvalidFormat, w.Name())
	}
	u := math.Float64bits(x)
	sign := uint16(u>>63) << 15
	a := u &^ (1 << 63)
	expAllOnes := uint16(1<<w.expBits-1) << w.manBits
	switch {
	case a > f64Inf:
		return sign | expAllOnes | 1<<(w.manBits-1), nil
	case a == f64Inf:
		if m.Overflow == Saturate {
			return sign | uint16(w.grid.maxMag), nil
		}
		return sign | expAllOnes, nil
	}
	q, st := w.grid.roundMagnitude(a, m, random)
	if st&overflowed != 0 {
		if m.Overflow == NoSaturate && m.Round != TowardZero {
			return sign | expAllOnes, nil
		}
		q = w.grid.maxMag
	}
	return sign | uint16(q), nil
}

// Max returns the largest finite value.
func (w *Wide) Max() float64 {
	if !w.valid() {
		return math.NaN()
	}
	return float64(w.decode(uint16(w.grid.maxMag)))
}

// PositiveFinite returns every positive finite value in increasing order.
func (w *Wide) PositiveFinite() []float64 {
	if !w.valid() {
		return nil
	}
	out := make([]float64, 0, w.grid.maxMag)
	for c := uint64(1); c <= w.grid.maxMag; c++ {
		out = append(out, float64(w.decode(uint16(c))))
	}
	return out
}

// Info returns the format's summary, computed from its codes.
func (w *Wide) Info() Info {
	if !w.valid() {
		return Info{}
	}
	in := Info{
		Name: w.name, Bits: 16, ExpBits: w.expBits, ManBits: w.manBits, Bias: w.bias,
		Signed: true, Specials: IEEE.String(), Max: w.Max(), NegZero: true,
		MinNormal:    math.Ldexp(1, w.grid.emin),
		MinSubnormal: math.Ldexp(1, w.grid.emin-w.manBits),
		Eps:          math.Ldexp(1, -w.manBits),
	}
	for c := 0; c < 1<<16; c++ {
		v := float64(w.decode(uint16(c)))
		switch {
		case math.IsNaN(v):
			in.NaNCount++
		case math.IsInf(v, 0):
			in.InfCount++
		default:
			in.Finite++
			if v > 0 {
				in.PositiveFinite++
			}
		}
	}
	in.Binades = math.Log2(in.Max / in.MinSubnormal)
	return in
}
