package webserve

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bigWasm is a compressible stand-in for a WebAssembly module.
var bigWasm = append([]byte("\x00asm\x01\x00\x00\x00"), bytes.Repeat([]byte("fp8lab "), 4000)...)

func testSite(t *testing.T) *Site {
	t.Helper()
	base := fstest.MapFS{
		"index.html":      {Data: []byte("<!doctype html><title>home</title>")},
		"style.css":       {Data: []byte(strings.Repeat("body{color:#000}\n", 100))},
		"js/app.js":       {Data: []byte("'use strict';")},
		"docs/index.html": {Data: []byte("docs")},
		".hidden":         {Data: []byte("secret")},
		"logo.png":        {Data: []byte("\x89PNG")},
		"fp8lab.wasm":     {Data: []byte("old")},
	}
	overlay := fstest.MapFS{"fp8lab.wasm": {Data: bigWasm}}
	s, err := New(base, overlay)
	require.NoError(t, err)
	return s
}

func get(t *testing.T, h http.Handler, target string, hdr ...string) *httptest.ResponseRecorder {
	t.Helper()
	// Set the decoded path directly, as the server would after parsing, so
	// that raw "..", "%2f" and control bytes reach the handler unchanged.
	req := httptest.NewRequest(http.MethodGet, "http://x/", nil)
	req.URL.Path = target
	if p, err := url.PathUnescape(target); err == nil {
		req.URL.Path = p
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestMIMETypes(t *testing.T) {
	s := testSite(t)
	for target, want := range map[string]string{
		"/":            "text/html; charset=utf-8",
		"/index.html":  "text/html; charset=utf-8",
		"/style.css":   "text/css; charset=utf-8",
		"/js/app.js":   "text/javascript; charset=utf-8",
		"/fp8lab.wasm": "application/wasm",
		"/logo.png":    "image/png",
		"/docs/":       "text/html; charset=utf-8",
	} {
		rec := get(t, s, target)
		require.Equal(t, http.StatusOK, rec.Code, target)
		assert.Equal(t, want, rec.Header().Get("Content-Type"), target)
		assert.Equal(t, "nosniff", rec.Header().Get("X-Content-Type-Options"), target)
	}
	assert.Equal(t, "application/octet-stream", ContentType("x.bin"))
	assert.Equal(t, "application/wasm", ContentType("A.WASM"))
}

func TestLaterLayerWins(t *testing.T) {
	rec := get(t, testSite(t), "/fp8lab.wasm")
	require.Equal(t, http.StatusOK, rec.Code)
	assert.Equal(t, bigWasm, rec.Body.Bytes())
}

func TestCSPOnEveryResponse(t *testing.T) {
	s := testSite(t)
	for _, target := range []string{"/", "/fp8lab.wasm", "/missing.html", "/../etc/passwd"} {
		rec := get(t, s, target)
		csp := rec.Header().Get("Content-Security-Policy")
		assert.Equal(t, CSP, csp, target)
	}
	for _, directive := range []string{"default-src 'self'", "script-src 'self' 'wasm-unsafe-eval'",
		"style-src 'self'", "frame-ancestors 'self'", "object-src 'none'", "base-uri 'none'"} {
		assert.Contains(t, CSP, directive)
	}
	assert.NotContains(t, CSP, "unsafe-inline")
	assert.NotContains(t, CSP, "https:")
}

func TestTraversalAndUnknownPaths(t *testing.T) {
	s := testSite(t)
	for _, target := range []string{
		"/../index.html", "/js/../index.html", "/./index.html", "//index.html",
		"/..%2findex.html", "/js/..\\index.html", "/.hidden", "/missing", "/js/", "/js",
		"/../../../../etc/passwd", "/index.html/", "/index.html\x00",
	} {
		rec := get(t, s, target)
		assert.Equal(t, http.StatusNotFound, rec.Code, "%q", target)
		assert.NotContains(t, rec.Body.String(), "root:", target)
	}
	// A page is also found without its .html ("/scene?name=window", as
	// worksheets may write it); a name with an extension, or a folder, is not.
	pages, err := New(fstest.MapFS{"index.html": {Data: []byte("home")}, "scene.html": {Data: []byte("<title>scene</title>")},
		"docs/index.html": {Data: []byte("docs")}})
	require.NoError(t, err)
	rec := get(t, pages, "/scene") // the query (?name=window) is not part of the path
	assert.Equal(t, http.StatusOK, rec.Code)
	assert.Contains(t, rec.Body.String(), "<title>scene</title>")
	assert.Equal(t, "text/html; charset=utf-8", rec.Header().Get("Content-Type"))
	assert.Equal(t, http.StatusOK, get(t, pages, "/index").Code)
	for _, target := range []string{"/scene.htm", "/scene/", "/docs", "/missing"} {
		assert.Equal(t, http.StatusNotFound, get(t, pages, target).Code, target)
	}
	// A real server must also answer 404 to a raw traversal request line.
	srv := httptest.NewServer(s)
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, "GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
	require.NoError(t, err)
	reply, err := io.ReadAll(conn)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(reply), "HTTP/1.1 404"), string(reply))
}

func TestMethods(t *testing.T) {
	s := testSite(t)
	req := httptest.NewRequest(http.MethodPost, "/index.html", strings.NewReader("x"))
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	assert.Equal(t, http.StatusMethodNotAllowed, rec.Code)
	req = httptest.NewRequest(http.MethodHead, "/style.css", nil)
	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	assert.Equal(t, http.StatusOK, rec.Code)
	assert.Empty(t, rec.Body.Bytes())
	assert.Equal(t, "1700", rec.Header().Get("Content-Length"))
}

func TestGzip(t *testing.T) {
	s := testSite(t)
	rec := get(t, s, "/fp8lab.wasm", "Accept-Encoding", "br, gzip;q=0.8")
	require.Equal(t, http.StatusOK, rec.Code)
	assert.Equal(t, "gzip", rec.Header().Get("Content-Encoding"))
	assert.Equal(t, "Accept-Encoding", rec.Header().Get("Vary"))
	assert.Less(t, rec.Body.Len(), len(bigWasm)/10)
	zr, err := gzip.NewReader(rec.Body)
	require.NoError(t, err)
	plain, err := io.ReadAll(zr)
	require.NoError(t, err)
	assert.Equal(t, bigWasm, plain)

	for _, ae := range []string{"", "identity", "gzip;q=0", "br", "*;q=0"} {
		rec = get(t, s, "/fp8lab.wasm", "Accept-Encoding", ae)
		assert.Empty(t, rec.Header().Get("Content-Encoding"), ae)
		assert.Equal(t, bigWasm, rec.Body.Bytes(), ae)
	}
	rec = get(t, s, "/fp8lab.wasm", "Accept-Encoding", "*")
	assert.Equal(t, "gzip", rec.Header().Get("Content-Encoding"))
	// Tiny files are not worth compressing.
	rec = get(t, s, "/js/app.js", "Accept-Encoding", "gzip")
	assert.Empty(t, rec.Header().Get("Content-Encoding"))

	raw, gz, ok := s.Size("fp8lab.wasm")
	require.True(t, ok)
	assert.Equal(t, len(bigWasm), raw)
	assert.Positive(t, gz)
	assert.Less(t, gz, raw)
	_, _, ok = s.Size("nope")
	assert.False(t, ok)
}

func TestETag(t *testing.T) {
	s := testSite(t)
	rec := get(t, s, "/style.css")
	etag := rec.Header().Get("ETag")
	require.NotEmpty(t, etag)
	assert.Equal(t, "no-cache", rec.Header().Get("Cache-Control"))
	rec = get(t, s, "/style.css", "If-None-Match", etag)
	assert.Equal(t, http.StatusNotModified, rec.Code)
	assert.Empty(t, rec.Body.Bytes())
	rec = get(t, s, "/style.css", "If-None-Match", `"other"`)
	assert.Equal(t, http.StatusOK, rec.Code)
	assert.NotEqual(t, etag, get(t, s, "/index.html").Header().Get("ETag"))

	// The gzip and identity representations have different validators.
	gz := get(t, s, "/style.css", "Accept-Encoding", "gzip")
	require.Equal(t, "gzip", gz.Header().Get("Content-Encoding"))
	gzTag := gz.Header().Get("ETag")
	assert.NotEqual(t, etag, gzTag)
	assert.Equal(t, http.StatusNotModified, get(t, s, "/style.css", "Accept-Encoding", "gzip", "If-None-Match", gzTag).Code)
	assert.Equal(t, http.StatusOK, get(t, s, "/style.css", "If-None-Match", gzTag).Code)
}

