package site_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"io/fs"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/site"
	"github.com/fp8lab/fp8lab/tensorio"
	"github.com/fp8lab/fp8lab/viz"
	"github.com/fp8lab/fp8lab/viz/plot/plottest"
)

// box is an element's place in the window, in CSS pixels.
type box struct{ Left, Top, Right, Bottom float64 }

func (b box) overlaps(c box) bool {
	return b.Left < c.Right-0.5 && c.Left < b.Right-0.5 && b.Top < c.Bottom-0.5 && c.Top < b.Bottom-0.5
}

// boxJS returns the box of an element (e) as boxes are read.
const boxJS = `(e) => { const r = e.getBoundingClientRect(); return {Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom}; }`

// firstScreen checks a scene page at scroll 0: the canvas, the takeaway
// line (the explanation's first paragraph, in the same words) and the
// first control are all inside the window; a takeaway too long for its
// box shows the link to the whole text (it is never cut silently).
func firstScreen(t *testing.T, tab *tabT) {
	t.Helper()
	type screen struct {
		Canvas, Takeaway, Control box
		Inner, Scroll             float64
		Text, First               string
		Clamped, More             bool
	}
	s := eval[screen](t, tab, `(() => { const b = `+boxJS+`, k = document.getElementById("takeaway");
		return {Canvas: b(document.getElementById("canvas")), Takeaway: b(k),
			Control: b(document.querySelector("#controls [data-param]")), Inner: innerHeight, Scroll: scrollY,
			Text: k.textContent, First: (document.querySelector("#explanation p") || {}).textContent || "",
			Clamped: k.scrollHeight > k.clientHeight + 1, More: !!document.getElementById("takeaway-more").offsetParent}; })()`)
	assert.Equal(t, s.Clamped, s.More, "a takeaway cut by its box shows \"Read on\", and only then")
	require.Zero(t, s.Scroll, "the page opens scrolled")
	for what, b := range map[string]box{"canvas": s.Canvas, "takeaway": s.Takeaway, "first control": s.Control} {
		assert.True(t, b.Top >= 0 && b.Bottom <= s.Inner && b.Bottom > b.Top, "the %s %+v is not on the first screen (%.0f px high)", what, b, s.Inner)
	}
	assert.NotEmpty(t, s.Text)
	assert.Equal(t, s.First, s.Text, "the takeaway is the explanation's first paragraph")
}

// controlOnFirstScreen checks that the control matching sel is seen
// without scrolling: inside the window and inside the visible part of the
// column of controls (which scrolls on its own).
func controlOnFirstScreen(t *testing.T, tab *tabT, sel string) {
	t.Helper()
	type where struct{ Control, Side box }
	w := eval[where](t, tab, `(() => { const b = `+boxJS+`;
		return {Control: b(document.querySelector(`+strconv.Quote(sel)+`)), Side: b(document.querySelector(".side"))}; })()`)
	assert.True(t, w.Control.Top >= w.Side.Top && w.Control.Bottom <= w.Side.Bottom && w.Control.Bottom <= float64(eval[int](t, tab, `innerHeight`)),
		"%s %+v is not in the controls seen first %+v", sel, w.Control, w.Side)
}

// phoneFirstScreen checks a scene page on a phone at scroll 0: the
// navigation is one line with a Menu button, and the top of the canvas is
// on the first screen, below the takeaway.
func phoneFirstScreen(t *testing.T, tab *tabT) {
	t.Helper()
	type screen struct {
		Header, Canvas, Takeaway box
		Inner                    float64
		Menu, Links              bool
	}
	s := eval[screen](t, tab, `(() => { const b = `+boxJS+`;
		return {Header: b(document.querySelector(".site-header")), Canvas: b(document.getElementById("canvas")),
			Takeaway: b(document.getElementById("takeaway")), Inner: innerHeight,
			Menu: !!document.querySelector(".nav-toggle").offsetParent, Links: !!document.querySelector(".site-nav").offsetParent}; })()`)
	assert.True(t, s.Menu, "the Menu button shows")
	assert.False(t, s.Links, "the navigation's links are folded")
	assert.Less(t, s.Header.Bottom, 80.0, "the header is one line")
	assert.Less(t, s.Canvas.Top, s.Inner-200, "the top of the canvas is on the first screen")
	assert.LessOrEqual(t, s.Takeaway.Bottom, s.Canvas.Top, "the takeaway is above the canvas")
}

