//go:build unix

package outfile

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStdout: "-" is standard output, not a file named "-" (issue 12 item 6).
func TestStdout(t *testing.T) {
	t.Chdir(t.TempDir())
	var out bytes.Buffer
	require.NoError(t, Write("-", &out, []byte("png")))
	assert.Equal(t, "png", out.String())
	assert.NoFileExists(t, "-")
	require.NoError(t, Check("-"))
	// "./-" is the way to name a file "-".
	require.NoError(t, Write("./-", &out, []byte("file")))
	assert.FileExists(t, "-")
}

// TestModes: a new file is 0644 less the umask, like os.WriteFile's 0644
// (it was 0600 from os.CreateTemp); an existing file keeps its mode.
func TestModes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes")
	}
	dir := t.TempDir()
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	p := filepath.Join(dir, "new.png")
	require.NoError(t, WriteFile(p, []byte("a")))
	st, err := os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), st.Mode().Perm())

	syscall.Umask(0o077)
	p2 := filepath.Join(dir, "private.png")
	require.NoError(t, WriteFile(p2, []byte("a")))
	st, err = os.Stat(p2)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), "the umask applies")

	require.NoError(t, os.Chmod(p, 0o640))
	require.NoError(t, WriteFile(p, []byte("bb")))
	st, err = os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o640), st.Mode().Perm(), "an existing file keeps its mode")
	got, _ := os.ReadFile(p)
	assert.Equal(t, "bb", string(got))
	assertNoTemp(t, dir)
}

// TestSymlinkWrittenThrough: a link stays a link and its target gets the
// data; chains, relative links and dangling links included.
func TestSymlinkWrittenThrough(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	require.NoError(t, os.Mkdir(sub, 0o755))
	real := filepath.Join(sub, "real.png")
	require.NoError(t, os.WriteFile(real, []byte("old"), 0o600))
	link := filepath.Join(dir, "link.png")
	require.NoError(t, os.Symlink("sub/real.png", link))
	link2 := filepath.Join(dir, "link2.png")
	require.NoError(t, os.Symlink(link, link2))

	require.NoError(t, WriteFile(link2, []byte("new")))
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&os.ModeSymlink, "the link is still a link")
	fi, err = os.Lstat(link2)
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&os.ModeSymlink)
	got, _ := os.ReadFile(real)
	assert.Equal(t, "new", string(got))
	st, _ := os.Stat(real)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())

	dangling := filepath.Join(dir, "dangling.png")
	require.NoError(t, os.Symlink("sub/made.png", dangling))
	require.NoError(t, WriteFile(dangling, []byte("x")))
	got, _ = os.ReadFile(filepath.Join(sub, "made.png"))
	assert.Equal(t, "x", string(got))

	loop := filepath.Join(dir, "loop")
	require.NoError(t, os.Symlink("loop", loop))
	assert.ErrorContains(t, WriteFile(loop, nil), "symbolic links")
	assertNoTemp(t, dir)
	assertNoTemp(t, sub)
}

// TestRefusesSpecialFiles: devices, pipes and directories are never
// replaced, directly or through a link (as root, dither -o /dev/null used to
// replace the device node with a regular file).
func TestRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	targets := []string{dir}
	if _, err := os.Stat("/dev/zero"); err == nil {
		targets = append(targets, "/dev/zero", "/dev/null")
	}
	if runtime.GOOS != "windows" {
		fifo := filepath.Join(dir, "fifo")
		require.NoError(t, syscall.Mkfifo(fifo, 0o644))
		targets = append(targets, fifo)
		link := filepath.Join(dir, "to-null")
		require.NoError(t, os.Symlink("/dev/null", link))
		targets = append(targets, link)
	}
	for _, p := range targets {
		before, err := os.Stat(p)
		require.NoError(t, err)
		err = WriteFile(p, []byte("x"))
		require.Error(t, err, p)
		assert.Contains(t, err.Error(), "not a regular file", p)
		assert.ErrorContains(t, Check(p), "refusing", p)
		after, err := os.Stat(p)
		require.NoError(t, err)
		assert.Equal(t, before.Mode(), after.Mode(), "%s is unchanged", p)
	}
	assert.Error(t, WriteFile(filepath.Join(dir, "missing", "x.png"), nil))
	assert.Error(t, Check(""))
	assertNoTemp(t, dir)
}

// assertNoTemp checks that no temporary file was left behind.
func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*"))
	assert.Empty(t, m)
}
