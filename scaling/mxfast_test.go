package scaling

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
)

// TestMXScalesMatchMXScale checks the bit-level MX scale rule against
// MXScale and math.Ldexp for every element type, on zero, subnormals,
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
			if err := mxScales(q, vals, f, r); err != nil {
				t.Fatal(err)
			}
			for i, a := range q.Amax {
				c, err := MXScale(float64(a), f, r)
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
