package fp8

import "math"

// The nearest-even kernel of the 4-bit E2M1 (NVFP4's and MXFP4's element
// type), beside bulk8.go's. Its eight magnitudes 0, 0.5, 1, 1.5, 2, 3, 4,
// 6 are told apart by a float32's exponent and top two mantissa bits, so a
// lookup in a small table replaces fast32's arithmetic: that computes the
// codes below 1 (0, 0.5) by a float add the compiler guards with a branch,
// which mispredicts on NVFP4-scaled blocks, where a quarter of the values
// lies below 1 (BenchmarkE2M1Kernel: 4.8-9.1x on such blocks).
//
// The key of a = |x|'s bits is (a + 2^21 - 1 + bit 22 of a) >> 21: a's
// bits rounded, to nearest with ties to an even bit 22, to their top ten
// (exponent and two mantissa bits). Every midpoint of E2M1 has zero
// mantissa bits below those two (0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5), so
// no key spans one, and each tie lands on the side its rounding takes:
// 0.25, 1.25, 2.5 and 5 have bit 22 clear and go down, to the even code
// below; 0.75, 1.75 and 3.5 have it set and go up, to the even code
// above. The table holds each key's code, taken from the core; the keys of
// NaNs hold the largest magnitude, as nearestAny32 leaves them, so both
// kernels write the same codes for every float32 (TestExhaustiveE2M1Kernel:
// all 2^32 in long mode) and flag the same blocks for the core to redo.

// e2m1KeyShift is how far e2m1Key shifts the rounded bits: 23 - 2.
const e2m1KeyShift = 21

// e2m1Key is the table key of the magnitude bits a (at most 0x7FFFFFFF).
func e2m1Key(a uint32) uint32 {
	return (a + (1<<e2m1KeyShift - 1) + (a>>(e2m1KeyShift+1))&1) >> e2m1KeyShift
}

// e2m1Mags is the E2M1 magnitude of each key: keys up to that of the
// largest float32 bits, 0x7FFFFFFF, which rounds up to 1<<10.
var e2m1Mags = buildE2M1Mags()

// buildE2M1Mags encodes with the core, for each key k, the float32 whose
// bits are k<<21 - 1<<20 (0 for k = 0): halfway through the 2^21
// patterns of key k, whichever way bit 22 rounds them, so not a tie.
func buildE2M1Mags() [1<<(31-e2m1KeyShift) + 1]uint8 {
	var t [1<<(31-e2m1KeyShift) + 1]uint8
	for k := range t {
		x := float64(math.Float32frombits(uint32(max(k<<e2m1KeyShift-1<<(e2m1KeyShift-1), 0))))
		if math.IsNaN(x) {
			t[k] = E2M1.maxMag
			continue
		}
		c, _, err := E2M1.encode(x, Mode{}, 0)
		if err != nil {
			panic("fp8: E2M1 table: " + err.Error())
		}
		t[k] = c
	}
	return t
}

// nearestE2M1 is nearestAny32 for E2M1, whose every mode has ovf = maxMag
// (a finite-only format saturates), so the table's codes need no clamp.
func nearestE2M1(_ *fast32, d []uint8, s []float32, _ uint32) uint32 {
	w := words32(s)
	d = d[:len(w)]
	var special uint32
	for i, u := range w {
		a := u & 0x7FFFFFFF
		special |= a + 0x00800000 // bit 31 set iff a is NaN or Inf
		d[i] = e2m1Mags[e2m1Key(a)] | uint8(u>>28)&8
	}
	return special
}