// gridRowLabel matches the explorer grid's row labels, which may share
// their line boxes' leading (viz's TestTextApart compares them by ink).
var gridRowLabel = regexp.MustCompile(`^0x[0-9A-F]{2}$`)

// checkPresentation enters presentation mode with the key P on an open
// scene page and checks it: the canvas fills the window above the strip
// of controls, which covers none of it, fits the window and holds its
// controls apart; the picture drawn for that canvas (larger type) has no
// text over text and none cut; where change is set, a control of the strip
// changes the picture. The key P leaves it again.
func checkPresentation(t *testing.T, tab *tabT, name string, w, h int, change bool) {
	t.Helper()
	tab.do(t, chromedp.KeyEvent("p"))
	tab.waitDrawn(t)
	type strip struct {
		Canvas, Strip box
		Parts         []box
		Inner, Width  float64
		Overflow      bool
		Present       bool
	}
	s := eval[strip](t, tab, `(() => { const b = `+boxJS+`, side = document.querySelector(".side");
		return {Canvas: b(document.getElementById("canvas")), Strip: b(side), Inner: innerHeight, Width: innerWidth,
			Overflow: side.scrollHeight > side.clientHeight + 1 || side.scrollWidth > side.clientWidth + 1,
			Present: document.body.classList.contains("present"),
			Parts: Array.from(side.querySelectorAll(".control, .actions button"), b).filter(r => r.Right > r.Left)}; })()`)
	require.True(t, s.Present, "the key P enters presentation mode")
	assert.Zero(t, s.Canvas.Top)
	assert.InDelta(t, s.Width, s.Canvas.Right-s.Canvas.Left, 1, "the canvas fills the width")
	assert.LessOrEqual(t, s.Canvas.Bottom, s.Strip.Top+0.5, "the strip covers the canvas")
	assert.LessOrEqual(t, s.Strip.Bottom, s.Inner+0.5, "the strip reaches below the window")
	assert.False(t, s.Overflow, "the strip's controls are cut (it scrolls)")
	assert.NotEmpty(t, s.Parts)
	for i, a := range s.Parts {
		assert.True(t, a.Left >= s.Strip.Left-0.5 && a.Right <= s.Strip.Right+0.5, "control %d %+v outside the strip %+v", i, a, s.Strip)
		for j, b := range s.Parts[i+1:] {
			assert.False(t, a.overlaps(b), "controls %d %+v and %d %+v overlap", i, a, i+1+j, b)
		}
	}
	// The picture drawn at the canvas's size for presentation mode.
	c := eval[canvasInfo](t, tab, canvasInfoJS)
	live := eval[struct {
		Params []struct{ Name, Value string } `json:"params"`
	}](t, tab, liveAPI+`.then(a => a.currentScene())`)
	sc, err := viz.New(name)
	require.NoError(t, err)
	for _, p := range live.Params {
		require.NoError(t, sc.Set(p.Name, p.Value), p.Name)
	}
	img := image.NewRGBA(image.Rect(0, 0, c.W, c.H))
	var rerr error
	boxes := plottest.RecordText(img, func() {
		rerr = viz.RenderFor(sc, img, viz.Display{PixelRatio: c.DPR, TextScale: viz.PresentationTextScale})
	})
	require.NoError(t, rerr)
	assert.Empty(t, plottest.TextOverlaps(boxes, func(a, b plottest.TextBox) bool {
		return gridRowLabel.MatchString(a.Text) && gridRowLabel.MatchString(b.Text) && a.Box.Max.X == b.Box.Max.X
	}), "%s in presentation mode at %dx%d: text over text, or cut", name, c.W, c.H)
	tab.savePage(t, fmt.Sprintf("scene-%s-present-%dx%d", name, w, h))
	if change {
		changeInStrip(t, tab, name)
	}
	tab.do(t, chromedp.KeyEvent("p"))
	tab.waitDrawn(t)
	assert.False(t, eval[bool](t, tab, `document.body.classList.contains("present")`), "the key P leaves presentation mode")
}

