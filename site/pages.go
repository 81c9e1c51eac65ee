package site

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"sync"
	"time"

	"github.com/fp8lab/fp8lab/viz"
)

// Pages lists the files of static/ that are templates: they list the scenes
// (navigation, home-page cards), which come from viz's catalog, the one list
// of scenes, when FS is first called. Both fp8lab serve and the static
// export (fp8lab site -o) read the site through FS, so they hold the same
// generated pages and need nothing at run time.
var Pages = []string{"index.html", "scene.html"}

// pageData is what the page templates see: each scene's Info and title.
type pageData struct {
	Scenes []sceneCard
}

// sceneCard is one scene as the pages show it.
type sceneCard struct {
	viz.Info
	Title string
}

var (
	pagesOnce sync.Once
	pages     map[string][]byte
	pagesErr  error
)

// renderPages executes the page templates of dir with the scene catalog.
func renderPages(dir fs.FS) (map[string][]byte, error) {
	out := map[string][]byte{}
	var data pageData
	for _, in := range viz.Scenes() {
		s, err := viz.New(in.Name)
		if err != nil {
			return nil, err
		}
		data.Scenes = append(data.Scenes, sceneCard{Info: in, Title: s.Title()})
	}
	for _, name := range Pages {
		src, err := fs.ReadFile(dir, name)
		if err != nil {
			return nil, err
		}
		tmpl, err := template.New(name).Option("missingkey=error").Parse(string(src))
		if err != nil {
			return nil, fmt.Errorf("site: %s: %w", name, err)
		}
		var b bytes.Buffer
		if err := tmpl.Execute(&b, data); err != nil {
			return nil, fmt.Errorf("site: %s: %w", name, err)
		}
		out[name] = b.Bytes()
	}
	return out, nil
}

// overlay serves generated files over an fs.FS.
type overlay struct {
	fs.FS
	files map[string][]byte
	err   error
}

// Open implements fs.FS: a generated page from memory, anything else from
// the embedded files. A page whose template failed cannot be opened.
func (o overlay) Open(name string) (fs.File, error) {
	for _, p := range Pages {
		if name != p {
			continue
		}
		if o.err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: o.err}
		}
		return &memFile{Reader: bytes.NewReader(o.files[name]), info: memInfo{name: name, size: int64(len(o.files[name]))}}, nil
	}
	return o.FS.Open(name)
}

// memFile is a generated page opened for reading.
type memFile struct {
	*bytes.Reader
	info memInfo
}

// Stat implements fs.File.
func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }

// Close implements fs.File.
func (f *memFile) Close() error { return nil }

// memInfo describes a generated page.
type memInfo struct {
	name string
	size int64
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }
