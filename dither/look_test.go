package dither

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/stretchr/testify/require"
)

var lookDir = flag.String("look", "", "write the mystery image and every method's 2-level output as PNGs into this folder")

// TestWriteLookImages writes the pictures a person should look at after
// changing the mystery image or a method: go test -run Look -look /tmp.
func TestWriteLookImages(t *testing.T) {
	if *lookDir == "" {
		t.Skip("set -look DIR to write the images")
	}
	const size = 256
	img, err := Mystery(size, size)
	require.NoError(t, err)
	write := func(name string, g *Gray) {
		f, err := os.Create(filepath.Join(*lookDir, "dither-"+name+".png"))
		require.NoError(t, err)
		defer f.Close()
		require.NoError(t, g.EncodePNG(f))
	}
	write("mystery", img)
	for _, m := range Methods() {
		out, err := Dither(img, Options{Method: m, Levels: 2, Seed: 1})
		require.NoError(t, err)
		write(m.String()+"-2", out)
		out, err = Dither(img, Options{Method: m, Format: fp8.E2M1, Seed: 1})
		require.NoError(t, err)
		write(m.String()+"-E2M1", out)
	}
	for _, n := range []int{4, 16, 64} {
		out, err := Dither(img, Options{Method: Stochastic, Levels: 2, Seed: 1, Frames: n})
		require.NoError(t, err)
		write(fmt.Sprintf("stochastic-2-avg%d", n), out)
	}
}
