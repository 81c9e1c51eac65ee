package scaling

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/stretchr/testify/require"
)

// TestAlignedRunVecMatchesGo: the dispatched eight-lane kernel (AVX2 where
// the CPU has it) gives alignedRunGo's sums bit for bit, for widths and
// group sizes within alignedFits, run lengths that leave a short last group,
// row strides wider than eight, running sums that start non-zero, and
// products spanning E5M2's range; where there is no vector kernel both
// sides are the Go loop and the test checks the dispatch.
func TestAlignedRunVecMatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 1))
	for trial := range 400 {
		m := 1 + r.IntN(17)
		group := 1 + r.IntN(MaxAlignGroup)
		for (group+1)<<(m+1) > 1<<24 {
			group /= 2
		}
		length := 1 + r.IntN(300)
		ldb := 8 + r.IntN(3)*8
		a := fp8Values(r, fp8.E5M2, length, true)
		b := fp8Values(r, fp8.E5M2, length*ldb, trial%2 == 0)
		var start [8]float32
		if trial%3 == 0 {
			for l := range start {
				start[l] = float32(roundMantissa(r.NormFloat64()*1e4, m, false))
			}
		}
		got, want := start, start
		alignedRun(got[:], a, b, ldb, group, m)
		alignedRunGo(want[:], a, b, ldb, group, m)
		for l := range want {
			require.Equal(t, math.Float32bits(want[l]), math.Float32bits(got[l]),
				"trial %d lane %d (m=%d group=%d length=%d ldb=%d): %g, want %g", trial, l, m, group, length, ldb, got[l], want[l])
		}
	}
}
