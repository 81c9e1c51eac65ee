package fp8

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestE8M0NearestUp covers issue 12 item 15: ml_dtypes, PyTorch and ONNX
// round the E8M0 ties 1.5·2^k up, which ScaleNearestUp reproduces, while
// ScaleNearestEven (fp8lab's older "nearest") sends half of them down.
func TestE8M0NearestUp(t *testing.T) {
	enc := func(x float64, r ScaleRounding) uint8 {
		c, err := EncodeE8M0(x, r)
		require.NoError(t, err, "%g %s", x, r)
		return c
	}
	for _, c := range []struct {
		x        float64
		up, even uint8
	}{
		{1.5, 0x80, 0x80}, {3, 0x81, 0x80}, {6, 0x82, 0x82}, {0.75, 0x7F, 0x7E},
		{1.4999999, 0x7F, 0x7F}, {1.5000001, 0x80, 0x80}, {5, 0x81, 0x81}, {7, 0x82, 0x82},
		{0x1.8p-127, 0x01, 0x00}, {0x1p-140, 0x00, 0x00}, {0x1.8p127, 0xFE, 0xFE}, {math.Inf(1), 0xFE, 0xFE},
	} {
		assert.Equal(t, c.up, enc(c.x, ScaleNearestUp), "%g nearest-up", c.x)
		assert.Equal(t, c.even, enc(c.x, ScaleNearestEven), "%g nearest-even", c.x)
	}
	assert.Equal(t, uint8(0xFF), enc(math.NaN(), ScaleNearestUp))
	_, err := EncodeE8M0(0, ScaleNearestUp)
	assert.ErrorIs(t, err, ErrZero)
	_, err = EncodeE8M0(1, ScaleRounding(9))
	assert.ErrorIs(t, err, ErrInvalidMode)
	for name, want := range map[string]ScaleRounding{"floor": ScaleFloor, "ceil": ScaleCeil, "nearest-even": ScaleNearestEven, "nearest-up": ScaleNearestUp, "nearest": ScaleNearestEven} {
		r, err := ParseScaleRounding(name)
		require.NoError(t, err, name)
		assert.Equal(t, want, r, name)
		if name != "nearest" {
			assert.Equal(t, name, r.String())
		}
	}
}

// TestMXScale checks the MX shared scale against torchao's modes by their
// values: ScaleFloor is FLOOR (OCP MX), ScaleCeil is RCEIL (cuBLAS,
// Transformer Engine's MXFP8).
func TestMXScale(t *testing.T) {
	k := func(amax float64, elem *Format, r ScaleRounding) int {
		c, err := MXScale(amax, elem, r)
		require.NoError(t, err)
		e, err := E8M0Exponent(c)
		require.NoError(t, err)
		return e
	}
	// E4M3FN: emax 8, Max 448; FLOOR is floor(log2 amax) - 8, RCEIL the
	// least k with amax <= 448·2^k.
	for _, c := range []struct {
		amax         float64
		floor, rceil int
	}{
		{448, 0, 0},
		{449, 0, 1},
		{256, 0, 0},
		{224, -1, -1},
		{480, 0, 1},
		{511.9, 0, 1},
		{512, 1, 1},
		{1, -8, -8},
		{1e-45, -127, -127},
		{1e300, 127, 127},
	} {
		assert.Equal(t, c.floor, k(c.amax, E4M3FN, ScaleFloor), "%g FLOOR", c.amax)
		assert.Equal(t, c.rceil, k(c.amax, E4M3FN, ScaleCeil), "%g RCEIL", c.amax)
	}
	// The nearest rules round amax/Max = 1/448 = 2^-8.807 to 2^-9.
	assert.Equal(t, -9, k(1, E4M3FN, ScaleNearestEven))
	assert.Equal(t, -9, k(1, E4M3FN, ScaleNearestUp))
	assert.Equal(t, 0, k(6, E2M1, ScaleFloor), "E2M1 emax is 2, 6 in [4, 8)")
	assert.Equal(t, 0, k(7, E2M1, ScaleFloor), "7 saturates to 6")
	assert.Equal(t, 0, k(6, E2M1, ScaleCeil))
	assert.Equal(t, 1, k(6.5, E2M1, ScaleCeil))
	assert.Equal(t, 1, k(40, E3M2, ScaleFloor), "E3M2 emax is 4")
	assert.Equal(t, -4, k(0.3, E2M3, ScaleFloor), "E2M3 emax is 2")
	assert.Equal(t, 118, k(0x1p120, E2M1, ScaleFloor))
	c, err := MXScale(0, E5M2, ScaleCeil)
	require.NoError(t, err)
	assert.Equal(t, uint8(0x00), c, "all-zero block")
	for _, a := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		c, err = MXScale(a, E5M2, ScaleFloor)
		require.NoError(t, err)
		assert.Equal(t, uint8(0xFF), c, "%g", a)
	}
	_, err = MXScale(-1, E5M2, ScaleFloor)
	assert.ErrorIs(t, err, ErrNegative)
	_, err = MXScale(1, nil, ScaleFloor)
	assert.ErrorIs(t, err, ErrInvalidFormat)
	_, err = MXScale(1, E5M2, ScaleRounding(7))
	assert.ErrorIs(t, err, ErrInvalidMode)
}
