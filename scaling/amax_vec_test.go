package scaling

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// amaxPatterns are float32 bit patterns whose sign-cleared order the amax
// loops must keep: zeros, subnormals, normals, the largest finite, the
// infinities and NaNs (quiet, signalling, with the sign bit), each also
// negated.
var amaxPatterns = []uint32{
	0, 1, 0x007FFFFF, 0x00800000, 0x3F800000, 0x43E00000, 0x7F7FFFFF,
	0x7F800000, 0x7F800001, 0x7FC00000, 0x7FFFFFFF,
}

// randomAmaxInput fills n values: mostly normal numbers of random sign,
// with each pattern above planted at random places.
func randomAmaxInput(r *rand.Rand, n int, special float64) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(r.NormFloat64() * math.Ldexp(1, r.IntN(40)-20))
		if r.Float64() < special {
			s[i] = math.Float32frombits(amaxPatterns[r.IntN(len(amaxPatterns))] | uint32(r.IntN(2))<<31)
		}
	}
	return s
}

// The vector amax loops give exactly the Go loops' bit patterns (so the
// NaN > Inf > finite order and every payload rule) for every length from 0
// to 300, every block length that is a multiple of 8 up to 256, and
// misaligned starts. Where there is no vector loop both sides are the Go
// loop and the test checks the dispatch.
func TestAbsMaxVecMatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 2))
	for _, special := range []float64{0, 0.01, 0.3} {
		buf := randomAmaxInput(r, 4096+7, special)
		for n := 0; n <= 300; n++ {
			for _, off := range []int{0, 1, 3, 7} {
				s := buf[off : off+n]
				require.Equal(t, absMaxBitsGo(s), absMaxBits(s), "n=%d off=%d special=%v", n, off, special)
				if n%8 == 0 && useAVX2 { // the assembly needs AVX2
					require.Equal(t, absMaxBitsGo(s), absMaxBitsVec(s), "n=%d off=%d", n, off)
				}
			}
		}
		for bc := 8; bc <= 256; bc += 8 {
			for _, n := range []int{0, bc - 1, bc, 3*bc + 5, 4096} {
				row := buf[1 : 1+n]
				blocks := (n + bc - 1) / bc
				want, got := make([]uint32, blocks), make([]uint32, blocks)
				for i := range want {
					// Earlier maxima the loops fold into, some above the block's.
					want[i] = uint32(r.IntN(2)) * 0x3F800000
					got[i] = want[i]
				}
				absMaxBlocksGo(want, row, bc)
				absMaxBlocks(got, row, bc)
				require.Equal(t, want, got, "bc=%d n=%d special=%v", bc, n, special)
			}
		}
	}
	// Only NaN with the sign bit, only -Inf, only -0.
	for _, u := range []uint32{0xFFFFFFFF, 0xFF800000, 0x80000000} {
		s := make([]float32, 64)
		for i := range s {
			s[i] = math.Float32frombits(u)
		}
		require.Equal(t, u&f32AbsMask, absMaxBits(s))
	}
}
