package stochastic

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/fp8lab/fp8lab/rng"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStochasticMeanWithinFourSigma rounds each x n times (each in its own
// element slot, so each sees an independent Philox word) and checks the
// mean of the decoded values against x. With r = 32 random bits every
// dropped bit of a float32 is covered, so E[round(x)] = x exactly and the
// mean lies within 4 standard deviations step·sqrt(p(1-p)/n) of x with
// probability above 99.99%; the seeds are fixed, so the test is repeatable.
func TestStochasticMeanWithinFourSigma(t *testing.T) {
	n := 1 << 14
	if !testenv.Long() {
		n = 1 << 12
	}
	prng := rand.New(rand.NewPCG(11, 12))
	for _, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2, fp8.E2M1, fp8.E3M2, fp8.E4M3FNUZ} {
		rd, err := FormatRounder(f)
		require.NoError(t, err)
		for k := 0; k < 40; k++ {
			// Log-uniform magnitudes from below the smallest subnormal to Max.
			lo := math.Log2(f.PositiveFinite()[0]) - 1
			hi := math.Log2(f.Max())
			x := float32(math.Exp2(lo + prng.Float64()*(hi-lo)))
			if k%2 == 1 {
				x = -x
			}
			src := make([]float32, n)
			for i := range src {
				src[i] = x
			}
			codes := make([]uint8, n)
			require.NoError(t, rng.EncodeStochastic(f, codes, src, 77, uint64(k), 32))
			var sum float64
			for _, c := range codes {
				sum += f.Decode(c)
			}
			mean := sum / float64(n)
			toward, away, err := rd.Neighbors(float64(x))
			require.NoError(t, err)
			p := (math.Abs(float64(x)) - math.Abs(toward)) / math.Abs(away-toward)
			if away == toward {
				p = 0
			}
			sigma := math.Abs(away-toward) * math.Sqrt(p*(1-p)/float64(n))
			assert.InDelta(t, float64(x), mean, 4*sigma+1e-300, "%s x=%g p=%.3f", f, x, p)
		}
	}
}
