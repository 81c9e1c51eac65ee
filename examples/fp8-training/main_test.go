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

// margin is how far (in nats of mean cross-entropy) the FP8 run with E4M3
// forward, E5M2 gradients and row scaling may end above float32.
const margin = 0.1

func TestFP8TrainingTracksFloat32(t *testing.T) {
	out := filepath.Join(t.TempDir(), "loss.png")
	var buf bytes.Buffer
	curves, err := run(&buf, options{Short: true, PNG: out})
	require.NoError(t, err)
	require.Len(t, curves, 5)
	f32, row := curves[0], curves[3]
	require.Equal(t, "float32", f32.Recipe.Name)
	require.Equal(t, "E4M3 fwd, E5M2 grad, row", row.Recipe.Name)
	require.Len(t, f32.Loss, 300)

	// float32 learns the spirals (chance is ln 2 ≈ 0.69).
	assert.Less(t, f32.Final(), 0.1)
	// The FP8 recipe ends within the stated margin of float32.
	assert.Less(t, row.Final(), f32.Final()+margin)
	for _, c := range curves[1:] {
		// Every FP8 recipe learns too ...
		assert.Less(t, c.Final(), 0.25, c.Recipe.Name)
		// ... and really is simulated: its curve differs from float32's.
		assert.NotEqual(t, f32.Loss[50], c.Loss[50], c.Recipe.Name)
	}
	// Deterministic: the same seeds give the same curve, stochastic
	// rounding included.
	x, labels, err := spirals(400, 1)
	require.NoError(t, err)
	n, err := newNet(32, 7)
	require.NoError(t, err)
	tr := &trainer{r: curves[4].Recipe, seed: 11}
	require.True(t, tr.r.Stochastic)
	for s := 0; s < 20; s++ {
		l, err := tr.step(n, x, labels, 0.01)
		require.NoError(t, err)
		require.Equal(t, curves[4].Loss[s], l, "step %d", s)
	}

	f, err := os.Open(out)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	assert.Equal(t, 1280, img.Bounds().Dx())
}

// TestReadmeShowsTheRealOutput keeps the README's output block equal to what
// `go run ./examples/fp8-training -out examples/fp8-training/loss.png`
// prints (the full run: long).
func TestReadmeShowsTheRealOutput(t *testing.T) {
	testenv.SkipUnlessLong(t, "the README shows the full 1500-step run")
	var out bytes.Buffer
	png := filepath.Join(t.TempDir(), "loss.png")
	_, err := run(&out, options{PNG: png})
	require.NoError(t, err)
	const cmd = "go run ./examples/fp8-training -out examples/fp8-training/loss.png"
	testenv.ReadmeOutput(t, cmd, strings.ReplaceAll(out.String(), png, "examples/fp8-training/loss.png"))
}
