//go:build unix

package train

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/internal/cmdline"
	"github.com/fp8lab/fp8lab/internal/infile"
)

// Issue 26 items 4 and 5: a corpus that is a device or a named pipe is
// refused at once (fp8lab train --corpus /dev/zero read until memory ran
// out; a pipe blocked in open), and one over the corpus limit is refused
// before it is read.
func TestReadTextCorpusRefusesNonFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	huge := filepath.Join(dir, "huge.txt")
	f, err := os.Create(huge)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(infile.Corpus.Max+1)) // sparse: no disk space
	require.NoError(t, f.Close())
	for path, want := range map[string]string{
		"/dev/zero": "/dev/zero is a device, not a regular file",
		fifo:        fifo + " is a named pipe, not a regular file",
		huge:        "over the limit of 268435456 bytes (corpus)",
	} {
		start := time.Now()
		_, err := ReadTextCorpus(path)
		assert.Less(t, time.Since(start), time.Second, path)
		require.Error(t, err, path)
		assert.ErrorContains(t, err, want)
	}
}

// Issue 26 item 10: a cap too small for both parts says so, not "no Go
// source" (fp8lab train --corpus-bytes 1).
func TestGoSourceCorpusSmallCap(t *testing.T) {
	goroot := cmdline.GoRoot()
	if _, err := os.Stat(filepath.Join(goroot, "src")); err != nil {
		t.Skipf("no Go source: %v", err)
	}
	_, err := GoSourceCorpus(goroot, 1)
	require.Error(t, err)
	assert.ErrorContains(t, err, "the first 1 bytes of Go source under")
	assert.ErrorContains(t, err, "read more bytes")
	_, err = GoSourceCorpus(filepath.Join(t.TempDir(), "nogo"), 1<<20)
	assert.ErrorContains(t, err, "reading the Go source corpus")
}
