package fp8

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/x448/float16"
)

// TestFP16GridMatchesX448 checks that the shared rounding core, configured
// for binary16, agrees with x448/float16 on float32 inputs.
func TestFP16GridMatchesX448(t *testing.T) {
	for _, x := range float32Inputs(1<<16+1, 50000) {
		want := float16.Fromfloat32(x).Bits()
		got := FP16.Encode(float64(x))
		if math.IsNaN(float64(x)) {
			assert.True(t, float16.Frombits(got).IsNaN())
			continue
		}
		require.Equal(t, want, got, "%v (%#x)", x, math.Float32bits(x))
	}
}

func TestBF16(t *testing.T) {
	// Round to nearest even on the float32 bits.
	assert.Equal(t, uint16(0x3F80), BF16.Encode32(1))
	assert.Equal(t, uint16(0x3F80), BF16.Encode32(math.Float32frombits(0x3F808000)), "tie to even")
	assert.Equal(t, uint16(0x3F82), BF16.Encode32(math.Float32frombits(0x3F818000)), "tie to even, up")
	assert.Equal(t, uint16(0x7F80), BF16.Encode32(math.MaxFloat32), "overflow to Inf")
	for _, x := range float32Inputs(1<<16+1, 50000) {
		if math.IsNaN(float64(x)) {
			continue
		}
		c := BF16.Encode32(x)
		v := BF16.Decode(c)
		// Reference: the nearest of the two bfloat16 truncations around x.
		lo := math.Float32frombits(math.Float32bits(x) &^ 0xFFFF)
		hi := math.Float32frombits(math.Float32bits(x)&^0xFFFF + 0x10000)
		if math.IsInf(float64(v), 0) {
			// IEEE rounding overflows from Max + half an ULP on.
			require.GreaterOrEqual(t, math.Abs(float64(x)), BF16.Max()+0x1p119, "%v", x)
			continue
		}
		d := math.Abs(float64(v) - float64(x))
		require.LessOrEqual(t, d, math.Abs(float64(lo)-float64(x)), "%v", x)
		if !math.IsInf(float64(hi), 0) && !math.IsNaN(float64(hi)) {
			require.LessOrEqual(t, d, math.Abs(float64(hi)-float64(x)), "%v", x)
		}
	}
}

func TestWideStochasticIsUnbiased(t *testing.T) {
	// 1 + 2^-9 lies a quarter of the way from 1 to the next BF16 value.
	x := 1 + 0x1p-9
	rng := rand.New(rand.NewPCG(5, 6))
	sum := 0.0
	const n = 40000
	for i := 0; i < n; i++ {
		c, err := BF16.EncodeStochastic(x, rng.Uint32(), 16)
		require.NoError(t, err)
		sum += float64(BF16.Decode(c))
	}
	// Bernoulli(1/4) steps of 2^-7: sigma of the mean = 2^-7 * sqrt(p(1-p)/n).
	sigma := 0x1p-7 * math.Sqrt(0.25*0.75/n)
	assert.InDelta(t, x, sum/n, 4*sigma)
	_, err := FP16.EncodeStochastic(1, 0, 0)
	assert.ErrorIs(t, err, ErrInvalidMode)
}

func TestWidePositiveFinite(t *testing.T) {
	vals := FP16.PositiveFinite()
	assert.Equal(t, 0x1p-24, vals[0])
	assert.Equal(t, 65504.0, vals[len(vals)-1])
	assert.Len(t, vals, 0x7BFF)
}

func TestWideEncodeMode(t *testing.T) {
	for _, c := range []struct {
		x    float64
		m    Mode
		want uint16
	}{
		{1e6, Mode{}, 0x7BFF},
		{1e6, Mode{Overflow: SaturateKeepInf}, 0x7BFF},
		{math.Inf(-1), Mode{Overflow: SaturateKeepInf}, 0xFC00},
		{math.Inf(-1), Mode{}, 0xFBFF},
		{1e6, Mode{Overflow: NoSaturate}, 0x7C00},
		{1e6, Mode{Round: TowardZero, Overflow: NoSaturate}, 0x7BFF},
		{1 + 0x1p-11, Mode{Round: AwayFromZero}, 0x3C01},
	} {
		got, err := FP16.EncodeMode(c.x, c.m, 0)
		require.NoError(t, err)
		assert.Equal(t, c.want, got, "%g %+v", c.x, c.m)
	}
	c, err := FP16.EncodeMode(math.Copysign(math.NaN(), -1), Mode{}, 0)
	require.NoError(t, err)
	assert.Equal(t, uint16(0xFE00), c, "NaN keeps its sign")
	_, err = FP16.EncodeMode(1, Mode{Round: Stochastic}, 0)
	assert.ErrorIs(t, err, ErrInvalidMode)
	_, err = (*Wide)(nil).EncodeMode(1, Mode{}, 0)
	assert.ErrorIs(t, err, ErrInvalidFormat)
}
