package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/fp8lab/fp8lab/internal/webserve"
)

// syncBuffer is a bytes.Buffer safe for the server goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// fakeExport writes a minimal exported site: the pages are placeholders
// but every file serve --dir requires is there.
func fakeExport(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"index.html":   "<!doctype html><title>fp8lab</title>",
		"canvas.html":  "<!doctype html>",
		"fp8lab.wasm":  "\x00asm\x01\x00\x00\x00" + strings.Repeat("wasm", 2000),
		"fp8core.wasm": "\x00asm\x01\x00\x00\x00",
		"wasm_exec.js": "'use strict';",
		"js/a.js":      "'use strict';",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	return dir
}

// startServe runs `fp8lab serve args...` in the background and returns its
// URL, a function that stops it (like Ctrl+C) and returns the exit status,
// and its output.
func startServe(t *testing.T, args ...string) (string, func() int, *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	oldCtx, oldStarted := serveContext, serveStarted
	urls := make(chan string, 1)
	serveContext = func() (context.Context, context.CancelFunc) { return ctx, cancel }
	serveStarted = func(u string) { urls <- u }
	t.Cleanup(func() { serveContext, serveStarted = oldCtx, oldStarted })

	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	go func() { done <- run(append([]string{"serve"}, args...), strings.NewReader(""), &stdout, &stderr) }()
	select {
	case u := <-urls:
		stop := func() int {
			cancel()
			select {
			case code := <-done:
				return code
			case <-time.After(10 * time.Second):
				t.Fatal("serve did not stop after the signal")
				return -1
			}
		}
		return u, stop, &stdout
	case code := <-done:
		cancel()
		t.Fatalf("serve exited with %d: %s%s", code, stdout.String(), stderr.String())
	case <-time.After(5 * time.Minute):
		cancel()
		t.Fatal("serve did not start")
	}
	return "", nil, nil
}

func TestServeDirOnLoopback(t *testing.T) {
	dir := fakeExport(t)
	u, stop, stdout := startServe(t, "--dir", dir, "--addr", "127.0.0.1:0")
	assert.Regexp(t, `^http://127\.0\.0\.1:\d+/$`, u)
	assert.Contains(t, stdout.String(), "fp8lab playground: "+u)
	assert.NotContains(t, stdout.String(), "warning")

	resp, err := http.Get(u)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, string(body), "<title>fp8lab</title>")
	assert.Equal(t, webserve.CSP, resp.Header.Get("Content-Security-Policy"))
	assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))

	// .wasm: application/wasm, gzip when asked for.
	req, _ := http.NewRequest(http.MethodGet, u+"fp8lab.wasm", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err = http.DefaultTransport.RoundTrip(req)
	require.NoError(t, err)
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, "application/wasm", resp.Header.Get("Content-Type"))
	assert.Equal(t, "gzip", resp.Header.Get("Content-Encoding"))
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	require.NoError(t, err)
	plain, err := io.ReadAll(zr)
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(plain, []byte("\x00asm")))

	// Traversal and unknown files: 404, over a raw connection too.
	for _, p := range []string{"../go.mod", "..%2fgo.mod", "js/../../go.mod", "nothing.html"} {
		conn, err := net.Dial("tcp", strings.TrimPrefix(strings.TrimSuffix(u, "/"), "http://"))
		require.NoError(t, err)
		_, err = io.WriteString(conn, "GET /"+p+" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
		require.NoError(t, err)
		reply, _ := io.ReadAll(conn)
		conn.Close()
		assert.True(t, strings.HasPrefix(string(reply), "HTTP/1.1 404"), "%s: %s", p, reply)
	}

	assert.Equal(t, 0, stop(), "Ctrl+C stops the server cleanly")
	assert.Contains(t, stdout.String(), "stopped")
	_, err = http.Get(u)
	assert.Error(t, err, "nothing listens after the shutdown")
}

func TestServeTakenPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	addr := ln.Addr().String()
	// No --dir: the port is checked before anything is built.
	code, _, errOut := cli(t, "", "serve", "--addr", addr)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, addr)
	assert.Contains(t, errOut, "already in use")
	assert.Contains(t, errOut, "--addr")
}

