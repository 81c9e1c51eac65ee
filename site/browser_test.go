package site_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/fp8lab/fp8lab/internal/webserve"
	"github.com/fp8lab/fp8lab/site"
)

// The browser and the server are shared by every test of the package and
// closed by TestMain.
var (
	browserOnce   sync.Once
	browserCtx    context.Context
	browserErr    error
	closeBrowser  = func() {}
	serverOnce    sync.Once
	serverURL     string
	serverSite    *webserve.Site
	serverErr     error
	closeServer   = func() {}
	browserFlags  = "headless, --use-angle=swiftshader --enable-unsafe-swiftshader, --no-sandbox as root"
	viewportW     = 1366 // a common laptop-projector resolution
	viewportH     = 768
	defaultWait   = 90 * time.Second
	screenshotDir = os.Getenv("FP8LAB_SCREENSHOTS") // where to save page screenshots, if set
)

func TestMain(m *testing.M) {
	code := m.Run()
	closeBrowser()
	closeServer()
	os.Exit(code)
}

// browser returns the shared headless Chromium, started on first use.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := testenv.Chromium(t)
	browserOnce.Do(func() {
		profile, err := os.MkdirTemp("", "fp8lab-chromium-")
		if err != nil {
			browserErr = err
			return
		}
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(path),
			chromedp.UserDataDir(profile), // a fresh profile
			chromedp.WindowSize(viewportW, viewportH),
			chromedp.Flag("use-angle", "swiftshader"),
			chromedp.Flag("enable-unsafe-swiftshader", true),
			chromedp.Flag("ignore-gpu-blocklist", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("no-first-run", true),
			chromedp.Flag("no-sandbox", os.Geteuid() == 0),
		)
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelCtx := chromedp.NewContext(alloc)
		if err := chromedp.Do(ctx); err != nil { // starts the browser
			browserErr = fmt.Errorf("starting %s (%s): %w", path, browserFlags, err)
		}
		browserCtx = ctx
		closeBrowser = func() {
			cancelCtx()
			cancelAlloc()
			os.RemoveAll(profile)
		}
	})
	require.NoError(t, browserErr)
	return browserCtx
}

// server returns the base URL of the playground, served by the same code
// as fp8lab serve, with freshly built (or cached) WebAssembly modules.
func server(t *testing.T) (string, *webserve.Site) {
	t.Helper()
	testenv.Chromium(t) // skip before building anything when there is no browser
	res := testenv.Wasm(t)
	serverOnce.Do(func() {
		s, err := webserve.New(site.FS())
		if err == nil {
			err = s.AddFiles(res.Files)
		}
		if err != nil {
			serverErr = err
			return
		}
		ln, err := webserve.Listen("127.0.0.1:0")
		if err != nil {
			serverErr = err
			return
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); _ = webserve.Serve(ctx, ln, s) }()
		serverURL, serverSite = webserve.URL(ln.Addr()), s
		closeServer = func() { cancel(); <-done }
	})
	require.NoError(t, serverErr)
	return serverURL, serverSite
}

// staticServer serves dir with Go's plain http.FileServer, as any static
// host would (no CSP, no precompression), and returns its URL.
func staticServer(t *testing.T, dir string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := &http.Server{Handler: http.FileServer(http.Dir(dir)), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String() + "/"
}

// tabT is a browser tab that records what the page reports as errors:
// console.error calls, uncaught exceptions and browser log entries of level
// error (failed requests, Content-Security-Policy violations). The test
// fails at cleanup if any were seen, unless allow is set.
type tabT struct {
	ctx   context.Context
	mu    sync.Mutex
	errs  []string
	allow bool
	close func() // closes the tab (also done at cleanup)
}

// Errors returns the errors seen so far.
func (tab *tabT) Errors() []string {
	tab.mu.Lock()
	defer tab.mu.Unlock()
	return append([]string(nil), tab.errs...)
}

func newTab(t *testing.T) *tabT {
	t.Helper()
	parent := browser(t)
	ctx, cancel := chromedp.NewContext(parent)
	tab := &tabT{ctx: ctx}
	require.NoError(t, chromedp.Do(ctx)) // opens the tab
	messages := chromedp.Console(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				tab.mu.Lock()
				tab.errs = append(tab.errs, fmt.Sprintf("%s (%s:%d)", m, m.URL, m.Line+1))
				tab.mu.Unlock()
			}
		}
	}()
	var once sync.Once
	tab.close = func() {
		once.Do(func() {
			time.Sleep(50 * time.Millisecond) // let the last messages arrive
			if !tab.allow && !t.Failed() {
				if errs := tab.Errors(); len(errs) > 0 {
					t.Errorf("the page reported errors:\n  %s", strings.Join(errs, "\n  "))
				}
			}
			cancel()
			<-done
		})
	}
	t.Cleanup(tab.close)
	return tab
}

// do runs actions in the tab with a deadline.
func (tab *tabT) do(t *testing.T, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab.ctx, defaultWait)
	defer cancel()
	require.NoError(t, chromedp.Do(ctx, actions...), "console: %v", tab.Errors())
}

// runT runs one action returning a value in the tab with a deadline.
func runT[T any](t *testing.T, tab *tabT, a chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab.ctx, defaultWait)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	require.NoError(t, err, "console: %v", tab.Errors())
	return v
}

