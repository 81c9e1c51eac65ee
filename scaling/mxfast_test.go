package scaling

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
)

// TestMXScalesMatchMXScale checks the bit-level MX scale rule against
// fp8.MXScale and math.Ldexp for every element type, on zero, subnormals,
// powers of two and their neighbours, and random finite amaxes.
func TestMXScalesMatchMXScale(t *testing.T) {
	var vals []uint32
	for e := uint32(0); e < 255; e++ {
		for _, m := range []uint32{0, 1, 2, 0x3FFFFF, 0x400000, 0x7FFFFF} {
			vals = append(vals, e<<23|m)
		}
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		vals = append(vals, rnd.Uint32N(0x7F800000))
	}
	for _, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2, fp8.E3M2, fp8.E2M3, fp8.E2M1} {
		for _, r := range []fp8.ScaleRounding{fp8.ScaleFloor, fp8.ScaleCeil, fp8.ScaleNearestEven} {
			q := &Quantized{ScaleCodes: make([]uint8, len(vals)), Scales: make([]float32, len(vals)), Amax: make([]float32, len(vals))}
			for i, v := range vals {
				q.Amax[i] = math.Float32frombits(v)
			}
			if err := mxScales(q.ScaleCodes, q.Scales, q.Amax, vals, f, r); err != nil {
				t.Fatal(err)
			}
			for i, a := range q.Amax {
				c, err := fp8.MXScale(float64(a), f, r)
				if err != nil {
					t.Fatal(err)
				}
				k, _ := fp8.E8M0Exponent(c)
				want := float32(math.Ldexp(1, -k))
				if q.ScaleCodes[i] != c || math.Float32bits(q.Scales[i]) != math.Float32bits(want) {
					t.Fatalf("%s rounding %d amax %g: got code %d scale %g, want %d %g", f.Name(), r, a, q.ScaleCodes[i], q.Scales[i], c, want)
				}
			}
		}
	}
}

// TestAmaxGridShortBlocks checks the inlined short-block amax against a
// direct computation on ragged shapes holding NaN, ±Inf and signed zeros.
func TestAmaxGridShortBlocks(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for _, shape := range [][2]int{{3, 45}, {5, 100}, {2, 7}, {4, 96}} {
		x := &Tensor{Rows: shape[0], Cols: shape[1], Data: make([]float32, shape[0]*shape[1])}
		for i := range x.Data {
			x.Data[i] = float32(rnd.NormFloat64() * 10)
			switch rnd.IntN(40) {
			case 0:
				x.Data[i] = float32(math.NaN())
			case 1:
				x.Data[i] = float32(math.Inf(-1))
			case 2:
				x.Data[i] = float32(math.Copysign(0, -1))
			}
		}
		for _, bc := range []int{1, 3, 8, 16, 32, 255} {
			got, err := AmaxBlocks(x, 1, bc)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < x.Rows; i++ {
				for b := 0; b < got.Cols; b++ {
					var m uint32
					for j := b * bc; j < min((b+1)*bc, x.Cols); j++ {
						m = max(m, math.Float32bits(x.Data[i*x.Cols+j])&0x7FFFFFFF)
					}
					want, g := amaxFromBits(m), got.Data[i*got.Cols+b]
					if math.Float32bits(want) != math.Float32bits(g) {
						t.Fatalf("%v block 1×%d (%d, %d): got %g, want %g", shape, bc, i, b, g, want)
					}
				}
			}
		}
	}
}
