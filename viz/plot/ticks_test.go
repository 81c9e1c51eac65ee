package plot

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNiceStep(t *testing.T) {
	cases := []struct {
		span   float64
		target int
		want   float64
	}{
		{448, 6, 100},     // 74.7 per tick -> 100
		{448, 10, 50},     // 44.8 -> 50
		{1, 5, 0.2},       // 0.2 exactly
		{1, 10, 0.1},      // 0.1
		{16, 3, 5},        // 5.33 -> 5
		{57344, 6, 10000}, // E5M2 max
		{2.4, 4, 0.5},     // 0.6 -> 0.5
		{3, 2, 2},         // 1.5 -> 2
		{0.003, 3, 0.001},
	}
	for _, c := range cases {
		assert.InDelta(t, c.want, NiceStep(c.span, c.target), c.want*1e-12, "span %g target %d", c.span, c.target)
	}
	assert.Zero(t, NiceStep(0, 5))
	assert.Zero(t, NiceStep(-1, 5))
	assert.Zero(t, NiceStep(math.NaN(), 5))
	assert.Zero(t, NiceStep(math.Inf(1), 5))
	assert.Zero(t, NiceStep(1, 0))
}

func TestLinearTicks(t *testing.T) {
	cases := []struct {
		lo, hi float64
		target int
		want   []float64
	}{
		{0, 448, 6, []float64{0, 100, 200, 300, 400}},
		{0, 448, 10, []float64{0, 50, 100, 150, 200, 250, 300, 350, 400}},
		{448, 0, 6, []float64{0, 100, 200, 300, 400}}, // reversed domain
		{-1.2, 1.2, 4, []float64{-1, -0.5, 0, 0.5, 1}},
		{0, 1, 10, []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1}},
		{0.1, 0.35, 5, []float64{0.1, 0.15, 0.2, 0.25, 0.3, 0.35}},
		{-0.06, 0.06, 3, []float64{-0.05, 0, 0.05}},
		{3, 3, 5, []float64{3}},
	}
	for _, c := range cases {
		got, _, err := LinearTicks(c.lo, c.hi, c.target)
		require.NoError(t, err)
		assert.Equal(t, c.want, got, "[%g, %g] target %d", c.lo, c.hi, c.target)
	}
	// Tick values are exact decimals, with no floating-point residue and no
	// negative zero.
	got, _, err := LinearTicks(-0.3, 0.3, 6)
	require.NoError(t, err)
	for _, v := range got {
		assert.False(t, math.Signbit(v) && v == 0, "negative zero")
	}
	assert.Contains(t, got, 0.3)

	for _, bad := range [][2]float64{{math.NaN(), 1}, {0, math.Inf(1)}, {-math.MaxFloat64, math.MaxFloat64}} {
		_, _, err := LinearTicks(bad[0], bad[1], 5)
		assert.ErrorIs(t, err, ErrBadDomain, "%v", bad)
	}
}

func TestFormatTick(t *testing.T) {
	cases := []struct {
		v, step float64
		want    string
	}{
		{0, 100, "0"},
		{400, 100, "400"},
		{0.30000000000000004, 0.1, "0.3"},
		{0.25, 0.05, "0.25"},
		{1, 0.25, "1"},
		{1.5, 0.25, "1.5"},
		{-0.5, 0.5, "−0.5"},
		{-0.0, 1, "0"},
		{57344, 10000, "57344"},
		{448, 0, "448"},
		{0.1, 0, "0.1"},
		{2e6, 1e6, "2×10⁶"},
		{1e6, 1e6, "10⁶"},
		{1.5e6, 5e5, "1.5×10⁶"},
		{-3e-5, 1e-5, "−3×10⁻⁵"},
		{1e-5, 1e-5, "10⁻⁵"},
		{math.NaN(), 1, "NaN"},
		{math.Inf(1), 1, "∞"},
		{math.Inf(-1), 1, "−∞"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, FormatTick(c.v, c.step), "FormatTick(%g, %g)", c.v, c.step)
	}
}

func TestSuperscriptAndPowers(t *testing.T) {
	assert.Equal(t, "⁰", Superscript(0))
	assert.Equal(t, "¹²³⁴⁵⁶⁷⁸⁹⁰", Superscript(1234567890))
	assert.Equal(t, "⁻¹²⁷", Superscript(-127))
	assert.Equal(t, "2⁻⁹", FormatPow2(-9))
	assert.Equal(t, "2⁹", FormatPow2(9))
	assert.Equal(t, "10⁻³", FormatPow10(-3))
}

func TestExponentStride(t *testing.T) {
	assert.Equal(t, 1, exponentStride(19, 24))
	assert.Equal(t, 2, exponentStride(19, 10))
	assert.Equal(t, 3, exponentStride(27, 9))
	assert.Equal(t, 32, exponentStride(255, 8))
	assert.Equal(t, 0, floorMod(-9, 3))
	assert.Equal(t, 1, floorMod(-8, 3))
	assert.Equal(t, 2, floorMod(5, 3))
}
