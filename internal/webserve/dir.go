package webserve

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/fp8lab/fp8lab/internal/infile"
)

// Bounds of the gzip copies a Dir keeps in memory: files larger than
// MaxGzipFile are sent uncompressed, and when the copies would pass
// MaxGzipCache bytes the cache is emptied and refilled on demand.
const (
	MaxGzipFile  = 32 << 20
	MaxGzipCache = 64 << 20
)

// Dir serves a folder (one written by fp8lab site) straight from disk, one
// request at a time: nothing is read before it is asked for, so pointing it
// at a large tree costs nothing until a file is requested. It sends the
// same headers as Site (CSP, MIME types, gzip for text and WebAssembly),
// serves only regular files (no directory listings; "/" and "dir/" give
// their index.html), hides names starting with a dot, and never leaves the
// folder: paths with "..", and symbolic links that point outside it, are
// 404s (the folder is opened with os.OpenRoot). It is safe for concurrent
// use.
type Dir struct {
	root *os.Root

	mu      sync.Mutex
	gz      map[string]*gzCopy
	gzBytes int
}

// gzCopy is the gzip copy of one file as it was when compressed.
type gzCopy struct {
	size    int64
	modTime int64
	data    []byte // nil when compression does not pay
	etag    string
}

// OpenDir opens dir for serving. It first checks that dir holds
// index.html and each of the required files (slash-separated names) as
// regular files, and reads nothing else. Close the Dir when done.
func OpenDir(dir string, required ...string) (*Dir, error) {
	// Stat first: opening a named pipe would wait for a writer (serve
	// --dir FIFO bound its port and hung, deaf to SIGINT and SIGTERM).
	if st, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("webserve: %w", err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("webserve: %s is %s, not a folder", dir, infile.What(st.Mode()))
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("webserve: %w", err)
	}
	d := &Dir{root: root, gz: map[string]*gzCopy{}}
	for _, name := range append([]string{"index.html"}, required...) {
		if !d.Has(name) {
			root.Close()
			return nil, fmt.Errorf("webserve: %s has no %s", dir, name)
		}
	}
	return d, nil
}

// Has reports whether the folder holds a regular file of that
// (slash-separated) name.
func (d *Dir) Has(name string) bool {
	if d == nil || d.root == nil {
		return false
	}
	fi, err := d.root.Stat(name)
	return err == nil && fi.Mode().IsRegular()
}

// Close releases the folder.
func (d *Dir) Close() error {
	if d == nil || d.root == nil {
		return nil
	}
	return d.root.Close()
}

// ServeHTTP serves GET and HEAD requests for the folder's regular files,
// with Range and conditional requests for uncompressed responses.
func (d *Dir) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	SetHeaders(w.Header())
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, ok := requestName(r.URL.Path)
	if !ok || hidden(name) || d == nil || d.root == nil {
		http.NotFound(w, r)
		return
	}
	if _, err := d.root.Stat(name); err != nil && path.Ext(name) == "" {
		name += ".html" // "/scene" is scene.html, as Site serves it
	}
	// infile's rule: a named pipe is not waited on, a link out of the
	// folder is not followed.
	f, _, err := infile.OpenInRoot(d.root, name, infile.ServedFile)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", ContentType(name))
	h.Set("Cache-Control", "no-cache")
	if worthGzip(name, fi.Size()) {
		h.Set("Vary", "Accept-Encoding")
		if acceptsGzip(r.Header.Get("Accept-Encoding")) {
			if c := d.gzipped(name, f, fi); c != nil && c.data != nil {
				h.Set("Content-Encoding", "gzip")
				h.Set("ETag", c.etag)
				if etagMatch(r.Header.Get("If-None-Match"), c.etag) {
					w.WriteHeader(http.StatusNotModified)
					return
				}
				h.Set("Content-Length", strconv.Itoa(len(c.data)))
				w.WriteHeader(http.StatusOK)
				if r.Method != http.MethodHead {
					_, _ = w.Write(c.data)
				}
				return
			}
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				http.Error(w, "cannot read the file", http.StatusInternalServerError)
				return
			}
		}
	}
	h.Set("ETag", fmt.Sprintf(`"%x-%x"`, fi.Size(), fi.ModTime().UnixNano()))
	http.ServeContent(w, r, name, fi.ModTime(), f)
}

// worthGzip reports whether a file of this name and size gets a gzip copy.
func worthGzip(name string, size int64) bool {
	return compressible[strings.ToLower(path.Ext(name))] && size >= 512 && size <= MaxGzipFile
}

// gzipped returns the cached gzip copy of the open file, making it when the
// cache has none for this size and modification time; nil on a read error.
func (d *Dir) gzipped(name string, f *os.File, fi fs.FileInfo) *gzCopy {
	size, mod := fi.Size(), fi.ModTime().UnixNano()
	d.mu.Lock()
	c, ok := d.gz[name]
	d.mu.Unlock()
	if ok && c.size == size && c.modTime == mod {
		return c
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxGzipFile+1))
	if err != nil || int64(len(data)) != size {
		return nil
	}
	c = &gzCopy{size: size, modTime: mod}
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err == nil {
		_, err = zw.Write(data)
	}
	if err == nil {
		err = zw.Close()
	}
	if err == nil && b.Len() < len(data) {
		c.data = b.Bytes()
		sum := sha256.Sum256(data)
		c.etag = `"` + hex.EncodeToString(sum[:12]) + `-gz"`
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if old, ok := d.gz[name]; ok {
		d.gzBytes -= len(old.data)
	}
	if d.gzBytes+len(c.data) > MaxGzipCache {
		clear(d.gz)
		d.gzBytes = 0
	}
	d.gz[name] = c
	d.gzBytes += len(c.data)
	return c
}

// hidden reports whether a name has a segment starting with a dot, which
// New skips and Dir does not serve.
func hidden(name string) bool {
	for _, seg := range strings.Split(name, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}
