package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDitheringRecoversThePicture(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	entries, err := run(&out, dir, 128)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(entries), 7)
	require.Equal(t, "nearest", entries[0].Name)
	nearest := entries[0]
	for _, e := range entries[1:] {
		// Seen from a distance, every dithering method beats nearest.
		assert.Greater(t, e.BlurredPSNR, nearest.BlurredPSNR+3, e.Name)
	}
	// Averaged stochastic frames beat nearest even pixel by pixel.
	last := entries[len(entries)-1]
	assert.Greater(t, last.PSNR, nearest.PSNR+5)
	// Every PNG was written and decodes at the requested size.
	for _, name := range append([]string{"mystery.png"}, entries[0].File, last.File) {
		f, err := os.Open(filepath.Join(dir, name))
		require.NoError(t, err)
		img, err := png.Decode(f)
		require.NoError(t, f.Close())
		require.NoError(t, err, name)
		assert.Equal(t, 128, img.Bounds().Dx(), name)
	}
}

// TestReadmeShowsTheRealOutput keeps the README's output block equal to what
// `go run ./examples/dither -out examples/dither/images` prints (at the
// default size, 256; the PNGs go to a temporary folder here).
func TestReadmeShowsTheRealOutput(t *testing.T) {
	var out bytes.Buffer
	dir := t.TempDir()
	_, err := run(&out, dir, 256)
	require.NoError(t, err)
	const cmd = "go run ./examples/dither -out examples/dither/images"
	testenv.ReadmeOutput(t, cmd, strings.ReplaceAll(out.String(), dir, "examples/dither/images"))
}
