package site

import (
	"bytes"
	_ "embed" // partials/nav.html
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"sort"
	"strings"
	"sync"
	texttemplate "text/template"
	"time"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scan"
	"github.com/fp8lab/fp8lab/scan/report"
	"github.com/fp8lab/fp8lab/viz"
)

// Pages lists the files of static/ that are templates: they list the scenes
// (navigation, home-page cards), which come from viz's catalog, the one list
// of scenes, and the Scan page's choices, which come from package scan, when
// FS is first called. Both fp8lab serve and the static export (fp8lab site
// -o) read the site through FS, so they hold the same generated pages and
// need nothing at run time. The navigation every page shows is one template,
// partials/nav.html.
var Pages = []string{"index.html", "scene.html", "scan.html", "scan-report.css"}

//go:embed partials/nav.html
var navTemplate string

// pageData is what the page templates see.
type pageData struct {
	// Page is the name of the page being generated (the navigation marks it).
	Page   string
	Scenes []sceneCard
	// Loaders are the scenes that can show a tensor from a file (each a
	// viz.TensorLoader): the Scan page offers to open a tensor in them.
	Loaders []sceneCard
	// Recipes, DefaultFormat and MinSQNR are the Scan page's choices and
	// defaults, as fp8lab scan has them.
	Recipes       []recipeChoice
	DefaultFormat string
	MinSQNR       float64
	// Layouts are scan's weight layouts, the default first.
	Layouts []layoutChoice
	// ReportCSS is the style sheet of the scan report (scan/report.CSS).
	ReportCSS string
	// Formats is the home page's table of every format (formatRows).
	Formats []formatRow
	// Thumbs is the folder of the scene cards' pictures (thumbnail).
	Thumbs string
	// Sample is the Scan page's sample checkpoint (sample.go).
	Sample sampleInfo
}

// sceneCard is one scene as the pages show it.
type sceneCard struct {
	viz.Info
	Title string
}

// recipeChoice is one scan recipe and whether fp8lab scan uses it by
// default.
type recipeChoice struct {
	Name    string
	Default bool
}

// layoutChoice is one weight layout of the scan, named and described.
type layoutChoice struct{ Name, Rows string }

var (
	pagesOnce sync.Once
	pages     map[string][]byte
	pagesErr  error
)

// newPageData collects what the templates show from viz and scan.
func newPageData() (pageData, error) {
	data := pageData{DefaultFormat: fp8.E4M3FN.Name(), MinSQNR: scan.DefaultMinSQNR, ReportCSS: report.CSS(),
		Formats: formatRows(), Thumbs: thumbDir, Sample: describeSample()}
	for _, in := range viz.Scenes() {
		s, err := viz.New(in.Name)
		if err != nil {
			return data, err
		}
		card := sceneCard{Info: in, Title: s.Title()}
		data.Scenes = append(data.Scenes, card)
		if _, ok := s.(viz.TensorLoader); ok {
			data.Loaders = append(data.Loaders, card)
		}
	}
	defaults := map[string]bool{}
	for _, r := range scan.DefaultRecipes() {
		defaults[r.Name] = true
	}
	for _, r := range scan.Recipes() {
		data.Recipes = append(data.Recipes, recipeChoice{Name: r.Name, Default: defaults[r.Name]})
	}
	for _, l := range scan.Layouts {
		data.Layouts = append(data.Layouts, layoutChoice{l.String(), l.Rows()})
	}
	return data, nil
}

