// Package webserve serves the fp8lab playground: a fixed set of static files
// held in memory (Site) or a folder read lazily from disk (Dir), each file
// with its MIME type, an ETag, a restrictive Content-Security-Policy and,
// for text and WebAssembly, a gzip copy made once. Only the files it was
// given are served: any other path, including every path-traversal
// attempt, is a 404. Serve adds timeouts and, on a loopback address, a Host
// check against DNS rebinding.
package webserve

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/fp8lab/fp8lab/internal/infile"
)

// CSP is the Content-Security-Policy sent with every response: scripts and
// styles only from the site's own files (no inline code), WebAssembly
// compilation allowed, nothing fetched from anywhere else, and pages framed
// only by the site itself (the scene pages frame canvas.html).
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
	"img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'self'; object-src 'none'; base-uri 'none'"

// mimeTypes maps the extensions the site uses to their Content-Type. Files
// with other extensions are served as application/octet-stream.
var mimeTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".json": "application/json",
	".wasm": "application/wasm",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".ico":  "image/x-icon",
	".txt":  "text/plain; charset=utf-8",
	".md":   "text/markdown; charset=utf-8",
}

// compressible lists the extensions worth a gzip copy.
var compressible = map[string]bool{".html": true, ".css": true, ".js": true, ".mjs": true,
	".json": true, ".wasm": true, ".svg": true, ".txt": true, ".md": true}

// ContentType returns the Content-Type the server sends for a file name.
func ContentType(name string) string {
	if t, ok := mimeTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return "application/octet-stream"
}

// file is one served file with its lazily made gzip copy.
type file struct {
	name  string
	ctype string
	data  []byte
	etag  string

	gzOnce sync.Once
	gz     []byte // nil when compression does not pay
}

// gzipped returns the gzip copy, compressing on first use, or nil when the
// file is not worth compressing.
func (f *file) gzipped() []byte {
	if !compressible[path.Ext(f.name)] || len(f.data) < 512 {
		return nil
	}
	f.gzOnce.Do(func() {
		var b bytes.Buffer
		zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
		if err != nil {
			return
		}
		if _, err := zw.Write(f.data); err != nil {
			return
		}
		if err := zw.Close(); err != nil {
			return
		}
		if b.Len() < len(f.data) {
			f.gz = b.Bytes()
		}
	})
	return f.gz
}

// Site is an http.Handler over an in-memory copy of a set of files. It is
// safe for concurrent use.
type Site struct {
	files map[string]*file
}

// New reads every regular file of the given file systems into memory; a file
// of a later file system replaces one of the same name in an earlier one.
// Names starting with a dot are skipped. It fails when a file cannot be read
// or when there is no index.html.
func New(layers ...fs.FS) (*Site, error) {
	s := &Site{files: map[string]*file{}}
	for _, fsys := range layers {
		if fsys == nil {
			return nil, errors.New("webserve: a nil file system")
		}
		err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if p != "." && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			data, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			return s.Add(p, data)
		})
		if err != nil {
			return nil, fmt.Errorf("webserve: reading the site: %w", err)
		}
	}
	if _, ok := s.files["index.html"]; !ok {
		return nil, errors.New("webserve: the site has no index.html")
	}
	return s, nil
}

// Add serves data as the file name (slash-separated, relative), replacing a
// file of that name. It is not safe to call while serving.
func (s *Site) Add(name string, data []byte) error {
	if s == nil {
		return errors.New("webserve: a nil Site")
	}
	if !fs.ValidPath(name) || name == "." {
		return fmt.Errorf("webserve: invalid file name %q", name)
	}
	if s.files == nil {
		s.files = map[string]*file{}
	}
	sum := sha256.Sum256(data)
	s.files[name] = &file{name: name, ctype: ContentType(name), data: data,
		etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
	return nil
}

// AddFiles reads each file from disk and serves it under its name.
func (s *Site) AddFiles(files map[string]string) error {
	for name, path := range files {
		data, err := infile.ReadFile(path, infile.BuiltFile)
		if err != nil {
			return fmt.Errorf("webserve: %w", err)
		}
		if err := s.Add(name, data); err != nil {
			return err
		}
	}
	return nil
}

// Has reports whether the site serves a file of that name.
func (s *Site) Has(name string) bool {
	if s == nil {
		return false
	}
	_, ok := s.files[name]
	return ok
}

// Names returns the served file names in sorted order.
func (s *Site) Names() []string {
	if s == nil {
		return nil
	}
	names := make([]string, 0, len(s.files))
	for n := range s.files {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Size returns the length of a served file and of its gzip copy (0 when it is
// served uncompressed), or ok false when there is no such file.
func (s *Site) Size(name string) (raw, gzipped int, ok bool) {
	if s == nil {
		return 0, 0, false
	}
	f, ok := s.files[name]
	if !ok {
		return 0, 0, false
	}
	return len(f.data), len(f.gzipped()), true
}

// Warm makes the gzip copies of every compressible file now, so that the
// first request for a large file does not wait for it.
func (s *Site) Warm() {
	if s == nil {
		return
	}
	for _, f := range s.files {
		f.gzipped()
	}
}

// lookup maps a request path to a file: "/" and paths ending in "/" get
// their index.html, and a name without an extension that names no file its
// .html page ("/scene?name=window" is scene.html, as links in worksheets
// may write it). Paths with "..", "." or empty segments, backslashes or NUL
// bytes match nothing.
func (s *Site) lookup(p string) *file {
	name, ok := requestName(p)
	if !ok || s == nil {
		return nil
	}
	if f := s.files[name]; f != nil || path.Ext(name) != "" {
		return f
	}
	return s.files[name+".html"]
}

// requestName maps a request path to a file name as lookup describes; ok
// is false for paths that match nothing.
func requestName(p string) (name string, ok bool) {
	if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "\\\x00") {
		return "", false
	}
	name = strings.TrimPrefix(p, "/")
	if name == "" || strings.HasSuffix(name, "/") {
		name += "index.html"
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return "", false
		}
	}
	return name, true
}

// SetHeaders adds the security headers every response carries.
func SetHeaders(h http.Header) {
	if h == nil {
		return
	}
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
}

// ServeHTTP serves GET and HEAD requests for the site's files.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	SetHeaders(w.Header())
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	f := s.lookup(r.URL.Path)
	if f == nil {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.ctype)
	h.Set("Cache-Control", "no-cache")
	body, etag := f.data, f.etag
	if gz := f.gzipped(); gz != nil {
		h.Set("Vary", "Accept-Encoding")
		if acceptsGzip(r.Header.Get("Accept-Encoding")) {
			h.Set("Content-Encoding", "gzip")
			// Each representation has its own validator.
			body, etag = gz, strings.TrimSuffix(f.etag, `"`)+`-gz"`
		}
	}
	h.Set("ETag", etag)
	if etagMatch(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(body)
}

// acceptsGzip reports whether an Accept-Encoding header allows gzip: it
// lists gzip (or *) without q=0.
func acceptsGzip(header string) bool {
	star := false
	for _, part := range strings.Split(header, ",") {
		fields := strings.Split(part, ";")
		coding := strings.ToLower(strings.TrimSpace(fields[0]))
		q := 1.0
		for _, p := range fields[1:] {
			p = strings.TrimSpace(p)
			if v, ok := strings.CutPrefix(strings.ToLower(p), "q="); ok {
				if f, err := strconv.ParseFloat(v, 64); err == nil {
					q = f
				}
			}
		}
		switch coding {
		case "gzip", "x-gzip":
			return q > 0
		case "*":
			star = q > 0
		}
	}
	return star
}

// etagMatch reports whether an If-None-Match header names etag (or *).
func etagMatch(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}
