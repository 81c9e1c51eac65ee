package scale

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
)

func TestMatchesQuantize(t *testing.T) {
	for i, std := range []float64{1e-3, 0.7, 30, 5000} {
		x, err := scaling.RandomNormal(16, 64, std, uint64(i))
		require.NoError(t, err)
		for _, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2} {
			q, err := scaling.Quantize(x, f, scaling.PerTensor, scaling.Options{})
			require.NoError(t, err)
			got, err := Scale(x.Data, f)
			require.NoError(t, err)
			assert.Equal(t, q.Scales[0], got, "%s std %g", f.Name(), std)
		}
	}
}

func TestZeroTensorDoesNotDivideByZero(t *testing.T) {
	got, err := Scale(make([]float32, 8), fp8.E4M3FN)
	require.NoError(t, err)
	assert.Equal(t, float32(448e12), got, "amax floored at 1e-12")
}
