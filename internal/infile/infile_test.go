//go:build unix

package infile

import (
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpenRefusesWhatIsNotAFile: a folder, a named pipe, a socket and a
// device are refused at once, each named; a pipe never blocks.
func TestOpenRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	sock := filepath.Join(dir, "sock")
	ln, err := net.Listen("unix", sock)
	require.NoError(t, err)
	defer ln.Close()
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink("fifo", link))
	for path, what := range map[string]string{dir: "a directory", fifo: "a named pipe", link: "a named pipe", sock: "a socket", os.DevNull: "a device"} {
		start := time.Now()
		_, _, err := Open(path, Corpus)
		assert.Less(t, time.Since(start), time.Second, path)
		require.ErrorIs(t, err, ErrNotFile, path)
		assert.EqualError(t, err, path+" is "+what+", not a regular file")
		_, err = ReadFile(path, Recipe)
		assert.ErrorIs(t, err, ErrNotFile, path)
		_, _, err = OpenIn(dir, filepath.Base(path), Recipe)
		if path != dir && path != os.DevNull {
			assert.ErrorIs(t, err, ErrNotFile, path)
		}
	}
}

// TestSizeLimit: a file over its kind's limit is refused before it is
// read, with the size, the limit and the kind; one at the limit is read.
func TestSizeLimit(t *testing.T) {
	dir := t.TempDir()
	k := Kind{Name: "test file", Max: 10}
	at := filepath.Join(dir, "at")
	over := filepath.Join(dir, "over")
	require.NoError(t, os.WriteFile(at, []byte("0123456789"), 0o644))
	require.NoError(t, os.WriteFile(over, []byte("0123456789x"), 0o644))
	b, err := ReadFile(at, k)
	require.NoError(t, err)
	assert.Equal(t, "0123456789", string(b))
	_, err = ReadFile(over, k)
	require.ErrorIs(t, err, ErrTooLarge)
	assert.EqualError(t, err, over+": 11 bytes, over the limit of 10 bytes (test file)")
	_, _, err = Open(over, k)
	assert.ErrorIs(t, err, ErrTooLarge)
	_, _, err = OpenIn(dir, "over", k)
	assert.ErrorIs(t, err, ErrTooLarge)
	b, err = ReadFile(over, Kind{Name: "unbounded"})
	require.NoError(t, err)
	assert.Len(t, b, 11)
}

// TestReadFileStopsAtTheLimit: a file whose size says nothing of its
// content (as in /proc) is read up to the limit, not further.
func TestReadFileStopsAtTheLimit(t *testing.T) {
	const p = "/proc/self/maps"
	st, err := os.Stat(p)
	if err != nil || st.Size() != 0 {
		t.Skip("no /proc/self/maps of size 0 here")
	}
	_, err = ReadFile(p, Kind{Name: "test file", Max: 16})
	require.ErrorIs(t, err, ErrTooLarge)
	assert.EqualError(t, err, p+": more than 16 bytes, over the limit of 16 bytes (test file)")
}

// TestOpenInStaysInTheFolder: links within the folder are followed; a
// link out of it (to a file, or through a linked folder), "..", and an
// absolute name are refused with ErrOutside, without reading the file.
func TestOpenInStaysInTheFolder(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "model")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	secret := filepath.Join(top, "secret")
	require.NoError(t, os.WriteFile(secret, []byte("secret"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sub", "a"), []byte("a"), 0o644))
	for link, target := range map[string]string{"in": "sub/a", "up": "../secret", "abs": secret, "outdir": top} {
		require.NoError(t, os.Symlink(target, filepath.Join(dir, link)))
	}
	for _, name := range []string{"sub/a", "in", "sub/../in"} {
		f, size, err := OpenIn(dir, name, Recipe)
		require.NoError(t, err, name)
		assert.Equal(t, int64(1), size)
		f.Close()
	}
	for _, name := range []string{"up", "abs", "outdir/secret", "../secret", secret, "sub/../../secret"} {
		_, _, err := OpenIn(dir, name, Recipe)
		require.ErrorIs(t, err, ErrOutside, name)
		assert.Contains(t, err.Error(), "leaves the folder "+dir, name)
		assert.NotContains(t, err.Error(), "secret\n")
	}
	_, _, err := OpenIn(dir, "missing", Recipe)
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.Contains(t, err.Error(), filepath.Join(dir, "missing"))
}
