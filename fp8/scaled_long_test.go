package fp8

import (
	"bytes"
	"math"
	"testing"

	"github.com/fp8lab/fp8lab/internal/testenv"
)

// TestExhaustiveScaledShortBlocks compares encodeScaledShort32 with blocks
// of 32 and 16 (the one-call-per-run kernel for MX and NVFP4 that
// EncodeScaledSlice32 uses until a lookup table exists) against the slice
// encoder without a table on the float32 products, for E4M3FN and E5M2, nearest-even,
// saturating and keeping Inf, over float32 bit patterns in chunks of 2^20
// with scales that push values past Max and into the subnormals: all 2^32
// patterns in long mode (FP8LAB_LONG=1), every 251st chunk otherwise.
func TestExhaustiveScaledShortBlocks(t *testing.T) {
	const chunkBits = 20
	step := 251
	if testenv.Long() {
		step = 1
	}
	src := make([]float32, 1<<chunkBits)
	prod := make([]float32, len(src))
	want, got := make([]uint8, len(src)), make([]uint8, len(src))
	factors := []float32{1, 0.5, 3, 1e-3, 7.5e5, 0x1p-20, 0x1p-127}
	for _, f := range []*Format{E4M3FN, E5M2} {
		for _, blockLen := range []int{32, 16} {
			scales := make([]float32, len(src)/blockLen)
			for b := range scales {
				scales[b] = factors[b%len(factors)]
			}
			for _, m := range []Mode{{}, {Overflow: SaturateKeepInf}} {
				for c := 0; c < 1<<(32-chunkBits); c += step {
					base := uint32(c) << chunkBits
					for i := range src {
						src[i] = math.Float32frombits(base + uint32(i))
						prod[i] = src[i] * scales[i/blockLen]
					}
					_, errWant := f.encodeSlice32Serial(want, prod, m)
					errGot := f.encodeScaledShort32(got, src, scales, blockLen, m)
					if (errWant == nil) != (errGot == nil) || errWant == nil && !bytes.Equal(want, got) {
						t.Fatalf("%s block %d %+v chunk %#x: %v vs %v, or codes differ", f, blockLen, m, base, errWant, errGot)
					}
				}
			}
		}
	}
}

// TestExhaustiveMulBlocksVec compares the vector multiply of the scaled
// table encoder with Go's float32 product on every float32 bit pattern
// (long mode; every 61st chunk of 2^20 otherwise) in blocks of 8 and 32
// with scales that overflow, reach the subnormals and change sign: the
// same bits, or NaN for NaN.
func TestExhaustiveMulBlocksVec(t *testing.T) {
	const chunkBits = 20
	step := 61
	if testenv.Long() {
		step = 1
	}
	src := make([]float32, 1<<chunkBits)
	want, got := make([]float32, len(src)), make([]float32, len(src))
	factors := []float32{1, 0.5, 3, 1e-3, 7.5e5, 0x1p-20, 0x1p-127, 0x1p100, -89.6}
	for _, bc := range []int{8, 32} {
		scales := make([]float32, len(src)/bc)
		for b := range scales {
			scales[b] = factors[b%len(factors)]
		}
		for c := 0; c < 1<<(32-chunkBits); c += step {
			base := uint32(c) << chunkBits
			for i := range src {
				src[i] = math.Float32frombits(base + uint32(i))
			}
			mulBlocksGo(want, src, scales, bc)
			mulBlocksVec(got, src, scales, bc)
			for i := range want {
				if math.Float32bits(want[i]) != math.Float32bits(got[i]) && !(want[i] != want[i] && got[i] != got[i]) {
					t.Fatalf("block %d: %#x·%g = %#x, vector %#x", bc, base+uint32(i), scales[i/bc], math.Float32bits(want[i]), math.Float32bits(got[i]))
				}
			}
		}
	}
}
