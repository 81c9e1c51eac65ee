package xvfbtest

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/internal/testenv"
)

// TestFlagsWithoutDisplay runs the real desktop binary, ebiten linked in,
// with DISPLAY unset, as over ssh: --help prints the usage and exits 0, a
// wrong command line exits 2 with the usage, and a valid one says that
// there is no display and exits 1; never a Go stack trace from ebiten's
// init.
func TestFlagsWithoutDisplay(t *testing.T) {
	for _, tool := range []string{"gcc", "pkg-config"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.Missing(t, "the desktop app needs cgo: %s is missing", tool)
		}
	}
	bin := filepath.Join(t.TempDir(), "fp8lab-desktop")
	build := exec.Command("go", "build", "-o", bin, "..")
	build.Env = append(os.Environ(), "CGO_ENABLED=1")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "building the desktop app (needs cgo and the X11/GL headers):\n%s", out)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") {
			env = append(env, kv)
		}
	}
	for _, tc := range []struct {
		args           []string
		code           int
		stdout, stderr string
	}{
		{args: []string{"--help"}, code: 0, stdout: "Usage: fp8lab-desktop"},
		{args: []string{"-h"}, code: 0, stdout: "--scene"},
		{args: []string{"--no-such-flag"}, code: 2, stderr: "Usage: fp8lab-desktop"},
		{args: []string{"--scene", "no-such-scene"}, code: 2, stderr: "no-such-scene"},
		{args: []string{"--width", "wide"}, code: 2, stderr: "Usage: fp8lab-desktop"},
		{args: nil, code: 1, stderr: "DISPLAY is not set"},
	} {
		cmd := exec.Command(bin, tc.args...)
		cmd.Env = env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else {
			require.NoError(t, err)
		}
		assert.Equal(t, tc.code, code, "%v: stderr %s", tc.args, stderr.String())
		if tc.stdout != "" {
			assert.Contains(t, stdout.String(), tc.stdout, "%v", tc.args)
		}
		if tc.stderr != "" {
			assert.Contains(t, stderr.String(), tc.stderr, "%v", tc.args)
		}
		for _, s := range []string{stdout.String(), stderr.String()} {
			assert.NotContains(t, s, "goroutine", "%v: a stack trace", tc.args)
			assert.NotContains(t, s, "panic", "%v", tc.args)
		}
	}
}
