package fp8

import (
	"math"
	"testing"
)

// FuzzEncode compares the codec with the exact-rational reference on any
// float64 and any mode, and checks the float32 fast path on float32 inputs.
func FuzzEncode(f *testing.F) {
	refs := map[*Format]*refFormat{}
	for _, p := range Presets() {
		refs[p] = newRef(p.Spec())
	}
	f.Add(uint64(math.Float64bits(464)), uint8(0), uint8(0), uint8(0), uint32(0), uint8(0))
	f.Add(uint64(math.Float64bits(-431.99999999999994)), uint8(0), uint8(0), uint8(0), uint32(0), uint8(0))
	f.Add(uint64(math.Float64bits(0x1p-10)), uint8(1), uint8(3), uint8(2), uint32(0x80000000), uint8(8))
	f.Fuzz(func(t *testing.T, bits uint64, fi, round, overflow uint8, random uint32, r uint8) {
		fmt := Presets()[int(fi)%len(Presets())]
		x := math.Float64frombits(bits)
		m := Mode{Round: Rounding(round % 4), Overflow: Overflow(overflow % 3), RandomBits: int(r%32) + 1}
		want, ok := refs[fmt].encode(x, m, random)
		var got uint8
		var err error
		if m.Round == Stochastic {
			got, err = fmt.EncodeStochastic(x, random, m)
		} else {
			got, err = fmt.Encode(x, m)
		}
		if ok != (err == nil) {
			t.Fatalf("%s %+v %v: reference ok=%v, err=%v", fmt, m, x, ok, err)
		}
		if ok && int(got) != want {
			t.Fatalf("%s %+v %v: got %#x want %#x", fmt, m, x, got, want)
		}
		x32 := float32(x)
		src, dst, rnd := []float32{x32}, []uint8{0}, []uint32{random}
		if m.Round == Stochastic {
			err = fmt.EncodeSliceStochastic32(dst, src, rnd, m)
		} else {
			err = fmt.EncodeSlice32(dst, src, m)
		}
		want32, ok32 := refs[fmt].encode(float64(x32), m, random)
		if ok32 != (err == nil) || ok32 && int(dst[0]) != want32 {
			t.Fatalf("%s %+v float32 %v: got %#x (err %v) want %#x", fmt, m, x32, dst[0], err, want32)
		}
	})
}