// changeInStrip sets the first choice of the strip to another option, as
// a user would, and checks that the scene takes it and its picture
// changes; then sets it back.
func changeInStrip(t *testing.T, tab *tabT, name string) {
	t.Helper()
	s, err := viz.New(name)
	require.NoError(t, err)
	for _, p := range s.Params() {
		if p.Kind != viz.ParamChoice {
			continue
		}
		current := eval[string](t, tab, liveAPI+`.then(a => a.getParam(`+strconv.Quote(p.Name)+`))`)
		other := otherValue(name, p, current)
		if other == "" {
			continue
		}
		before := tab.shot(t, "#canvas")
		tab.set(t, "#p-"+p.Name, other)
		tab.waitDrawn(t)
		assert.Equal(t, other, eval[string](t, tab, liveAPI+`.then(a => a.getParam(`+strconv.Quote(p.Name)+`))`), "%s from the strip", p.Name)
		assert.Positive(t, diffFraction(before, tab.shot(t, "#canvas")), "%s=%s from the strip changes the picture", p.Name, other)
		tab.set(t, "#p-"+p.Name, current)
		tab.waitDrawn(t)
		return
	}
	t.Fatalf("%s has no choice to change from the strip", name)
}

// recordStatus makes the tab keep, from its next page on, every text the
// page's status line shows (window.fp8labStatusLog).
func (tab *tabT) recordStatus(t *testing.T) {
	t.Helper()
	const js = `window.fp8labStatusLog = [];
		new MutationObserver(() => { const s = document.getElementById("status");
			if (s && s.textContent !== window.fp8labStatusLog[window.fp8labStatusLog.length - 1]) window.fp8labStatusLog.push(s.textContent);
		}).observe(document, {subtree: true, childList: true, characterData: true});`
	tab.do(t, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: js})
		return err
	}))
}

// sizeText is how the pages state a download's size (FP8Lab.loadingText).
func sizeText(file string, bytes int) string {
	return fmt.Sprintf("%s, %.1f MB", file, float64(bytes)/1e6)
}

// The status lines state the real sizes of the modules, as the server
// sends them (compressed): the scene page's the playground's, the home
// page's the core's. A scene page loads the playground and not the core;
// the home page loads no module until its Try-it boxes come into view.
func TestLoadingSizes(t *testing.T) {
	base, srv := server(t)
	tab := newTab(t)
	tab.recordStatus(t)
	tab.do(t, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(sceneURL(base, "range")))
	tab.waitReady(t)
	_, play, ok := srv.Size("fp8lab.wasm")
	require.True(t, ok)
	assert.Contains(t, eval[[]string](t, tab, `window.fp8labStatusLog`), "Loading the playground ("+sizeText("fp8lab.wasm", play)+")…")
	loaded := `performance.getEntriesByType("resource").map(e => e.name.replace(/^.*\//, "")).concat(
		Array.from(document.querySelectorAll("iframe"), f => f.contentWindow.performance.getEntriesByType("resource").map(e => e.name.replace(/^.*\//, ""))).flat())`
	files := eval[[]string](t, tab, loaded)
	assert.Contains(t, files, "fp8lab.wasm")
	assert.NotContains(t, files, "fp8core.wasm")

	tab.do(t, chromedp.Navigate(base))
	tab.waitReady(t)
	assert.NotContains(t, eval[[]string](t, tab, loaded), "fp8core.wasm", "the home page loaded the core before its boxes were in view")
	tab.waitCore(t)
	_, core, ok := srv.Size("fp8core.wasm")
	require.True(t, ok)
	assert.Contains(t, eval[[]string](t, tab, `window.fp8labStatusLog`), "Loading the library ("+sizeText("fp8core.wasm", core)+")…")
}

// waitCore scrolls the home page's Try-it boxes into view and waits until
// they run (they load the core module then).
func (tab *tabT) waitCore(t *testing.T) {
	t.Helper()
	eval[bool](t, tab, `(document.getElementById("tryit-section").scrollIntoView(), true)`)
	deadline := time.Now().Add(defaultWait)
	for !eval[bool](t, tab, `document.body.dataset.core === "1"`) {
		require.False(t, eval[bool](t, tab, `!!document.querySelector("#status.alert")`), "the page shows an error: %s", tab.text(t, "#status"))
		require.True(t, time.Now().Before(deadline), "the Try-it boxes did not start")
		time.Sleep(50 * time.Millisecond)
	}
}

