package site_test

import (
	"fmt"
	"image"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/viz"
	"github.com/fp8lab/fp8lab/viz/plot/plottest"
)

// canvasInfo is the scene canvas as the browser lays it out: its place in
// the page (CSS pixels), its backing store (device pixels), its CSS size
// and the device pixel ratio.
type canvasInfo struct {
	X, Y, CSSW, CSSH float64
	W, H             int
	DPR              float64
}

const canvasInfoJS = `(() => {
	const f = document.getElementById("canvas"), r = f.getBoundingClientRect();
	const c = f.contentDocument.querySelector("canvas"), cr = c.getBoundingClientRect();
	return {X: r.x + f.clientLeft + cr.x, Y: r.y + f.clientTop + cr.y, CSSW: cr.width, CSSH: cr.height,
		W: c.width, H: c.height, DPR: f.contentWindow.devicePixelRatio};
})()`

// openScene opens a scene page in a viewport of w×h CSS pixels (at the
// device pixel ratio dpr) and waits until its canvas shows it.
func openScene(t *testing.T, tab *tabT, w, h int, dpr float64, name string, params ...string) canvasInfo {
	t.Helper()
	tab.do(t, chromedp.EmulateViewport(int64(w), int64(h), chromedp.EmulateScale(dpr)),
		chromedp.Navigate(sceneURL(serverBase(t), name, params...)))
	tab.waitReady(t)
	tab.waitDrawn(t)
	return eval[canvasInfo](t, tab, canvasInfoJS)
}

func serverBase(t *testing.T) string {
	t.Helper()
	base, _ := server(t)
	return base
}

// On every scene at 1024×768 and 1920×1080 the canvas's backing store is
// its CSS size times devicePixelRatio (the scene is drawn at the screen's
// real resolution, not shrunk by CSS), the canvas takes most of the page's
// width and ends inside the window, the controls beside it start in the
// window too, the first screen holds the takeaway and a control
// (firstScreen), the smallest chart text is at least 14 CSS pixels, and
// presentation mode works (checkPresentation).
func TestCanvasAtDeviceResolution(t *testing.T) {
	tab := newTab(t)
	for _, vp := range []struct {
		w, h int
		dpr  float64
	}{{1024, 768, 1}, {1920, 1080, 1}, {1024, 768, 2}} {
		names := viz.Names()
		if vp.dpr != 1 {
			names = names[:1]
		}
		for _, name := range names {
			t.Run(fmt.Sprintf("%dx%d@%gx/%s", vp.w, vp.h, vp.dpr, name), func(t *testing.T) {
				c := openScene(t, tab, vp.w, vp.h, vp.dpr, name, preconditions[name]["*"]...)
				assert.Equal(t, vp.dpr, c.DPR)
				assert.InDelta(t, c.CSSW*c.DPR, float64(c.W), 1, "backing store width")
				assert.InDelta(t, c.CSSH*c.DPR, float64(c.H), 1, "backing store height")
				assert.Greater(t, c.CSSW, 0.6*float64(vp.w), "the canvas takes most of the width")
				// The canvas fits the window: a first click in it scrolls
				// nothing. The controls are beside it, in the window.
				f := eval[struct{ Bottom, Right, Inner, CtlTop, CtlLeft, CtlBottom float64 }](t, tab, `(() => {
					const r = document.getElementById("canvas").getBoundingClientRect(), c = document.querySelector(".side").getBoundingClientRect();
					return {Bottom: r.bottom, Right: r.right, Inner: innerHeight, CtlTop: c.top, CtlLeft: c.left, CtlBottom: c.bottom};
				})()`)
				assert.LessOrEqual(t, f.Bottom, f.Inner, "the canvas reaches below the window")
				assert.GreaterOrEqual(t, f.CtlLeft, f.Right, "the controls are beside the canvas")
				assert.LessOrEqual(t, f.CtlBottom, f.Inner, "the controls reach below the window")
				firstScreen(t, tab)
				if name == "training" {
					// Its canvas says "Check Train to start".
					controlOnFirstScreen(t, tab, "#p-train")
				}
				px := smallestDrawn(t, name, c)
				assert.GreaterOrEqual(t, px, float64(viz.MinTextCSS)-0.05, "smallest text on a %dx%d canvas: %.1f CSS px", c.W, c.H, px)
				requireNotBlank(t, tab.shot(t, "#canvas"), name+" canvas")
				if vp.dpr == 1 {
					tab.savePage(t, fmt.Sprintf("scene-%s-%dx%d", name, vp.w, vp.h))
					checkPresentation(t, tab, name, vp.w, vp.h, vp.w == 1024)
				}
			})
		}
		if vp.dpr == 1 {
			t.Run(fmt.Sprintf("%dx%d/home", vp.w, vp.h), func(t *testing.T) {
				tab.do(t, chromedp.EmulateViewport(int64(vp.w), int64(vp.h)), chromedp.Navigate(serverBase(t)))
				tab.waitReady(t)
				assert.LessOrEqual(t, eval[int](t, tab, `document.documentElement.scrollWidth`), eval[int](t, tab, `innerWidth`), "sideways scroll")
				tab.savePage(t, fmt.Sprintf("home-%dx%d", vp.w, vp.h))
			})
		}
	}
}

// smallestDrawn renders a fresh scene at the size of the page's canvas and
// returns the size, in CSS pixels, of the smallest text it draws.
func smallestDrawn(t *testing.T, name string, c canvasInfo) float64 {
	t.Helper()
	s, err := viz.New(name)
	require.NoError(t, err)
	dst := image.NewRGBA(image.Rect(0, 0, c.W, c.H))
	px, text := plottest.ProbeText(dst, func() { err = viz.RenderFor(s, dst, viz.Display{PixelRatio: c.DPR}) })
	require.NoError(t, err, "%s at %dx%d device pixels (%.0fx%.0f CSS)", name, c.W, c.H, c.CSSW, c.CSSH)
	// The probe watches the canvas itself: on a canvas smaller than a
	// scene lays itself out at, RenderFor draws a larger picture and
	// scales it down, and no text reaches the canvas through DrawText.
	require.NotEmpty(t, text, "%s drew no text into its %dx%d canvas (drawn larger and scaled down)", name, c.W, c.H)
	px /= c.DPR
	t.Logf("%s on a %.0fx%.0f CSS px canvas: smallest text %.1f CSS px (%q)", name, c.CSSW, c.CSSH, px, text)
	return px
}

// At a phone's 390×844 every scene renders (its picture at the canvas's
// size has no error) with its parts stacked on a tall canvas (the page
// scrolls down) and its smallest text at least 14 CSS pixels, no page
// scrolls sideways, and the first screen shows the top of the canvas
// below the takeaway, the navigation folded behind its Menu button.
func TestPhoneLayout(t *testing.T) {
	tab := newTab(t)
	const w, h, dpr = 390, 844, 3
	for _, name := range viz.Names() {
		t.Run(name, func(t *testing.T) {
			// As the other page tests: animations off (dither's growing N
			// would keep the page from settling).
			c := openScene(t, tab, w, h, dpr, name, preconditions[name]["*"]...)
			assert.GreaterOrEqual(t, c.CSSH, viz.StackedAspect*c.CSSW, "a canvas tall enough to stack the scene")
			px := smallestDrawn(t, name, c)
			assert.GreaterOrEqual(t, px, float64(viz.MinTextCSS)-0.05, "smallest text on a %.0fx%.0f CSS px canvas", c.CSSW, c.CSSH)
			requireNotBlank(t, tab.shot(t, "#canvas"), name+" canvas")
			assert.LessOrEqual(t, eval[int](t, tab, `document.documentElement.scrollWidth`), eval[int](t, tab, `innerWidth`), "sideways scroll")
			phoneFirstScreen(t, tab)
			tab.savePage(t, fmt.Sprintf("scene-%s-%dx%d", name, w, h))
		})
	}
	t.Run("home", func(t *testing.T) {
		tab.do(t, chromedp.EmulateViewport(w, h, chromedp.EmulateScale(dpr)), chromedp.Navigate(serverBase(t)))
		tab.waitReady(t)
		assert.LessOrEqual(t, eval[int](t, tab, `document.documentElement.scrollWidth`), eval[int](t, tab, `innerWidth`), "sideways scroll")
		tab.savePage(t, fmt.Sprintf("home-%dx%d", w, h))
	})
}

