package plot

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func labelled(ticks []Tick) (vals []float64, labels []string) {
	for _, t := range ticks {
		if !t.Minor {
			vals = append(vals, t.Value)
			labels = append(labels, t.Label)
		}
	}
	return vals, labels
}

func TestLinearScaleRoundTrip(t *testing.T) {
	s, err := NewLinear(-448, 448)
	require.NoError(t, err)
	fitted := s.WithRange(100.5, 899.5)
	assert.InDelta(t, 100.5, fitted.Map(-448), 1e-12)
	assert.InDelta(t, 899.5, fitted.Map(448), 1e-12)
	assert.InDelta(t, 500, fitted.Map(0), 1e-12)
	for _, v := range []float64{-448, -1.5, 0, 3.25, 447.9} {
		assert.InDelta(t, v, fitted.Invert(fitted.Map(v)), 1e-9)
	}
	lo, hi := fitted.Domain()
	assert.Equal(t, [2]float64{-448, 448}, [2]float64{lo, hi})
	p0, p1 := fitted.Range()
	assert.Equal(t, [2]float64{100.5, 899.5}, [2]float64{p0, p1})
	// The original is unchanged: scales are values.
	p0, p1 = s.Range()
	assert.Equal(t, [2]float64{0, 1}, [2]float64{p0, p1})

	// A y axis maps lo to the bottom (larger pixel y).
	y := s.WithRange(500, 100)
	assert.Greater(t, y.Map(-1), y.Map(1))
}

func TestLinearScaleTicksFollowPixelLength(t *testing.T) {
	s, err := NewLinear(0, 448)
	require.NoError(t, err)
	wide, _ := labelled(s.WithRange(0, 700).Ticks()) // 10 ticks fit
	assert.Equal(t, []float64{0, 50, 100, 150, 200, 250, 300, 350, 400}, wide)
	narrow, labels := labelled(s.WithRange(0, 420).Ticks()) // 6 fit
	assert.Equal(t, []float64{0, 100, 200, 300, 400}, narrow)
	assert.Equal(t, []string{"0", "100", "200", "300", "400"}, labels)
	fixed, _ := labelled(s.WithTickCount(3).WithRange(0, 700).(LinearScale).Ticks())
	assert.Equal(t, []float64{0, 200, 400}, fixed)

	custom := s.WithFormat(func(v float64) string { return "x" }).WithRange(0, 420).Ticks()
	require.NotEmpty(t, custom)
	assert.Equal(t, "x", custom[0].Label)
}

func TestLinearScaleErrors(t *testing.T) {
	for _, d := range [][2]float64{{1, 1}, {math.NaN(), 1}, {0, math.Inf(1)}, {-math.MaxFloat64, math.MaxFloat64}} {
		_, err := NewLinear(d[0], d[1])
		assert.ErrorIs(t, err, ErrBadDomain, "%v", d)
	}
}

func TestLog2ScaleTicksAreIntegerExponents(t *testing.T) {
	s, err := NewLog2(math.Exp2(-9), math.Exp2(9))
	require.NoError(t, err)
	ticks := s.WithRange(0, 1000).Ticks()
	vals, labels := labelled(ticks)
	require.Len(t, vals, 19)
	for i, v := range vals {
		e := i - 9
		assert.Equal(t, math.Exp2(float64(e)), v)
		assert.Equal(t, FormatPow2(e), labels[i])
	}
	assert.Equal(t, "2⁻⁹", labels[0])
	assert.Equal(t, "2⁰", labels[9])

	// On a short axis every other exponent is labelled; the rest become
	// minor ticks, so every integer exponent still has a tick.
	short := s.WithRange(0, 300).Ticks()
	require.Len(t, short, 19)
	vals, labels = labelled(short)
	require.Greater(t, len(vals), 2)
	assert.Less(t, len(vals), 19)
	stride := int(math.Log2(vals[1]) - math.Log2(vals[0]))
	assert.Greater(t, stride, 1)
	for i, v := range vals {
		e := int(math.Log2(v))
		assert.Zero(t, floorMod(e, stride), "labelled exponent %d", e)
		assert.Equal(t, FormatPow2(e), labels[i])
	}
}