// eval evaluates a JavaScript expression, awaiting a promise, as a T.
func eval[T any](t *testing.T, tab *tabT, expr string) T {
	t.Helper()
	return runT(t, tab, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
}

// set sets the value of the form control matching a CSS selector and
// dispatches input and change events, as a user's edit would.
func (tab *tabT) set(t *testing.T, sel, value string) {
	t.Helper()
	ok := eval[bool](t, tab, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return false;
		e.value = %q; e.dispatchEvent(new Event("input", {bubbles: true})); e.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, sel, value))
	require.True(t, ok, "no element %s", sel)
}

// text returns the text of the first element matching a CSS selector.
func (tab *tabT) text(t *testing.T, sel string) string {
	t.Helper()
	return runT(t, tab, chromedp.Text(chromedp.CSS(sel)))
}

// waitReady waits until the page marks <body data-ready="1">, failing
// early with the page's status line if it shows an error.
func (tab *tabT) waitReady(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(defaultWait)
	type state struct {
		Ready  bool   `json:"ready"`
		Status string `json:"status"`
		Alert  bool   `json:"alert"`
	}
	for {
		st := eval[state](t, tab, `({ready: !!document.body && document.body.dataset.ready === "1",
			status: (document.getElementById("status") || {}).textContent || "",
			alert: !!document.querySelector("#status.alert")})`)
		if st.Ready {
			return
		}
		require.False(t, st.Alert, "the page shows an error: %s (console: %v)", st.Status, tab.Errors())
		require.True(t, time.Now().Before(deadline), "the page did not get ready: %q (console: %v)", st.Status, tab.Errors())
		time.Sleep(100 * time.Millisecond)
	}
}

// shot takes a screenshot of the first element matching a CSS selector, at
// half scale (enough to see any change, and much faster on a busy machine).
func (tab *tabT) shot(t *testing.T, sel string) *image.RGBA {
	t.Helper()
	buf := runT(t, tab, chromedp.ScreenshotScale(chromedp.CSS(sel), 0.5))
	img, err := png.Decode(bytes.NewReader(buf))
	require.NoError(t, err)
	if rgba, ok := img.(*image.RGBA); ok {
		return rgba
	}
	rgba := image.NewRGBA(img.Bounds())
	draw.Draw(rgba, rgba.Bounds(), img, img.Bounds().Min, draw.Src)
	return rgba
}

// savePage writes a full-page screenshot to $FP8LAB_SCREENSHOTS/name.png.
// It scrolls through the page a viewport at a time and stitches the
// viewport screenshots: Chromium's capture beyond the viewport repeats the
// top of a tall page (seen on the phone's pages at devicePixelRatio 3).
func (tab *tabT) savePage(t *testing.T, name string) {
	t.Helper()
	if screenshotDir == "" {
		return
	}
	type geometry struct{ W, H, View, DPR float64 }
	g := eval[geometry](t, tab, `({W: document.documentElement.clientWidth, H: document.documentElement.scrollHeight,
		View: innerHeight, DPR: devicePixelRatio})`)
	px := func(v float64) int { return int(math.Round(v * g.DPR)) }
	page := image.NewRGBA(image.Rect(0, 0, px(g.W), px(g.H)))
	for y := 0.0; ; y += g.View {
		top := eval[float64](t, tab, fmt.Sprintf(`(async () => { scrollTo(0, %g);
			await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))); return scrollY; })()`, y))
		img, err := png.Decode(bytes.NewReader(runT(t, tab, chromedp.CaptureScreenshot())))
		require.NoError(t, err)
		draw.Draw(page, img.Bounds().Add(image.Pt(0, px(top))), img, img.Bounds().Min, draw.Src)
		if top+g.View >= g.H || y+g.View >= g.H {
			break
		}
	}
	eval[float64](t, tab, `(scrollTo(0, 0), 0)`)
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, page))
	require.NoError(t, os.MkdirAll(screenshotDir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(screenshotDir, name+".png"), buf.Bytes(), 0o644))
}

// lumaStats returns the standard deviation of the luminance and the number
// of distinct colours of an image.
func lumaStats(img *image.RGBA) (stddev float64, colours int) {
	seen := map[uint32]bool{}
	var sum, sum2 float64
	n := 0
	for i := 0; i+3 < len(img.Pix); i += 4 {
		r, g, b := float64(img.Pix[i]), float64(img.Pix[i+1]), float64(img.Pix[i+2])
		l := 0.2126*r + 0.7152*g + 0.0722*b
		sum += l
		sum2 += l * l
		n++
		if len(seen) < 10000 {
			seen[uint32(img.Pix[i])<<16|uint32(img.Pix[i+1])<<8|uint32(img.Pix[i+2])] = true
		}
	}
	mean := sum / float64(n)
	return math.Sqrt(math.Max(0, sum2/float64(n)-mean*mean)), len(seen)
}

// requireNotBlank fails when an image is (nearly) one colour.
func requireNotBlank(t *testing.T, img *image.RGBA, what string) {
	t.Helper()
	sd, colours := lumaStats(img)
	require.Greater(t, sd, 10.0, "%s looks blank (luminance stddev %.2f, %d colours)", what, sd, colours)
	require.Greater(t, colours, 8, "%s has only %d colours", what, colours)
}

// diffFraction returns the fraction of pixels that differ between two
// images of the same size (1 when the sizes differ).
func diffFraction(a, b *image.RGBA) float64 {
	if a.Rect != b.Rect {
		return 1
	}
	diff := 0
	for i := 0; i+3 < len(a.Pix); i += 4 {
		if a.Pix[i] != b.Pix[i] || a.Pix[i+1] != b.Pix[i+1] || a.Pix[i+2] != b.Pix[i+2] {
			diff++
		}
	}
	return float64(diff) / float64(len(a.Pix)/4)
}