// renderPages executes the page templates of dir: the HTML pages with
// html/template and the navigation partial, the style sheets with
// text/template.
func renderPages(dir fs.FS) (map[string][]byte, error) {
	out := map[string][]byte{}
	data, err := newPageData()
	if err != nil {
		return nil, err
	}
	for _, name := range Pages {
		src, err := fs.ReadFile(dir, name)
		if err != nil {
			return nil, err
		}
		data.Page = name
		var b bytes.Buffer
		if strings.HasSuffix(name, ".html") {
			err = executeHTML(&b, name, string(src), data)
		} else {
			var tmpl *texttemplate.Template
			tmpl, err = texttemplate.New(name).Option("missingkey=error").Parse(string(src))
			if err == nil {
				err = tmpl.Execute(&b, data)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("site: %s: %w", name, err)
		}
		out[name] = b.Bytes()
	}
	return out, nil
}

// executeHTML runs one HTML page template with the navigation partial and
// the function fact (the home page's numbers).
func executeHTML(w io.Writer, name, src string, data pageData) error {
	tmpl, err := template.New(name).Option("missingkey=error").Funcs(template.FuncMap{"fact": fact}).Parse(src)
	if err != nil {
		return err
	}
	if _, err := tmpl.Parse(navTemplate); err != nil {
		return err
	}
	return tmpl.Execute(w, data)
}

// overlay serves generated files over an fs.FS: the pages (Pages), made
// when FS is first called, and the home page's thumbnails (thumbDir), each
// drawn when first read.
type overlay struct {
	fs.FS
	files map[string][]byte
	err   error
}

// thumbs holds the thumbnails, keyed by file name ("explorer.png").
var thumbs = func() map[string]*generatedFile {
	m := map[string]*generatedFile{}
	for _, name := range viz.Names() {
		m[name+".png"] = &generatedFile{make: func() ([]byte, error) { return thumbnail(name) }}
	}
	return m
}()

// generatedFile is a file made when first read.
type generatedFile struct {
	once sync.Once
	make func() ([]byte, error)
	data []byte
	err  error
}

func (g *generatedFile) bytes() ([]byte, error) {
	g.once.Do(func() { g.data, g.err = g.make() })
	return g.data, g.err
}

// Open implements fs.FS: a generated file from memory, anything else from
// the embedded files. A page whose template failed cannot be opened.
func (o overlay) Open(name string) (fs.File, error) {
	for _, p := range Pages {
		if name != p {
			continue
		}
		if o.err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: o.err}
		}
		return newMemFile(name, o.files[name]), nil
	}
	if dir, file, ok := strings.Cut(name, "/"); ok && dir == thumbDir {
		g, ok := thumbs[file]
		if !ok {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
		data, err := g.bytes()
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return newMemFile(file, data), nil
	}
	return o.FS.Open(name)
}

// ReadDir implements fs.ReadDirFS, so that walking the site (fp8lab
// serve, the static export) finds the thumbnails' folder and files.
func (o overlay) ReadDir(name string) ([]fs.DirEntry, error) {
	switch name {
	case thumbDir:
		var out []fs.DirEntry
		for _, n := range viz.Names() {
			out = append(out, memEntry{name: n + ".png"})
			go thumbs[n+".png"].bytes() // drawn side by side, read in turn
		}
		return out, nil
	case ".":
		out, err := fs.ReadDir(o.FS, name)
		if err != nil {
			return nil, err
		}
		out = append(out, memEntry{name: thumbDir, dir: true})
		sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
		return out, nil
	}
	return fs.ReadDir(o.FS, name)
}

// memEntry is a generated file or folder as ReadDir lists it.
type memEntry struct {
	name string
	dir  bool
}

func (e memEntry) Name() string { return e.name }
func (e memEntry) IsDir() bool  { return e.dir }
func (e memEntry) Type() fs.FileMode {
	if e.dir {
		return fs.ModeDir
	}
	return 0
}
func (e memEntry) Info() (fs.FileInfo, error) {
	if e.dir {
		return memInfo{name: e.name, dir: true}, nil
	}
	data, err := thumbs[e.name].bytes()
	return memInfo{name: e.name, size: int64(len(data))}, err
}

func newMemFile(name string, data []byte) *memFile {
	return &memFile{Reader: bytes.NewReader(data), info: memInfo{name: name, size: int64(len(data))}}
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

// memInfo describes a generated file or folder.
type memInfo struct {
	name string
	size int64
	dir  bool
}

func (i memInfo) Name() string { return i.name }
func (i memInfo) Size() int64  { return i.size }
func (i memInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return i.dir }
func (i memInfo) Sys() any           { return nil }
