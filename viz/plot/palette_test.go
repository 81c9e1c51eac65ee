package plot

import (
	"image/color"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOkabeIto(t *testing.T) {
	// Published values (Okabe & Ito 2008).
	want := map[string]uint32{
		"black": 0x000000, "orange": 0xE69F00, "sky blue": 0x56B4E9, "bluish green": 0x009E73,
		"yellow": 0xF0E442, "blue": 0x0072B2, "vermillion": 0xD55E00, "reddish purple": 0xCC79A7,
	}
	for _, nc := range OkabeIto {
		v, ok := want[nc.Name]
		require.True(t, ok, nc.Name)
		assert.Equal(t, Hex(v), nc.Color, nc.Name)
	}
	seen := map[color.RGBA]bool{}
	for i := range 8 {
		seen[Categorical(i)] = true
	}
	assert.Len(t, seen, 8)
	assert.Equal(t, Categorical(0), Categorical(8))
	assert.Equal(t, Categorical(3), Categorical(-3))
	assert.NotPanics(t, func() { Categorical(math.MinInt) })
}

func TestViridisMatchesPublishedTable(t *testing.T) {
	// Entries of matplotlib's 256-entry viridis table, independent of the
	// control points (most are not control points).
	ref := map[int]uint32{0: 0x440154, 64: 0x3b528b, 127: 0x21908d, 128: 0x21918c, 191: 0x5cc863, 255: 0xfde725}
	for i, v := range ref {
		got := Viridis.At(float64(i) / 255)
		w := Hex(v)
		assert.InDelta(t, w.R, got.R, 1, "entry %d", i)
		assert.InDelta(t, w.G, got.G, 1, "entry %d", i)
		assert.InDelta(t, w.B, got.B, 1, "entry %d", i)
	}
	assert.Equal(t, Hex(0x440154), Viridis.At(-1), "clamped")
	assert.Equal(t, Hex(0xfde725), Viridis.At(2))
	assert.Equal(t, NaNColor, Viridis.At(math.NaN()))
	assert.Equal(t, "viridis", Viridis.Name())
}

func TestDivergingMap(t *testing.T) {
	assert.Equal(t, Hex(0xf7f7f7), BlueWhiteRed.At(0.5))
	lo, hi := BlueWhiteRed.At(0), BlueWhiteRed.At(1)
	assert.Greater(t, lo.B, lo.R, "negative end is blue")
	assert.Greater(t, hi.R, hi.B, "positive end is red")
	lut := BlueWhiteRed.LUT()
	require.Len(t, lut, lutMax+1)
	assert.Equal(t, BlueWhiteRed.At(0.5), lut[BlueWhiteRed.Index(0.5)])
	assert.Equal(t, -1, BlueWhiteRed.Index(math.NaN()))
	assert.Equal(t, 0, BlueWhiteRed.Index(-3))
	assert.Equal(t, lutMax, BlueWhiteRed.Index(3))
	assert.Equal(t, Black, Grays.At(0))
	assert.Equal(t, white, Grays.At(1))
}

func TestColorHelpers(t *testing.T) {
	assert.Equal(t, color.RGBA{0x80, 0, 0, 0x80}, WithAlpha(color.RGBA{0xff, 0, 0, 0xff}, 0x80))
	assert.Equal(t, color.RGBA{}, WithAlpha(Blue, 0))
	assert.Equal(t, Blue, WithAlpha(Blue, 0xff))
	assert.Equal(t, color.RGBA{0x80, 0x80, 0x80, 0xff}, Mix(Black, white, 0.5))
	assert.Equal(t, Black, Mix(Black, white, math.NaN()))
	_, err := NewColorMap("one", []color.RGBA{Black})
	assert.ErrorIs(t, err, ErrEmptyData)
	m, err := NewColorMap("bw", []color.RGBA{Black, white})
	require.NoError(t, err)
	assert.Equal(t, []color.RGBA{Black, white}, m.Stops())
}
