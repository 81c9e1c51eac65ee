package mx

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
)

func reference(t *testing.T, block []float32, elem *fp8.Format) int {
	amax := 0.0
	for _, v := range block {
		amax = math.Max(amax, math.Abs(float64(v)))
	}
	code, err := fp8.MXScale(amax, elem, fp8.ScaleFloor)
	require.NoError(t, err)
	k, err := fp8.E8M0Exponent(code)
	require.NoError(t, err)
	return k
}

func TestAgainstScaling(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, elem := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2, fp8.E2M1} {
		emax, err := scaling.MXEmax(elem)
		require.NoError(t, err)
		for i := 0; i < 200; i++ {
			block := make([]float32, 32)
			mag := math.Ldexp(1, rng.IntN(60)-30)
			for j := range block {
				block[j] = float32(rng.NormFloat64() * mag)
			}
			got, err := SharedExponent(block, emax)
			require.NoError(t, err)
			assert.Equal(t, reference(t, block, elem), got, "%s block %d", elem.Name(), i)
		}
	}
}

func TestEdges(t *testing.T) {
	k, err := SharedExponent(make([]float32, 32), 8)
	require.NoError(t, err)
	assert.Equal(t, -127, k, "all-zero block")
	k, err = SharedExponent([]float32{448, -1}, 8)
	require.NoError(t, err)
	assert.Equal(t, 0, k, "floor(log2 448) = 8")
	k, err = SharedExponent([]float32{512}, 8)
	require.NoError(t, err)
	assert.Equal(t, 1, k)
	k, err = SharedExponent([]float32{1e-45}, 8)
	require.NoError(t, err)
	assert.Equal(t, -127, k, "clamped")
}
