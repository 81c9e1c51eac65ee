package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"

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
