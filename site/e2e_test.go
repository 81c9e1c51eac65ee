package site_test

import (
	"fmt"
	"image"
	"io/fs"
	"net/url"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/webserve"
	"github.com/fp8lab/fp8lab/site"
	"github.com/fp8lab/fp8lab/viz"
)

// The pages must be complete and self-contained: every scene linked, no
// inline script or style (the CSP forbids them), nothing from the network.
func TestPagesAreSelfContained(t *testing.T) {
	files := map[string]string{}
	require.NoError(t, fs.WalkDir(site.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(site.FS(), p)
		files[p] = string(b)
		return err
	}))
	for _, want := range []string{"index.html", "scene.html", "canvas.html", "scan.html", "style.css", "scan-report.css", "js/fp8lab.js",
		"js/common.js", "js/home.js", "js/scene.js", "js/canvas.js", "js/explain.js", "js/scan.js", "js/scan-worker.js",
		"js/training-live.js", "js/training-worker.js"} {
		assert.Contains(t, files, want)
	}
	remote := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/`)
	inline := regexp.MustCompile(`(?i)<script(?:\s[^>]*)?>\s*[^<\s]|\son[a-z]+\s*=|\sstyle\s*=|<style`)
	for name, body := range files {
		if strings.HasSuffix(name, ".html") {
			assert.NotRegexp(t, inline, body, "%s has inline script, style or event handler", name)
			for _, src := range regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(body, -1) {
				u := src[1]
				if strings.HasPrefix(u, "#") || strings.HasPrefix(u, "data:") || strings.HasPrefix(u, "scene.html?") {
					continue
				}
				path := strings.SplitN(u, "?", 2)[0]
				if path == "wasm_exec.js" {
					continue // built next to the pages
				}
				assert.Contains(t, files, path, "%s links to %s, which the site does not have", name, u)
			}
		}
		if strings.HasSuffix(name, ".html") || strings.HasSuffix(name, ".css") || strings.HasSuffix(name, ".js") {
			for _, m := range remote.FindAllString(body, -1) {
				t.Errorf("%s refers to the network: %s", name, m)
			}
		}
	}
	// Every scene is linked from every page with the navigation.
	for _, page := range []string{"index.html", "scene.html", "scan.html"} {
		for _, name := range viz.Names() {
			assert.Contains(t, files[page], `href="scene.html?name=`+name+`"`, "%s does not link scene %s", page, name)
		}
	}
}

func TestHomePage(t *testing.T) {
	base, _ := server(t)
	tab := newTab(t)
	tab.do(t, chromedp.Navigate(base))
	tab.waitReady(t)
	tab.savePage(t, "home")
	assert.LessOrEqual(t, eval[int](t, tab, `document.documentElement.scrollWidth`), viewportW, "horizontal overflow")

	facts := eval[map[string]string](t, tab, `Object.fromEntries(Array.from(document.querySelectorAll("[data-fact]"), e => [e.dataset.fact, e.textContent]))`)
	assert.Equal(t, "448", facts["E4M3FN.max"])
	assert.Equal(t, "57344", facts["E5M2.max"])
	assert.Equal(t, fmt.Sprint(fp8.E4M3FN.Info().PositiveFinite), facts["E4M3FN.positive_finite"])
	assert.Equal(t, fmt.Sprint(fp8.E5M2.Info().PositiveFinite), facts["E5M2.positive_finite"])
	assert.Equal(t, "256", facts["E4M3FN.codes"])
	for k, v := range facts {
		assert.NotEqual(t, "…", v, "fact %s was not filled", k)
	}

	// The format table lists every preset with numbers from the library.
	rows := eval[[][]string](t, tab, `Array.from(document.querySelectorAll("#formats-table tbody tr"), tr => Array.from(tr.children, c => c.textContent))`)
	require.Len(t, rows, len(fp8.Presets()))
	for i, f := range fp8.Presets() {
		assert.Equal(t, f.Name(), rows[i][0])
		assert.Equal(t, fmt.Sprint(f.Info().PositiveFinite), rows[i][6], f.Name())
	}
	assert.Equal(t, "448", rows[0][3])

	// The Try-it boxes run the core module, loaded when they are in view.
	tab.waitCore(t)
	// Decode: E4M3FN code 0x7E shows 448; E5M2's max code shows 57344.
	assert.Equal(t, "448", tab.text(t, "#dec-value"))
	tab.set(t, "#dec-code", fmt.Sprintf("0x%02X", fp8.E5M2.MaxCode()))
	tab.set(t, "#dec-format", "E5M2") // its change event decodes
	assert.Equal(t, "57344", tab.text(t, "#dec-value"))
	tab.set(t, "#dec-code", "0x7C")
	tab.do(t, chromedp.Click(chromedp.CSS("#decode-form button")))
	assert.Equal(t, "+Inf", tab.text(t, "#dec-value"))
	tab.set(t, "#dec-code", fmt.Sprintf("0x%02X", fp8.E5M2.MaxCode()))
	tab.do(t, chromedp.Click(chromedp.CSS("#decode-form button")))
	assert.Equal(t, "57344", tab.text(t, "#dec-value"))

	// Encode through the keyboard: type a number and press Enter.
	tab.set(t, "#enc-value", "")
	tab.do(t, chromedp.SendKeys(chromedp.ID("enc-value"), "-431.99999999999994\r"))
	assert.Equal(t, "-416", tab.text(t, "#enc-out .big"), "rounded once, from the float64 input")
	tab.set(t, "#enc-value", "")
	tab.do(t, chromedp.SendKeys(chromedp.ID("enc-value"), "banana\r"))
	assert.Contains(t, tab.text(t, "#enc-out"), "not a number")
	assert.True(t, eval[bool](t, tab, `document.getElementById("enc-value").getAttribute("aria-invalid") === "true"`))

	// Thumbnails are drawn (when the site is made) and titled by the
	// scenes themselves.
	for _, name := range viz.Names() {
		assert.Equal(t, 800, eval[int](t, tab, `document.querySelector('a[data-scene="`+name+`"] img').naturalWidth`), "thumbnail of %s", name)
		requireNotBlank(t, tab.shot(t, `a[data-scene="`+name+`"] img`), "thumbnail of "+name)
		s, err := viz.New(name)
		require.NoError(t, err)
		assert.Equal(t, s.Title(), tab.text(t, `a[data-scene="`+name+`"] strong`))
	}
}

func TestKeyboardNavigation(t *testing.T) {
	base, _ := server(t)
	tab := newTab(t)
	tab.do(t, chromedp.Navigate(base))
	tab.waitReady(t)
	// Tab walks the skip link, the brand, then the navigation, each with a
	// visible focus outline.
	type focus struct {
		Text    string `json:"text"`
		Outline string `json:"outline"`
	}
	var seen []string
	step := func(key string) {
		tab.do(t, chromedp.KeyEvent(key))
		f := eval[focus](t, tab, `(() => { const e = document.activeElement; const s = getComputedStyle(e);
			return {text: e.textContent.trim(), outline: s.outlineStyle + " " + s.outlineWidth}; })()`)
		seen = append(seen, f.Text)
		assert.Contains(t, f.Outline, "solid", "focus on %q is visible", f.Text)
	}
	for i := 0; i < 3; i++ {
		step("\t")
	}
	// At 1366 px the navigation is folded behind its Menu button: Enter
	// opens it, Tab walks its links, Escape folds it again.
	assert.Equal(t, []string{"Skip to content", "fp8lab", "Menu"}, seen)
	tab.do(t, chromedp.KeyEvent("\r"))
	assert.Equal(t, "true", eval[string](t, tab, `document.querySelector(".nav-toggle").getAttribute("aria-expanded")`))
	step("\t")
	step("\t")
	assert.Equal(t, []string{"Home", "Explorer"}, seen[3:])
	tab.do(t, chromedp.KeyEvent(kb.Escape))
	assert.False(t, eval[bool](t, tab, `!!document.querySelector(".site-nav").offsetParent`), "Escape folds the navigation")
	assert.Equal(t, "Menu", eval[string](t, tab, `document.activeElement.textContent.trim()`), "focus goes back to the button")
}

// sceneURL is the page of one scene with parameters.
func sceneURL(base, name string, params ...string) string {
	q := url.Values{"name": {name}}
	for i := 0; i+1 < len(params); i += 2 {
		q.Set(params[i], params[i+1])
	}
	return base + "scene.html?" + q.Encode()
}

// liveAPI is the expression of the framed playground's API (a promise).
const liveAPI = `document.getElementById("canvas").contentWindow.fp8labReady`

// waitDrawn waits until the canvas has drawn a frame and shows every
// change made so far: it draws only when something changes
// (fp8labSettled, in the canvas's window, says that no frame is due).
func (tab *tabT) waitDrawn(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		frames := eval[int](t, tab, liveAPI+`.then(a => a.frameCount())`)
		if frames >= 1 && eval[bool](t, tab, `document.getElementById("canvas").contentWindow.fp8labSettled()`) {
			return
		}
		require.True(t, time.Now().Before(deadline), "the canvas did not draw the last change (%d frames)", frames)
		time.Sleep(30 * time.Millisecond)
	}
}

// shownFacts reads the facts the page shows.
func shownFacts(t *testing.T, tab *tabT) map[string]string {
	t.Helper()
	return eval[map[string]string](t, tab, `Object.fromEntries(Array.from(document.querySelectorAll("#facts dd"), e => [e.dataset.fact, e.dataset.value]))`)
}

func TestScenePages(t *testing.T) {
	base, _ := server(t)
	names := viz.Names()
	require.NotEmpty(t, names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			tab := newTab(t)
			tab.do(t, chromedp.Navigate(sceneURL(base, name, preconditions[name]["*"]...)))
			tab.waitReady(t)
			tab.waitDrawn(t)
			requireNotBlank(t, tab.shot(t, "#canvas"), name+" canvas")
			tab.savePage(t, "scene-"+name)

			s, err := viz.New(name)
			require.NoError(t, err)
			assert.Equal(t, s.Title(), tab.text(t, "#scene-title"))
			assert.Equal(t, "scene.html?name="+name, eval[string](t, tab, `document.querySelector('.site-nav a[aria-current="page"]').getAttribute("href")`))

			// One labelled control per parameter (two for numbers: a slider
			// and a box), and the facts the scene reports.
			labelled := eval[[]string](t, tab, `Array.from(document.querySelectorAll("#controls [data-param]"), e => (e.labels.length || e.getAttribute("aria-label")) ? e.dataset.param : "")`)
			var want []string
			for _, p := range s.Params() {
				want = append(want, p.Name)
				if p.Kind == viz.ParamNumber || p.Kind == viz.ParamInt {
					want = append(want, p.Name)
				}
			}
			if _, ok := s.(viz.TensorLoader); ok {
				want = append(want, "file") // the file picker, after the parameters
			}
			assert.Equal(t, want, labelled, "every control has a label")

			// The facts shown are those the library computes for the
			// parameters on screen (minus screen positions, keys *_x, *_y).
			type live struct {
				Params []struct {
					Name  string `json:"name"`
					Value string `json:"value"`
				} `json:"params"`
				Facts map[string]string `json:"facts"`
			}
			var shown map[string]string
			var l live
			deadline := time.Now().Add(5 * time.Second)
			for {
				l = eval[live](t, tab, liveAPI+`.then(a => a.currentScene())`)
				shown = shownFacts(t, tab)
				if reflect.DeepEqual(shown, withoutPositions(l.Facts)) || time.Now().After(deadline) {
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
			// Some facts depend on the picture's size (the image a scene
			// dithers is as large as its panel): render at the canvas size.
			native, err := viz.New(name)
			require.NoError(t, err)
			for _, p := range l.Params {
				require.NoError(t, native.Set(p.Name, p.Value), p.Name)
			}
			type size struct{ W, H int }
			sz := eval[size](t, tab, `(() => { const c = document.getElementById("canvas").contentDocument.querySelector("canvas"); return {W: c.width, H: c.height}; })()`)
			require.NoError(t, native.Render(image.NewRGBA(image.Rect(0, 0, sz.W, sz.H))))
			assert.Equal(t, withoutPositions(native.Facts()), shown)
			assert.Equal(t, withoutPositions(l.Facts), shown)

			// Nothing sticks out sideways at a projector's 1366 pixels.
			assert.LessOrEqual(t, eval[int](t, tab, `document.documentElement.scrollWidth`), viewportW, "horizontal overflow")

			// The explanation is there, its numbers filled in.
			paras := eval[[]string](t, tab, `Array.from(document.querySelectorAll("#explanation p"), p => p.textContent)`)
			assert.GreaterOrEqual(t, len(paras), 2, "the explanation of %s", name)
			assert.Equal(t, native.Explain().Paragraphs(), paras, "the site shows Go's explanation of %s", name)
			for _, p := range paras {
				assert.NotContains(t, p, "{")
				assert.NotContains(t, p, "undefined")
				assert.NotContains(t, p, "NaN%")
			}
		})
	}
}

// withoutPositions drops the facts that are screen positions.
func withoutPositions(m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		if !strings.HasSuffix(k, "_x") && !strings.HasSuffix(k, "_y") {
			out[k] = v
		}
	}
	return out
}

func TestExplorerShowsTheLibrarysNumbers(t *testing.T) {
	base, _ := server(t)
	tab := newTab(t)
	tab.do(t, chromedp.Navigate(sceneURL(base, "explorer")))
	tab.waitReady(t)
	facts := shownFacts(t, tab)
	assert.Equal(t, "0x7E", facts["code"])
	assert.Equal(t, "448", facts["value"], "E4M3FN code 0x7E is 448")

	// Through the HTML controls: E5M2 and its max code.
	tab.set(t, "#p-format", "E5M2")
	tab.set(t, "#p-code-num", fmt.Sprint(fp8.E5M2.MaxCode()))
	facts = shownFacts(t, tab)
	assert.Equal(t, "57344", facts["value"])
	assert.Equal(t, "57344", facts["max"])
	assert.Equal(t, "E5M2", eval[string](t, tab, liveAPI+`.then(a => a.getParam("format"))`))
	search := ""
	for deadline := time.Now().Add(3 * time.Second); !strings.Contains(search, "format=E5M2") && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		search = eval[string](t, tab, `location.search`)
	}
	assert.Contains(t, search, "format=E5M2", "the URL keeps the view")

	// A bad value is refused next to its control, and the scene is unchanged.
	// The page applies a value through the wasm API, asynchronously: on a
	// loaded machine the refusal can take a moment to show.
	tab.set(t, "#p-value", "banana")
	invalid := false
	for deadline := time.Now().Add(5 * time.Second); !invalid && time.Now().Before(deadline); {
		invalid = eval[bool](t, tab, `document.getElementById("p-value").getAttribute("aria-invalid") === "true"`)
		if !invalid {
			time.Sleep(100 * time.Millisecond)
		}
	}
	assert.True(t, invalid, "the bad value is marked invalid")
	assert.NotEmpty(t, tab.text(t, "#p-value-error"))
	assert.Equal(t, "57344", shownFacts(t, tab)["value"])

	// A refresh that does not move the value (the canvas reporting a change
	// of another control, as a late report of an earlier one does on a
	// loaded machine) leaves the refused text and its error for the user to
	// correct.
	eval[string](t, tab, liveAPI+`.then(a => a.setParam("format", "E4M3FN").params.find(p => p.name == "format").value)`)
	for deadline := time.Now().Add(5 * time.Second); shownFacts(t, tab)["format"] != "E4M3FN" && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
	}
	require.Equal(t, "E4M3FN", shownFacts(t, tab)["format"], "the page refreshed after the canvas reported the change")
	assert.Equal(t, "banana", eval[string](t, tab, `document.getElementById("p-value").value`), "a refresh replaced the refused text")
	assert.NotEmpty(t, tab.text(t, "#p-value-error"), "a refresh cleared the refusal")
	assert.True(t, eval[bool](t, tab, `document.getElementById("p-value").getAttribute("aria-invalid") === "true"`), "a refresh unmarked the refused text")

	// Parameters in the URL are applied on load.
	tab2 := newTab(t)
	tab2.do(t, chromedp.Navigate(sceneURL(base, "explorer", "format", "E5M2", "code", "123")))
	tab2.waitReady(t)
	assert.Equal(t, "57344", shownFacts(t, tab2)["value"])
}

func TestExportedSiteFromAFileServer(t *testing.T) {
	_, s := server(t)
	dir := t.TempDir()
	names, err := s.Export(dir)
	require.NoError(t, err)
	for _, want := range []string{"index.html", "scene.html", "canvas.html", "fp8lab.wasm", "fp8core.wasm", "wasm_exec.js"} {
		assert.Contains(t, names, want)
		assert.FileExists(t, filepath.Join(dir, want))
	}
	base := staticServer(t, dir)
	tab := newTab(t)
	tab.do(t, chromedp.Navigate(base+"index.html"))
	tab.waitReady(t)
	assert.Equal(t, "57344", tab.text(t, `[data-fact="E5M2.max"]`))
	name := viz.Names()[0]
	tab.do(t, chromedp.Navigate(sceneURL(base, name)))
	tab.waitReady(t)
	tab.waitDrawn(t)
	requireNotBlank(t, tab.shot(t, "#canvas"), "exported "+name)
}

// A page that fails says so, on the page and in the console: here an
// unknown scene name.
func TestUnknownScene(t *testing.T) {
	base, _ := server(t)
	tab := newTab(t)
	tab.allow = true
	tab.do(t, chromedp.Navigate(sceneURL(base, "no-such-scene")))
	deadline := time.Now().Add(defaultWait)
	status := ""
	for status == "" && time.Now().Before(deadline) {
		status = eval[string](t, tab, `document.querySelector("#status.alert") ? document.getElementById("status").textContent : ""`)
		time.Sleep(100 * time.Millisecond)
	}
	assert.Contains(t, status, `unknown scene "no-such-scene"`)
	assert.NotEmpty(t, tab.Errors())
}

// The pages run under the server's CSP: every test above fails on a
// violation (a console error); here the header itself is checked.
func TestServedWithCSP(t *testing.T) {
	base, _ := server(t)
	tab := newTab(t)
	tab.do(t, chromedp.Navigate(base))
	assert.Equal(t, webserve.CSP, eval[string](t, tab, `fetch("index.html").then(r => r.headers.get("Content-Security-Policy"))`))
}

// The explanation beside each scene comes from Go (viz.Scene.Explain,
// carried by sceneInfo): scene.js shows it and explain.js holds no
// templates of its own that could contradict the numbers.
func TestExplanationsComeFromGo(t *testing.T) {
	js, err := fs.ReadFile(site.FS(), "js/scene.js")
	require.NoError(t, err)
	assert.Contains(t, string(js), "info.explanation")
	ex, err := fs.ReadFile(site.FS(), "js/explain.js")
	require.NoError(t, err)
	assert.NotRegexp(t, regexp.MustCompile(`\{[a-z_.]+(\|\w+)?\}`), string(ex), "explain.js still has templates")
	for _, name := range viz.Names() {
		s, err := viz.New(name)
		require.NoError(t, err)
		require.NoError(t, s.Render(image.NewRGBA(image.Rect(0, 0, 900, 550))))
		paras := s.Explain().Paragraphs()
		require.NotEmpty(t, paras, name)
		for _, p := range paras {
			assert.NotEmpty(t, strings.TrimSpace(p), name)
		}
	}
}

// The home page's formats table fits the page with no sideways scroll, its
// own or the page's, from a phone (one card per format) to full HD, where
// it was 1344 px wide in a 1300-px column and its NaN column was cut.
func TestHomePageTableFits(t *testing.T) {
	tab := newTab(t)
	for _, vp := range []struct {
		w, h int64
		dpr  float64
	}{{1920, 1080, 1}, {1366, 768, 1}, {1024, 768, 1}, {390, 844, 3}} {
		tab.do(t, chromedp.EmulateViewport(vp.w, vp.h, chromedp.EmulateScale(vp.dpr)), chromedp.Navigate(serverBase(t)))
		tab.waitReady(t)
		type widths struct{ Page, Inner, Wrap, Client, Cells int }
		w := eval[widths](t, tab, `({page: document.documentElement.scrollWidth, inner: innerWidth,
			wrap: document.querySelector(".table-wrap").scrollWidth, client: document.querySelector(".table-wrap").clientWidth,
			cells: document.querySelectorAll("#formats-table tbody td").length})`)
		assert.Positive(t, w.Cells, "%dx%d: the table is filled", vp.w, vp.h)
		assert.LessOrEqual(t, w.Page, w.Inner, "%dx%d: the page scrolls sideways", vp.w, vp.h)
		assert.LessOrEqual(t, w.Wrap, w.Client, "%dx%d: the formats table scrolls sideways", vp.w, vp.h)
		tab.savePage(t, fmt.Sprintf("home-table-%dx%d", vp.w, vp.h))
	}
}
