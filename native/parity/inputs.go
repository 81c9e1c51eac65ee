package parity

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/native"
	"github.com/fp8lab/fp8lab/scaling"
)

// InputKind names a family of seeded test tensors used by Parity and the
// benchmarks.
type InputKind uint8

const (
	// InputNormal is N(0, 1) with outliers (about 1% of the elements times
	// 1000), exact zeros, negative zeros and float32 subnormals. All finite.
	InputNormal InputKind = iota
	// InputWide has log-uniform magnitudes from 2^-149 to 2^100 with random
	// signs: every binade of float32, subnormals included. All finite.
	InputWide
	// InputTies puts, after a power-of-two scale, many elements exactly on
	// FP8 values and on midpoints between them (the round-to-nearest-even
	// ties), and some just beyond Max. All finite.
	InputTies
	// InputSpecial mixes InputNormal with NaN, ±Inf and values far beyond
	// the FP8 range; current scaling rejects it, given scales encode it.
	InputSpecial
)

var inputNames = [...]string{"normal", "wide", "ties", "special"}

// String returns the kind's name.
func (k InputKind) String() string {
	if int(k) < len(inputNames) {
		return inputNames[k]
	}
	return fmt.Sprintf("InputKind(%d)", uint8(k))
}

// MakeInput returns a rows×cols tensor of kind k drawn from a PCG generator
// seeded with seed: the same arguments give the same tensor everywhere.
func MakeInput(rows, cols int, k InputKind, seed uint64) (*scaling.Tensor, error) {
	t, err := scaling.NewTensor(rows, cols)
	if err != nil {
		return nil, err
	}
	if k > InputSpecial {
		return nil, fmt.Errorf("%w: input kind %d", native.ErrInvalidArgument, k)
	}
	r := rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15+uint64(k)))
	ties := tieValues()
	for i := range t.Data {
		var v float64
		switch k {
		case InputWide:
			v = math.Exp2(-149 + 249*r.Float64())
			if r.IntN(2) == 0 {
				v = -v
			}
		case InputTies:
			v = ties[r.IntN(len(ties))] * math.Exp2(float64(r.IntN(5)-2))
			if r.IntN(2) == 0 {
				v = -v
			}
		default:
			v = normalElement(r)
			if k == InputSpecial {
				switch r.IntN(23) {
				case 0:
					v = math.NaN()
				case 1:
					v = math.Inf(1)
				case 2:
					v = math.Inf(-1)
				case 3:
					v = math.Copysign(3e38, v)
				case 4:
					v = math.Copysign(70000, v)
				}
			}
		}
		t.Data[i] = float32(v)
		if k == InputSpecial && i%29 == 5 {
			// Negative and signalling NaNs, whose bits float64 may not carry.
			t.Data[i] = math.Float32frombits([]uint32{0xFFC00000, 0x7F800001, 0xFF800123}[i%3])
		}
	}
	if k == InputTies && len(t.Data) > 0 {
		t.Data[0] = 448 // pin the amax so that pow2 scales are exact and known
	}
	return t, nil
}

// normalElement draws one element of InputNormal.
func normalElement(r *rand.Rand) float64 {
	switch r.IntN(97) {
	case 0:
		return r.NormFloat64() * 1000 // outlier
	case 1:
		return 0
	case 2:
		return math.Copysign(0, -1)
	case 3:
		sub := float64(math.Float32frombits(r.Uint32()%0x7FFFFF + 1)) // a float32 subnormal
		if r.IntN(2) == 0 {
			sub = -sub
		}
		return sub
	}
	return r.NormFloat64()
}

// tieValues returns E4M3FN and E5M2 values, the midpoints between
// consecutive ones, and values just beyond Max: the inputs where rounding
// rules differ.
func tieValues() []float64 {
	var out []float64
	for _, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2} {
		vals := f.PositiveFinite()
		for i, v := range vals {
			out = append(out, v)
			if i+1 < len(vals) {
				out = append(out, (v+vals[i+1])/2)
			}
		}
		m := f.Max()
		out = append(out, m*1.03125, m*1.0625, m*1.5)
	}
	return out
}