func TestLog2ScaleE8M0RangeIsBounded(t *testing.T) {
	s, err := NewLog2(math.Exp2(-127), math.Exp2(127))
	require.NoError(t, err)
	ticks := s.WithRange(0, 1000).Ticks()
	vals, _ := labelled(ticks)
	assert.LessOrEqual(t, len(vals), 24)
	assert.LessOrEqual(t, len(ticks), 255)
	assert.Contains(t, vals, 1.0)
}

func TestLogScaleRoundTrip(t *testing.T) {
	for _, mk := range []func(lo, hi float64) (LogScale, error){NewLog2, NewLog10} {
		s, err := mk(1e-3, 1e4)
		require.NoError(t, err)
		f := s.WithRange(10, 710)
		assert.InDelta(t, 10, f.Map(1e-3), 1e-9)
		assert.InDelta(t, 710, f.Map(1e4), 1e-9)
		for _, v := range []float64{1e-3, 0.0123, 1, 448, 9999} {
			assert.InDelta(t, v, f.Invert(f.Map(v)), v*1e-12)
		}
		assert.True(t, math.IsNaN(f.Map(0)))
		assert.True(t, math.IsNaN(f.Map(-1)))
		assert.True(t, math.IsNaN(f.Map(math.NaN())))
	}
}

func TestLog10ScaleDecadesAndMinorTicks(t *testing.T) {
	s, err := NewLog10(1e-3, 1e3)
	require.NoError(t, err)
	ticks := s.WithRange(0, 600).Ticks()
	vals, labels := labelled(ticks)
	assert.Equal(t, []string{"10⁻³", "10⁻²", "10⁻¹", "10⁰", "10¹", "10²", "10³"}, labels)
	for i, v := range vals {
		assert.InDelta(t, math.Pow(10, float64(i-3)), v, 1e-15*math.Pow(10, float64(i-3))+1e-18)
	}
	minor := 0
	for _, tk := range ticks {
		if tk.Minor {
			minor++
			assert.Empty(t, tk.Label)
		}
	}
	assert.Equal(t, 6*8, minor) // 2..9 in each of six decades
}

func TestLogScaleWithoutPowersFallsBackToLinear(t *testing.T) {
	s, err := NewLog10(2, 7)
	require.NoError(t, err)
	vals, labels := labelled(s.WithRange(0, 400).Ticks())
	require.NotEmpty(t, vals)
	for i, v := range vals {
		assert.True(t, v >= 2 && v <= 7)
		assert.Equal(t, FormatTick(v, 0), labels[i])
	}
}

func TestLogScaleErrors(t *testing.T) {
	for _, d := range [][2]float64{{0, 1}, {-1, 1}, {1, 1}, {1, math.Inf(1)}, {math.NaN(), 2}} {
		_, err := NewLog2(d[0], d[1])
		assert.ErrorIs(t, err, ErrBadDomain, "%v", d)
		_, err = NewLog10(d[0], d[1])
		assert.ErrorIs(t, err, ErrBadDomain, "%v", d)
	}
}

func TestBandScale(t *testing.T) {
	s, err := NewBand([]string{"tensor", "row", "1x128", "128x128"})
	require.NoError(t, err)
	f := s.WithRange(0, 400).(BandScale)
	assert.Equal(t, 4, f.Len())
	assert.InDelta(t, 100, f.Step(), 1e-12)
	assert.InDelta(t, 50, f.Map(0), 1e-12)
	assert.InDelta(t, 350, f.Map(3), 1e-12)
	assert.InDelta(t, 2.25, f.Invert(f.Map(2.25)), 1e-12)
	lo, hi := f.Domain()
	assert.Equal(t, [2]float64{-0.5, 3.5}, [2]float64{lo, hi})
	ticks := f.Ticks()
	require.Len(t, ticks, 4)
	assert.Equal(t, Tick{Value: 2, Label: "1x128"}, ticks[2])

	_, err = NewBand(nil)
	assert.ErrorIs(t, err, ErrEmptyData)
}
