package xvfbtest

import (
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/fp8lab/fp8lab/viz"
)

// TestDesktopUnderXvfb runs every scene of the desktop app for a few dozen
// frames under a virtual X server with synthetic clicks and keys; the
// binary reads the screen back and checks it is not blank and changes when
// a control changes. Without xvfb-run the test skips, unless CI=true.
func TestDesktopUnderXvfb(t *testing.T) {
	xvfb, err := exec.LookPath("xvfb-run")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("xvfb-run is missing; install xvfb (scripts/install-deps.sh)")
		}
		t.Skip("xvfb-run is missing: install xvfb (and the X11/GL packages of scripts/install-deps.sh) to run the desktop app's self-test")
	}
	if !testenv.Long() && !testenv.InCI() {
		t.Skip("long test (builds the ebiten binary and runs it under xvfb): runs with FP8LAB_LONG=1 or CI=true")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "fp8lab-desktop")
	build := exec.Command("go", "build", "-o", bin, "..")
	build.Env = append(os.Environ(), "CGO_ENABLED=1")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "building the desktop app (needs cgo and the X11/GL headers):\n%s", out)
	shots := filepath.Join(dir, "shots")
	run := exec.Command(xvfb, "-a", "-s", "-screen 0 1280x800x24", bin, "--selftest", shots, "--selftest-frames", "40")
	out, err = run.CombinedOutput()
	t.Logf("%s", out)
	require.NoError(t, err, "self-test failed")
	assert.Contains(t, string(out), "selftest: ok")
	for _, name := range viz.Names() {
		suffixes := []string{"-before", ""}
		if s, err := viz.New(name); err == nil {
			if _, ok := s.(viz.Backgrounder); ok {
				suffixes = append(suffixes, "-live") // while training in the background
			}
		}
		for _, suffix := range suffixes {
			path := filepath.Join(shots, name+suffix+".png")
			f, err := os.Open(path)
			require.NoError(t, err, "missing screenshot %s", path)
			img, err := png.Decode(f)
			f.Close()
			require.NoError(t, err, path)
			assert.Equal(t, image.Rect(0, 0, 1280, 800), img.Bounds(), path)
			assert.Greater(t, greyVariance(img), 100.0, "%s looks blank", path)
		}
	}
	if d := os.Getenv("FP8LAB_SCREENSHOTS"); d != "" {
		// Keep the screenshots for a look: FP8LAB_SCREENSHOTS=/some/dir.
		require.NoError(t, os.MkdirAll(d, 0o755))
		entries, err := os.ReadDir(shots)
		require.NoError(t, err)
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(shots, e.Name()))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(d, e.Name()), data, 0o644))
		}
	}
	assert.False(t, strings.Contains(string(out), "FAIL"))
}

func greyVariance(img image.Image) float64 {
	b := img.Bounds()
	var s, s2, n float64
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bb, _ := img.At(x, y).RGBA()
			v := float64(r+g+bb) / 3 / 257
			s += v
			s2 += v * v
			n++
		}
	}
	m := s / n
	return s2/n - m*m
}
