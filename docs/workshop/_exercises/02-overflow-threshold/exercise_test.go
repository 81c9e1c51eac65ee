package overflow

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/fp8"
)

// overflows asks the codec whether x overflows under OCP's non-saturating mode.
func overflows(t *testing.T, f *fp8.Format, x float64) bool {
	e, err := f.Explain(x, fp8.Mode{Overflow: fp8.NoSaturate})
	require.NoError(t, err)
	return e.Overflow
}

func TestThresholdMatchesTheCodec(t *testing.T) {
	for _, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2, fp8.E4M3FNUZ, fp8.E5M2FNUZ, fp8.E4M3, fp8.E3M4} {
		th, inclusive, err := Threshold(f)
		require.NoError(t, err, f.Name())
		require.Greater(t, th, f.Max(), f.Name())
		assert.False(t, overflows(t, f, math.Nextafter(th, 0)), "%s: just below %g", f.Name(), th)
		assert.True(t, overflows(t, f, math.Nextafter(th, math.Inf(1))), "%s: just above %g", f.Name(), th)
		assert.Equal(t, overflows(t, f, th), inclusive, "%s: at %g", f.Name(), th)
	}
}

func TestKnownThresholds(t *testing.T) {
	th, inc, err := Threshold(fp8.E4M3FN)
	require.NoError(t, err)
	assert.Equal(t, 464.0, th)
	assert.False(t, inc, "464 rounds to 448")
	th, inc, err = Threshold(fp8.E5M2)
	require.NoError(t, err)
	assert.Equal(t, 61440.0, th)
	assert.True(t, inc, "61440 overflows")
}
