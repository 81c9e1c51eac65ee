//go:build unix

package tensorio

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/scaling"
)

// Issue 26 item 5: a named pipe, given or named by an index, is refused at
// once (it used to block in open, waiting for a writer).
func TestNamedPipeRefusedAtOnce(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.safetensors")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	ip := filepath.Join(dir, "model.safetensors.index.json")
	require.NoError(t, os.WriteFile(ip, []byte(`{"weight_map": {"a": "fifo.safetensors"}}`), 0o644))
	for _, open := range []func() error{
		func() error { _, err := ReadFile(fifo, Limits{}); return err },
		func() error { _, c, err := OpenFile(fifo, Limits{}); c(); return err },
		func() error { _, c, err := OpenFile(ip, Limits{}); c(); return err },
	} {
		start := time.Now()
		err := open()
		assert.Less(t, time.Since(start), time.Second)
		require.ErrorIs(t, err, ErrNotFile)
		assert.ErrorContains(t, err, fifo+" is a named pipe, not a regular file")
	}
}

// Issue 26 item 7: a shard that is a symbolic link out of the index's
// folder is refused like "../" is, and a shard that is not a safetensors
// file is refused without a word of its content (scanning an index with
// pw.safetensors -> /etc/passwd printed a line of it).
func TestShardStaysInTheFolderAndUnquoted(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "model")
	require.NoError(t, os.Mkdir(dir, 0o755))
	writeShards(t, dir)
	secret := filepath.Join(top, "passwd")
	const content = "daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
	require.NoError(t, os.WriteFile(secret, []byte(content), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.safetensors"), []byte(content), 0o644))
	require.NoError(t, os.Symlink(secret, filepath.Join(dir, "pw.safetensors")))
	require.NoError(t, os.Symlink("model-00001-of-00002.safetensors", filepath.Join(dir, "in.safetensors")))
	ip := filepath.Join(dir, "model.safetensors.index.json")
	index := func(shard string) {
		require.NoError(t, os.WriteFile(ip, []byte(`{"weight_map": {"a": "`+shard+`"}}`), 0o644))
	}

	index("in.safetensors") // a link within the folder is followed
	as, closeFiles, err := OpenFile(ip, Limits{})
	require.NoError(t, err)
	closeFiles()
	require.Len(t, as, 1)

	for shard, want := range map[string]string{
		"pw.safetensors":    filepath.Join(dir, "pw.safetensors") + " leaves the folder " + dir,
		"notes.safetensors": "shard notes.safetensors is not a safetensors file",
		"../passwd":         `shard "../passwd" is not a file beside the index`,
	} {
		index(shard)
		_, closeFiles, err := OpenFile(ip, Limits{})
		closeFiles()
		require.Error(t, err, shard)
		assert.ErrorContains(t, err, want)
		assert.NotContains(t, err.Error(), "daemon", "the error quotes the file")
		if shard == "notes.safetensors" {
			assert.ErrorIs(t, err, scaling.ErrParse)
		}
	}
}