func TestAddFiles(t *testing.T) {
	s := testSite(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "built.wasm")
	require.NoError(t, os.WriteFile(p, []byte("\x00asm"), 0o644))
	require.NoError(t, s.AddFiles(map[string]string{"fp8core.wasm": p}))
	assert.True(t, s.Has("fp8core.wasm"))
	rec := get(t, s, "/fp8core.wasm")
	assert.Equal(t, "\x00asm", rec.Body.String())
	assert.Equal(t, "application/wasm", rec.Header().Get("Content-Type"))
	assert.Error(t, s.AddFiles(map[string]string{"x.wasm": filepath.Join(dir, "missing")}))
	for _, bad := range []string{"../x", "/abs", "a/../b", "", "."} {
		assert.Error(t, s.Add(bad, nil), bad)
	}
}

func TestNewNeedsIndex(t *testing.T) {
	_, err := New(fstest.MapFS{"a.html": {Data: []byte("x")}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "index.html")
	assert.Equal(t, []string{"docs/index.html", "fp8lab.wasm", "index.html", "js/app.js", "logo.png", "style.css"},
		testSite(t).Names())
}

func TestListenTakenPort(t *testing.T) {
	ln, err := Listen("127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	addr := ln.Addr().String()
	_, err = Listen(addr)
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrAddrInUse))
	assert.Contains(t, err.Error(), addr)
	assert.Contains(t, err.Error(), "--addr")

	_, err = Listen("nonsense")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "HOST:PORT")
}

func TestListenBindsLoopback(t *testing.T) {
	ln, err := Listen("127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	tcp := ln.Addr().(*net.TCPAddr)
	assert.True(t, tcp.IP.IsLoopback())
	assert.False(t, Exposed(ln.Addr()))
	assert.Regexp(t, `^http://127\.0\.0\.1:\d+/$`, URL(ln.Addr()))
	assert.Equal(t, "http://127.0.0.1:8080/", URL(&net.TCPAddr{IP: net.IPv4zero, Port: 8080}))
	assert.True(t, Exposed(&net.TCPAddr{IP: net.IPv4zero, Port: 8080}))
	assert.Equal(t, "http://[::1]:9/", URL(&net.TCPAddr{IP: net.IPv6loopback, Port: 9}))
}

func TestServeAndShutdown(t *testing.T) {
	s := testSite(t)
	ln, err := Listen("127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, s) }()
	resp, err := http.Get(URL(ln.Addr()) + "fp8lab.wasm")
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, resp.Body.Close())
	require.NoError(t, err)
	assert.Equal(t, "application/wasm", resp.Header.Get("Content-Type"))
	assert.Equal(t, bigWasm, body) // the client undid the gzip transparently
	assert.True(t, resp.Uncompressed)
	cancel()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after cancel")
	}
	_, err = net.DialTimeout("tcp", ln.Addr().String(), time.Second)
	assert.Error(t, err, "the port is closed after shutdown")
}

func TestExport(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("mine"), 0o644))
	s, err := New(fstest.MapFS{
		"index.html": {Data: []byte("home")},
		"js/a.js":    {Data: []byte("a")},
	})
	require.NoError(t, err)
	require.NoError(t, s.Add("fp8lab.wasm", bigWasm))
	names, err := s.Export(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{"fp8lab.wasm", "index.html", "js/a.js"}, names)
	got, err := os.ReadFile(filepath.Join(dir, "js", "a.js"))
	require.NoError(t, err)
	assert.Equal(t, "a", string(got))
	got, err = os.ReadFile(filepath.Join(dir, "fp8lab.wasm"))
	require.NoError(t, err)
	assert.Equal(t, bigWasm, got)
	got, err = os.ReadFile(filepath.Join(dir, "keep.txt"))
	require.NoError(t, err)
	assert.Equal(t, "mine", string(got))
	left, err := filepath.Glob(filepath.Join(dir, ".fp8lab-*"))
	require.NoError(t, err)
	assert.Empty(t, left, "no temporary files left behind")
}
