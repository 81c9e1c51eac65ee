package fp8

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

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
	if !haveAVX2 {
		t.Skip("no AVX2: mulBlocksVec is mulBlocksGo")
	}
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

// TestExhaustiveStochasticVec compares the stochastic kernels of E4M3FN
// and E5M2 with their normal range eight at a time (stochasticVec) against
// the scalar kernels on every float32 bit pattern (long mode; every 509th
// chunk of 2^20 otherwise), with random words from a fixed PCG, for r =
// 32, 21, 20, 8 and 1 random bits and each overflow magnitude the modes
// give: the same codes and the same NaN/Inf flag. The scalar kernels are
// compared with the core elsewhere.
func TestExhaustiveStochasticVec(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2")
	}
	const chunkBits = 20
	step := 509
	if testenv.Long() {
		step = 1
	}
	src := make([]float32, 1<<chunkBits)
	rw := make([]uint32, len(src))
	rng := rand.New(rand.NewPCG(14, 32))
	for i := range rw {
		rw[i] = rng.Uint32()
	}
	want, got := make([]uint8, len(src)), make([]uint8, len(src))
	// Besides the chunks of bit patterns, values as activations give them:
	// normal numbers mixed with ±0 (most groups of eight take the vector
	// loop), and now and then a tiny value, a value past Max, ±Inf or NaN.
	mixed := make([]float32, len(src))
	for i := range mixed {
		x := float32(rng.NormFloat64() * 40)
		switch k := rng.IntN(1000); {
		case k < 300:
			x = 0
		case k < 350:
			x = float32(math.Copysign(0, -1))
		case k == 350:
			x = 1e-6
		case k == 351:
			x = float32(math.Inf(1 - 2*rng.IntN(2)))
		case k == 352:
			x = float32(math.NaN())
		case k == 353:
			x = 6e4
		}
		mixed[i] = x
	}
	type kernel func(*fast32, []uint8, []float32, []uint32, uint32, uint32) uint32
	for _, c := range []struct {
		f           *Format
		scalar, vec kernel
	}{{E4M3FN, stochasticE4M3FN, stochasticE4M3FNVec}, {E5M2, stochasticE5M2, stochasticE5M2Vec}} {
		ovfs := map[uint32]bool{}
		for _, m := range []Mode{{Round: Stochastic}, {Round: Stochastic, Overflow: SaturateKeepInf}, {Round: Stochastic, Overflow: NoSaturate}} {
			if o, ok := c.f.fast.overflowMag(m); ok {
				ovfs[o] = true
			}
		}
		for ovf := range ovfs {
			for _, r := range []uint32{32, 21, 20, 8, 1} {
				// In windows of 24 values, so that each NaN/Inf flag is
				// checked where the window holds one and where it does not.
				for lo := 0; lo < len(mixed); lo += 24 {
					hi := min(lo+24, len(mixed))
					sw := c.scalar(nil, want[lo:hi], mixed[lo:hi], rw[lo:hi], r, ovf)
					sv := c.vec(nil, got[lo:hi], mixed[lo:hi], rw[lo:hi], r, ovf)
					require.Equal(t, sw, sv, "%s r=%d ovf=%#x: mixed values %d to %d, the NaN/Inf flag", c.f, r, ovf, lo, hi)
				}
				require.Equal(t, want, got, "%s r=%d ovf=%#x: mixed values", c.f, r, ovf)
				for ch := 0; ch < 1<<(32-chunkBits); ch += step {
					base := uint32(ch) << chunkBits
					for i := range src {
						src[i] = math.Float32frombits(base + uint32(i))
					}
					// A shifted window of the words, so that chunks differ.
					words := append(rw[ch%997:], rw[:ch%997]...)
					sw := c.scalar(nil, want, src, words, r, ovf)
					sv := c.vec(nil, got, src, words, r, ovf)
					if sw != sv || !bytes.Equal(want, got) {
						i := 0
						for i < len(want) && want[i] == got[i] {
							i++
						}
						t.Fatalf("%s r=%d ovf=%#x: special %#x vs %#x; first difference at %#x (word %#x): %#x vs %#x",
							c.f, r, ovf, sw, sv, base+uint32(min(i, len(want)-1)), words[min(i, len(want)-1)], want[min(i, len(want)-1)], got[min(i, len(want)-1)])
					}
				}
			}
		}
	}
}