func TestServeFlags(t *testing.T) {
	code, _, errOut := cli(t, "", "serve", "--addr", "8080")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "HOST:PORT")
	code, _, errOut = cli(t, "", "--addr", "nonsense")
	assert.Equal(t, 2, code, "flags alone select the default command, serve")
	assert.Contains(t, errOut, "fp8lab serve")
	code, _, errOut = cli(t, "", "serve", "extra")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "no arguments")
	code, _, errOut = cli(t, "", "serve", "-h")
	assert.Equal(t, 0, code)
	assert.Contains(t, errOut, webserve.DefaultAddr, "the default address is the loopback one")
	code, out, _ := cli(t, "", "help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "serve")
	assert.Contains(t, out, "site")
}

func TestServeDirMustBeASite(t *testing.T) {
	empty := t.TempDir()
	code, _, errOut := cli(t, "", "serve", "--dir", empty, "--addr", "127.0.0.1:0")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "index.html")
	dir := fakeExport(t)
	require.NoError(t, os.Remove(filepath.Join(dir, "fp8core.wasm")))
	code, _, errOut = cli(t, "", "serve", "--dir", dir, "--addr", "127.0.0.1:0")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "fp8core.wasm")
	assert.Contains(t, errOut, "fp8lab site -o")
}

func TestServeOutsideACheckout(t *testing.T) {
	t.Chdir(t.TempDir())
	code, _, errOut := cli(t, "", "serve", "--addr", "127.0.0.1:0")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "checkout")
	assert.Contains(t, errOut, "--dir")
}

func TestSiteNeedsOutput(t *testing.T) {
	code, _, errOut := cli(t, "", "site")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "-o DIR")
	other := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o644))
	code, _, errOut = cli(t, "", "site", "-o", other)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "not empty")
}

// TestSiteExportAndServe writes the real site (building the WebAssembly
// modules, or taking them from the cache) and serves the folder.
func TestSiteExportAndServe(t *testing.T) {
	testenv.Wasm(t) // build once, with progress on stderr, before timing anything
	dir := filepath.Join(t.TempDir(), "dist")
	code, out, errOut := cli(t, "", "site", "-o", dir)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "wrote ")
	for _, name := range []string{"index.html", "scene.html", "canvas.html", "style.css", "js/fp8lab.js", "js/scene.js",
		"fp8lab.wasm", "fp8core.wasm", "wasm_exec.js"} {
		assert.FileExists(t, filepath.Join(dir, filepath.FromSlash(name)))
	}
	assert.NoFileExists(t, filepath.Join(dir, "complete"), "the cache's stamp is not part of the site")
	wasm, err := os.ReadFile(filepath.Join(dir, "fp8lab.wasm"))
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(wasm, []byte("\x00asm")))

	// Exporting again into the same folder is allowed.
	code, _, errOut = cli(t, "", "site", "-o", dir)
	require.Equal(t, 0, code, errOut)

	u, stop, _ := startServe(t, "--dir", dir, "--addr", "127.0.0.1:0")
	resp, err := http.Get(u + "fp8core.wasm")
	require.NoError(t, err)
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, "application/wasm", resp.Header.Get("Content-Type"))
	want, err := os.ReadFile(filepath.Join(dir, "fp8core.wasm"))
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, 0, stop())
}

// TestServeBuildsFromTheCheckout is `go run ./cmd/fp8lab` with no --dir: it
// builds (or finds) the modules and serves the embedded pages with them.
func TestServeBuildsFromTheCheckout(t *testing.T) {
	testenv.Wasm(t)
	u, stop, _ := startServe(t, "--addr", "127.0.0.1:0")
	for path, ctype := range map[string]string{"": "text/html; charset=utf-8", "scene.html": "text/html; charset=utf-8",
		"js/fp8lab.js": "text/javascript; charset=utf-8", "fp8lab.wasm": "application/wasm", "wasm_exec.js": "text/javascript; charset=utf-8"} {
		resp, err := http.Get(u + path)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, path)
		assert.Equal(t, ctype, resp.Header.Get("Content-Type"), path)
	}
	assert.Equal(t, 0, stop())
}
