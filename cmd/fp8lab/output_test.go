//go:build unix

package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOutputFilesOneWay: dither and render write their -o files the same
// way (issue 12 item 6): "-" is stdout, a link is written through, mode 0644
// less the umask, devices are refused before any work.
func TestOutputFilesOneWay(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	for _, cmd := range [][]string{
		{"dither", "--size", "64", "-o"},
		{"render", "explorer", "--width", "480", "--height", "270", "-o"},
	} {
		name := cmd[0]
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)

			// "-": the PNG goes to stdout and no file named "-" appears.
			code, out, errOut := cli(t, "", append(cmd, "-")...)
			require.Equal(t, 0, code, errOut)
			_, err := png.Decode(bytes.NewReader([]byte(out)))
			assert.NoError(t, err, "stdout holds the PNG")
			assert.NoFileExists(t, "-")

			// A new file: 0644.
			code, _, errOut = cli(t, "", append(cmd, "new.png")...)
			require.Equal(t, 0, code, errOut)
			st, err := os.Stat("new.png")
			require.NoError(t, err)
			assert.Equal(t, os.FileMode(0o644), st.Mode().Perm())

			// A link: written through, still a link.
			require.NoError(t, os.WriteFile("target.png", nil, 0o600))
			require.NoError(t, os.Symlink("target.png", "link.png"))
			code, _, errOut = cli(t, "", append(cmd, "link.png")...)
			require.Equal(t, 0, code, errOut)
			fi, err := os.Lstat("link.png")
			require.NoError(t, err)
			assert.NotZero(t, fi.Mode()&os.ModeSymlink)
			data, err := os.ReadFile("target.png")
			require.NoError(t, err)
			_, err = png.Decode(bytes.NewReader(data))
			assert.NoError(t, err)
			st, _ = os.Stat("target.png")
			assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), "the existing mode is kept")

			// Devices, pipes and folders are refused.
			fifo := filepath.Join(dir, "fifo")
			require.NoError(t, syscall.Mkfifo(fifo, 0o644))
			for _, bad := range []string{"/dev/null", "/dev/zero", fifo, dir} {
				code, _, errOut = cli(t, "", append(cmd, bad)...)
				assert.Equal(t, 1, code, bad)
				assert.Contains(t, errOut, "not a regular file", bad)
				if bad != dir {
					fi, err := os.Stat(bad)
					require.NoError(t, err)
					assert.False(t, fi.Mode().IsRegular(), "%s was not replaced", bad)
				}
			}
		})
	}
}
