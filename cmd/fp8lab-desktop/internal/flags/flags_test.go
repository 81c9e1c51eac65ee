package flags

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/viz"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		exit     bool
		stdout   string // substring; "" means empty
		stderr   string
		validate func(t *testing.T, o Options)
	}{
		{name: "help", args: []string{"--help"}, code: 0, exit: true, stdout: "Usage: fp8lab-desktop"},
		{name: "-h", args: []string{"-h"}, code: 0, exit: true, stdout: "--scene"},
		{name: "unknown flag", args: []string{"--bogus"}, code: 2, exit: true, stderr: "flag provided but not defined: -bogus"},
		{name: "bad width", args: []string{"--width", "wide"}, code: 2, exit: true, stderr: "invalid value \"wide\" for flag -width"},
		{name: "zero height", args: []string{"--height", "0"}, code: 2, exit: true, stderr: "must be positive"},
		{name: "unknown scene", args: []string{"--scene", "nosuch"}, code: 2, exit: true, stderr: "nosuch"},
		{name: "bad param", args: []string{"--param", "novalue"}, code: 2, exit: true, stderr: "want name=value"},
		{name: "stray argument", args: []string{"explorer"}, code: 2, exit: true, stderr: `unexpected argument "explorer"`},
		{name: "valid", args: []string{"--scene", viz.Names()[len(viz.Names())-1], "--param", "a=1", "--param", "b=2", "--hide-panel", "--width", "800"},
			validate: func(t *testing.T, o Options) {
				assert.Equal(t, viz.Names()[len(viz.Names())-1], o.Scene)
				assert.True(t, o.SceneSet)
				assert.True(t, o.HidePanel)
				assert.Equal(t, 800, o.Width)
				assert.Equal(t, 800, o.Height, "default")
				assert.Equal(t, []string{"a", "b"}, o.SortedParams())
			}},
		{name: "defaults", args: nil, validate: func(t *testing.T, o Options) {
			assert.Equal(t, "explorer", o.Scene)
			assert.False(t, o.SceneSet)
			assert.Empty(t, o.Params)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			o, code, exit := Parse(tc.args, &out, &errb)
			assert.Equal(t, tc.code, code)
			require.Equal(t, tc.exit, exit, "stderr: %s", errb.String())
			if tc.stdout == "" {
				assert.Empty(t, out.String())
			} else {
				assert.Contains(t, out.String(), tc.stdout)
			}
			if tc.stderr == "" {
				assert.Empty(t, errb.String())
			} else {
				assert.Contains(t, errb.String(), tc.stderr)
				assert.Contains(t, errb.String(), "Usage: fp8lab-desktop", "a wrong command line shows the usage")
			}
			if tc.validate != nil {
				tc.validate(t, o)
			}
		})
	}
}

// The usage lists every scene and no hidden flag.
func TestUsage(t *testing.T) {
	var out bytes.Buffer
	_, _, _ = Parse([]string{"--help"}, &out, &bytes.Buffer{})
	for _, n := range viz.Names() {
		assert.Contains(t, out.String(), n)
	}
	assert.NotContains(t, out.String(), "selftest")
	assert.Equal(t, 1, strings.Count(out.String(), "Usage:"))
}

func TestNoDisplay(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	assert.Contains(t, NoDisplay("linux", env(nil)), "DISPLAY is not set")
	assert.Contains(t, NoDisplay("freebsd", env(map[string]string{"WAYLAND_DISPLAY": "wayland-0"})), "DISPLAY is not set", "ebiten uses X11")
	assert.Empty(t, NoDisplay("linux", env(map[string]string{"DISPLAY": ":0"})))
	assert.Empty(t, NoDisplay("darwin", env(nil)))
	assert.Empty(t, NoDisplay("windows", env(nil)))
}
