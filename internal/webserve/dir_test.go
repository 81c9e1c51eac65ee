//go:build unix

package webserve

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeTree writes files (slash names) under a new folder.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	return dir
}

// TestOpenDirChecksFirstAndReadsNothing: serve --dir /usr read the whole
// tree into memory before looking for index.html (issue 12 item 5). OpenDir
// looks for the required files first and reads nothing: a sparse 8 GB
// file beside them costs nothing, and a tree without index.html is refused
// at once.
func TestOpenDirChecksFirstAndReadsNothing(t *testing.T) {
	dir := writeTree(t, map[string]string{"index.html": "home", "big/.keep": ""})
	huge, err := os.Create(filepath.Join(dir, "big", "huge.bin"))
	require.NoError(t, err)
	require.NoError(t, huge.Truncate(8<<30))
	require.NoError(t, huge.Close())

	start := time.Now()
	_, err = OpenDir(filepath.Join(dir, "big"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "index.html")
	d, err := OpenDir(dir)
	require.NoError(t, err)
	defer d.Close()
	assert.Less(t, time.Since(start), 5*time.Second)
	_, err = OpenDir(dir, "fp8core.wasm")
	assert.ErrorContains(t, err, "fp8core.wasm")

	// A range of the huge file is served from disk.
	rec := get(t, d, "/big/huge.bin", "Range", "bytes=1000-1009")
	assert.Equal(t, http.StatusPartialContent, rec.Code)
	assert.Equal(t, make([]byte, 10), rec.Body.Bytes())
}

// TestDirServes: the same headers as Site, gzip for text and WebAssembly,
// index.html for folders, and no listings, hidden files, special files or
// escapes through links.
func TestDirServes(t *testing.T) {
	outside := writeTree(t, map[string]string{"secret.txt": "outside"})
	dir := writeTree(t, map[string]string{
		"index.html":      "<!doctype html><title>home</title>",
		"docs/index.html": "docs",
		"scene.html":      "scene",
		"fp8lab.wasm":     string(bigWasm),
		".hidden":         "secret",
		"js/.env":         "secret",
		"js/app.js":       "'use strict';",
	})
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "escape.txt")))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "outdir")))
	require.NoError(t, os.Symlink("js/app.js", filepath.Join(dir, "inside.js")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "pipe.html"), 0o644))
	d, err := OpenDir(dir)
	require.NoError(t, err)
	defer d.Close()

	rec := get(t, d, "/")
	assert.Equal(t, http.StatusOK, rec.Code)
	assert.Equal(t, "text/html; charset=utf-8", rec.Header().Get("Content-Type"))
	assert.Equal(t, CSP, rec.Header().Get("Content-Security-Policy"))
	assert.Contains(t, rec.Body.String(), "<title>home</title>")
	assert.Equal(t, "docs", get(t, d, "/docs/").Body.String())
	assert.Equal(t, "'use strict';", get(t, d, "/inside.js").Body.String(), "links inside the folder work")
	assert.Equal(t, "scene", get(t, d, "/scene").Body.String(), "a page without its .html, as Site serves it")

	for _, p := range []string{"/docs", "/js/", "/.hidden", "/js/.env", "/escape.txt", "/outdir/secret.txt",
		"/../index.html", "/js/../../x", "/pipe.html", "/pipe", "/nothing", "/a\\b"} {
		rec := get(t, d, p)
		assert.Equal(t, http.StatusNotFound, rec.Code, p)
		assert.Equal(t, CSP, rec.Header().Get("Content-Security-Policy"), p)
		assert.NotContains(t, rec.Body.String(), "secret", p)
		assert.NotContains(t, rec.Body.String(), "outside", p)
	}

	rec = get(t, d, "/fp8lab.wasm", "Accept-Encoding", "gzip")
	assert.Equal(t, "application/wasm", rec.Header().Get("Content-Type"))
	assert.Equal(t, "gzip", rec.Header().Get("Content-Encoding"))
	zr, err := gzip.NewReader(bytes.NewReader(rec.Body.Bytes()))
	require.NoError(t, err)
	plain, err := io.ReadAll(zr)
	require.NoError(t, err)
	assert.Equal(t, bigWasm, plain)
	etag := rec.Header().Get("ETag")
	assert.Equal(t, http.StatusNotModified, get(t, d, "/fp8lab.wasm", "Accept-Encoding", "gzip", "If-None-Match", etag).Code)
	rec = get(t, d, "/fp8lab.wasm")
	assert.Empty(t, rec.Header().Get("Content-Encoding"))
	assert.Equal(t, bigWasm, rec.Body.Bytes())

	// A changed file is compressed again.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "fp8lab.wasm"), bytes.Repeat([]byte("changed "), 200), 0o644))
	require.NoError(t, os.Chtimes(filepath.Join(dir, "fp8lab.wasm"), time.Now(), time.Now().Add(time.Hour)))
	rec = get(t, d, "/fp8lab.wasm", "Accept-Encoding", "gzip")
	zr, err = gzip.NewReader(bytes.NewReader(rec.Body.Bytes()))
	require.NoError(t, err)
	plain, _ = io.ReadAll(zr)
	assert.Equal(t, bytes.Repeat([]byte("changed "), 200), plain)
}

// Issue 26 item 5: serve --dir naming a named pipe (or a device, a file)
// is refused at once, naming what it is: opening the pipe waited for a
// writer, after the port was bound, deaf to SIGINT and SIGTERM.
func TestOpenDirRefusesNonFolders(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	file := filepath.Join(dir, "index.html")
	require.NoError(t, os.WriteFile(file, []byte("<p>hi</p>"), 0o644))
	for path, what := range map[string]string{fifo: "a named pipe", os.DevNull: "a device", file: "a regular file"} {
		start := time.Now()
		_, err := OpenDir(path)
		assert.Less(t, time.Since(start), time.Second, path)
		assert.EqualError(t, err, "webserve: "+path+" is "+what+", not a folder")
	}
}