// A dither link copied while N grows leaves N out, and reopens growing;
// one copied with N set by hand (the growth stopped) keeps it.
func TestLinkReopensWhatWasSeen(t *testing.T) {
	base, _ := server(t)
	tab := newTab(t)
	tab.do(t, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(sceneURL(base, "dither")))
	tab.waitReady(t)
	deadline := time.Now().Add(10 * time.Second)
	for eval[string](t, tab, liveAPI+`.then(a => a.getParam("frames"))`) == "16" {
		require.True(t, time.Now().Before(deadline), "N does not grow")
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(1200 * time.Millisecond) // the address follows within a second
	link := eval[string](t, tab, `location.href`)
	assert.NotContains(t, link, "frames=", "a growing N is in the link")
	tab.do(t, chromedp.Navigate(link))
	tab.waitReady(t)
	assert.Equal(t, "true", eval[string](t, tab, liveAPI+`.then(a => a.getParam("animate"))`), "the link reopens N growing")

	tab.set(t, "#p-frames-num", "40")
	deadline = time.Now().Add(5 * time.Second)
	for link = eval[string](t, tab, `location.href`); !regexp.MustCompile(`frames=40\b`).MatchString(link); link = eval[string](t, tab, `location.href`) {
		require.True(t, time.Now().Before(deadline), "the address did not follow N set by hand: %s", link)
		time.Sleep(100 * time.Millisecond)
	}
	tab.do(t, chromedp.Navigate(link))
	tab.waitReady(t)
	assert.Equal(t, "40", eval[string](t, tab, liveAPI+`.then(a => a.getParam("frames"))`))
	assert.Equal(t, "false", eval[string](t, tab, liveAPI+`.then(a => a.getParam("animate"))`))
}

// The Scan page scans its sample, the training lab's GPT, with one click:
// every tensor of the model gets a row.
func TestScanSample(t *testing.T) {
	tab := newTab(t)
	openScanPage(t, tab, 1024, 768)
	tab.do(t, chromedp.Click(chromedp.ID("scan-sample")))
	waitScan(t, tab, "done")
	assert.Contains(t, tab.text(t, "#results-heading"), "classroom-gpt.safetensors")
	rows := eval[int](t, tab, `new Set(Array.from(document.querySelectorAll("#report tr[data-tensor]"), r => r.dataset.tensor)).size`)
	assert.Equal(t, sampleTensors(t), rows, "tensors in the report")
}

// sampleTensors counts the tensors of the Scan page's sample.
func sampleTensors(t *testing.T) int {
	t.Helper()
	b, err := fs.ReadFile(site.FS(), site.SamplePath)
	require.NoError(t, err)
	a, err := tensorio.Open(bytes.NewReader(b), int64(len(b)), "sample", tensorio.Limits{})
	require.NoError(t, err)
	return len(a.Tensors)
}

// A dither link that stops the growth of N is applied before N grows:
// bits=1&animate=false shows N = 16, the default (it showed 17, one
// animation step taken before the page applied the link), and a link
// with N at its largest, 256, opens as quickly.
func TestDitherLinkStopsGrowthAtOnce(t *testing.T) {
	base, _ := server(t)
	tab := newTab(t)
	for _, c := range []struct {
		params []string
		frames string
	}{{[]string{"bits", "1", "animate", "false"}, "16"}, {[]string{"bits", "1", "animate", "false", "frames", "256"}, "256"}} {
		start := time.Now()
		tab.do(t, chromedp.EmulateViewport(1024, 768), chromedp.Navigate(sceneURL(base, "dither", c.params...)))
		tab.waitReady(t)
		tab.waitDrawn(t)
		t.Logf("%v: ready and drawn in %v", c.params, time.Since(start))
		assert.Equal(t, "false", eval[string](t, tab, liveAPI+`.then(a => a.getParam("animate"))`), "%v", c.params)
		assert.Equal(t, c.frames, eval[string](t, tab, liveAPI+`.then(a => a.getParam("frames"))`), "%v", c.params)
	}
}