// Twenty quick clicks on cells of the explorer's grid (pressed and
// released at once, shorter than a frame) each select their cell: the
// canvas queues pointer events rather than sampling the mouse per frame.
// While nothing changes the canvas draws no frame.
func TestQuickClicksAllCount(t *testing.T) {
	tab := newTab(t)
	c := openScene(t, tab, 1366, 768, 1, "explorer")

	// Idle: no frame drawn over 2 s.
	f0 := eval[int](t, tab, liveAPI+`.then(a => a.frameCount())`)
	time.Sleep(2 * time.Second)
	f1 := eval[int](t, tab, liveAPI+`.then(a => a.frameCount())`)
	assert.LessOrEqual(t, f1-f0, 1, "frames drawn while idle")

	// The cells to click, and the code each selects, from the same scene
	// rendered natively at the canvas's size.
	s, err := viz.New("explorer")
	require.NoError(t, err)
	d := viz.Display{PixelRatio: c.DPR}
	require.NoError(t, viz.RenderFor(s, image.NewRGBA(image.Rect(0, 0, c.W, c.H)), d))
	type click struct {
		p    image.Point
		code string
	}
	var clicks []click
	for y := c.H / 4; y < c.H && len(clicks) < 20; y += c.H / 23 {
		for x := c.W / 2; x < c.W && len(clicks) < 20; x += c.W / 19 {
			if viz.ClickFor(s, x, y, c.W, c.H, d) {
				code, _ := s.Get("code")
				clicks = append(clicks, click{image.Pt(x, y), code})
			}
		}
	}
	require.Len(t, clicks, 20, "cells found in a %dx%d explorer", c.W, c.H)
	changed := 0
	for i, k := range clicks {
		// Where the canvas is now: a first click may scroll a canvas that
		// reaches below the window into view.
		at := eval[canvasInfo](t, tab, canvasInfoJS)
		x, y := at.X+(float64(k.p.X)+0.5)/c.DPR, at.Y+(float64(k.p.Y)+0.5)/c.DPR
		tab.do(t, chromedp.MouseEvent("mousePressed", x, y, chromedp.Button("left"), chromedp.ClickCount(1)),
			chromedp.MouseEvent("mouseReleased", x, y, chromedp.Button("left"), chromedp.ClickCount(1)))
		deadline := time.Now().Add(5 * time.Second)
		got := ""
		for time.Now().Before(deadline) {
			if got = eval[string](t, tab, liveAPI+`.then(a => a.getParam("code"))`); got == k.code {
				changed++
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		assert.Equal(t, k.code, got, "click %d at %v", i, k.p)
	}
	assert.Equal(t, 20, changed, "clicks that selected their cell")
	tab.waitDrawn(t)
	// The page follows the last click.
	deadline := time.Now().Add(5 * time.Second)
	for shownFacts(t, tab)["code"] != eval[string](t, tab, liveAPI+`.then(a => a.currentScene().facts.code)`) {
		require.True(t, time.Now().Before(deadline), "the page did not follow the clicks")
		time.Sleep(50 * time.Millisecond)
	}
}

// Presentation mode: ?present=1 and the key P make the canvas fill the
// window above the strip of controls; the canvas draws larger type; P
// twice gives the same picture back.
func TestPresentationMode(t *testing.T) {
	tab := newTab(t)
	c := openScene(t, tab, 1024, 768, 1, "range", "present", "1")
	assert.InDelta(t, 1024, c.CSSW, 1)
	strip := eval[float64](t, tab, `document.querySelector(".side").getBoundingClientRect().top`)
	assert.InDelta(t, strip, c.CSSH, 1, "the canvas ends where the strip of controls starts")
	assert.True(t, eval[bool](t, tab, `!!document.querySelector(".side #controls [data-param]").offsetParent`), "the controls are in the strip")
	before := tab.shot(t, "#canvas")
	tab.do(t, chromedp.KeyEvent("p"))
	tab.waitDrawn(t)
	assert.False(t, eval[bool](t, tab, `document.body.classList.contains("present")`))
	assert.Contains(t, eval[string](t, tab, `location.search`), "name=range")
	tab.do(t, chromedp.KeyEvent("p"))
	tab.waitDrawn(t)
	assert.True(t, eval[bool](t, tab, `document.body.classList.contains("present")`))
	// The canvas may report itself drawn before the page has given it its
	// presentation size back (the resize comes a frame or two after the
	// key): the picture must come back within a few seconds.
	diff := 1.0
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		tab.waitDrawn(t)
		if diff = diffFraction(before, tab.shot(t, "#canvas")); diff < 0.01 || time.Now().After(deadline) {
			break
		}
	}
	assert.Less(t, diff, 0.01, "the same picture after P twice")
}
