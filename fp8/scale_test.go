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

// TestMXScaleModes checks torchao's four MX scale modes by name.
func TestMXScaleModes(t *testing.T) {
	k := func(amax float64, elem *Format, m MXScaleMode) int {
		c, err := MXScale(amax, elem, m)
		require.NoError(t, err)
		e, err := E8M0Exponent(c)
		require.NoError(t, err)
		return e
	}
	// E4M3FN: emax 8, Max 448.
	for _, c := range []struct {
		amax                     float64
		floor, ceil, even, rceil int
	}{
		{448, 0, 1, 0, 0},
		{449, 0, 1, 0, 1},
		{256, 0, 0, 0, 0},
		{224, -1, 0, -1, -1},
		{480, 0, 1, 0, 1},   // 480 = 1.875·256 has 3 mantissa bits: EVEN keeps it
		{496, 0, 1, 1, 1},   // 1.9375·256 rounds (half up) to 2·256 with 3 mantissa bits
		{495.9, 0, 1, 0, 1}, // just below the EVEN threshold
		{1, -8, -8, -8, -8},
		{1e-45, -127, -127, -127, -127},
		{1e300, 127, 127, 127, 127},
	} {
		assert.Equal(t, c.floor, k(c.amax, E4M3FN, MXFloor), "%g FLOOR", c.amax)
		assert.Equal(t, c.ceil, k(c.amax, E4M3FN, MXCeil), "%g CEIL", c.amax)
		assert.Equal(t, c.even, k(c.amax, E4M3FN, MXEven), "%g EVEN", c.amax)
		assert.Equal(t, c.rceil, k(c.amax, E4M3FN, MXRCeil), "%g RCEIL", c.amax)
	}
	assert.Equal(t, 0, k(6, E2M1, MXFloor), "E2M1 emax is 2, 6 in [4, 8)")
	assert.Equal(t, 0, k(6, E2M1, MXRCeil))
	assert.Equal(t, 1, k(6.5, E2M1, MXRCeil))
	c, err := MXScale(0, E5M2, MXRCeil)
	require.NoError(t, err)
	assert.Equal(t, uint8(0x00), c, "all-zero block")
	c, err = MXScale(math.NaN(), E5M2, MXFloor)
	require.NoError(t, err)
	assert.Equal(t, uint8(0xFF), c)
	_, err = MXScale(-1, E5M2, MXFloor)
	assert.ErrorIs(t, err, ErrNegative)
	_, err = MXScale(1, nil, MXFloor)
	assert.ErrorIs(t, err, ErrInvalidFormat)
	_, err = MXScale(1, E5M2, MXScaleMode(7))
	assert.ErrorIs(t, err, ErrInvalidMode)
	for i, n := range []string{"floor", "CEIL", "Even", "RCEIL"} {
		m, err := ParseMXScaleMode(n)
		require.NoError(t, err)
		assert.Equal(t, MXScaleMode(i), m)
	}
	_, err = ParseMXScaleMode("nearest")
	assert.ErrorIs(t, err, ErrInvalidMode)
}
