package dither

import (
	"bytes"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const mysteryGolden = "testdata/mystery-128.png"

// TestMysteryGolden compares the 128×128 mystery image with the golden PNG.
// Floating-point libraries may differ in the last bit across platforms (and
// the compiler may fuse multiply-adds on some), so a pixel may differ by one
// 8-bit level; anything more, or more than 0.5% of the pixels, fails.
// Regenerate with: go test ./dither -run MysteryGolden -update
func TestMysteryGolden(t *testing.T) {
	img, err := Mystery(128, 128)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, img.EncodePNG(&buf))
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(mysteryGolden), 0o755))
		require.NoError(t, os.WriteFile(mysteryGolden, buf.Bytes(), 0o644))
	}
	f, err := os.Open(mysteryGolden)
	require.NoError(t, err, "run with -update to create it")
	defer f.Close()
	want, err := png.Decode(f)
	require.NoError(t, err)
	got := img.ToImage()
	require.Equal(t, want.Bounds(), got.Bounds())
	off := 0
	for y := 0; y < 128; y++ {
		for x := 0; x < 128; x++ {
			w, _, _, _ := want.At(x, y).RGBA()
			g := int(got.GrayAt(x, y).Y)
			d := int(w>>8) - g
			require.LessOrEqual(t, d*d, 1, "pixel (%d, %d): golden %d, got %d", x, y, w>>8, g)
			if d != 0 {
				off++
			}
		}
	}
	assert.LessOrEqual(t, off, 128*128/200)
}

// TestMysteryContent checks the properties the picture is built for: a
// spread of mid-tones, a sky above 1/2 and a floor below it, so that
// rounding to nearest at 2 levels keeps almost nothing of it.
func TestMysteryContent(t *testing.T) {
	img, err := Mystery(96, 96)
	require.NoError(t, err)
	var hist [10]int
	for _, v := range img.Pix() {
		require.GreaterOrEqual(t, v, float32(0))
		require.LessOrEqual(t, v, float32(1))
		hist[min(int(v*10), 9)]++
	}
	for i := 1; i <= 8; i++ {
		assert.Greater(t, hist[i], 0, "tones in [%.1f, %.1f)", float64(i)/10, float64(i+1)/10)
	}
	// Top rows (sky, letters, sun) all above 1/2; bottom rows all below.
	for x := 0; x < 96; x++ {
		for y := 0; y < 20; y++ {
			require.Greater(t, img.At(x, y), float32(0.5), "(%d, %d)", x, y)
		}
		for y := 80; y < 96; y++ {
			require.Less(t, img.At(x, y), float32(0.5), "(%d, %d)", x, y)
		}
	}
	// Nearest at 2 levels: the letters and the sun vanish into white.
	out, err := Dither(img, Options{Levels: 2})
	require.NoError(t, err)
	for x := 0; x < 96; x++ {
		for y := 0; y < 30; y++ {
			require.Equal(t, float32(1), out.At(x, y))
		}
	}
	// Non-square sizes work and keep the scene's proportions.
	wide, err := Mystery(200, 50)
	require.NoError(t, err)
	assert.Equal(t, 200, wide.Width())
	_, err = Mystery(0, 10)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, err = Mystery(MaxMysterySide+1, 1)
	assert.ErrorIs(t, err, ErrInvalidArgument)
}
