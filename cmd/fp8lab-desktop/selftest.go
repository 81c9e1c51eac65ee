package main

import (
	"bytes"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fp8lab/fp8lab/viz"
	"github.com/fp8lab/fp8lab/viz/app"
)

// selftest drives the real Game inside ebiten's loop: for every scene it
// clicks the scene's tab, waits, reads the screen back, clicks a control
// of the panel, reads the screen again, and checks that the screen is not
// blank, that the control changed it, and that idle frames render nothing
// new. It writes a screenshot of each scene into dir.
type selftest struct {
	g        *app.Game
	dir      string
	per      int // frames per scene
	frame    int
	names    []string
	before   []byte
	renders  int
	pending  string // a screen read-back Draw must do before the script goes on
	captured map[string]bool
	failures []string
	log      *bytes.Buffer
	// For a scene that works in the background (live training): its
	// version and frame when the work started, and the slowest Update
	// since.
	version, since int64
	slowest        time.Duration
}

// The frames of each scene's script.
const (
	stepTab     = 0  // click the scene's tab
	stepBefore  = 8  // read the screen back
	stepControl = 9  // click a control of the panel
	stepAfter   = 16 // read the screen back again and compare
	stepKeys    = 18 // keyboard: select the first control, change it
	stepIdle    = 24 // renders must not grow from here on (unless animated); background work starts
)

func runSelftest(g *app.Game, dir string, per int) int {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "selftest:", err)
		return 1
	}
	per = max(per, stepIdle+8)
	t := &selftest{g: g, dir: dir, per: per, names: viz.Names(), log: &bytes.Buffer{}, captured: map[string]bool{}}
	ebiten.SetWindowSize(1280, 800)
	err := ebiten.RunGame(t)
	os.Stdout.Write(t.log.Bytes())
	if err != nil && err != ebiten.Termination {
		fmt.Fprintln(os.Stderr, "selftest:", err)
		return 1
	}
	if len(t.failures) > 0 {
		for _, f := range t.failures {
			fmt.Fprintln(os.Stderr, "selftest: FAIL:", f)
		}
		return 1
	}
	fmt.Printf("selftest: ok, %d scenes, %d frames each\n", len(t.names), t.per)
	return 0
}

func (t *selftest) failf(format string, args ...any) {
	t.failures = append(t.failures, fmt.Sprintf(format, args...))
}

// current returns the scene under test and the frame within its script.
func (t *selftest) current() (int, int) { return t.frame / t.per, t.frame % t.per }

// controlParam picks the first parameter a click can change now: a
// choice with another option that can be chosen (hadamard's tensor has
// none before a tensor is loaded), a number, an int or a bool.
func controlParam(g *app.Game) string {
	for _, p := range g.Scene().Params() {
		if _, ok := g.ControlPoint(p.Name); ok && p.Kind != viz.ParamText {
			return p.Name
		}
	}
	return ""
}

// Update implements ebiten.Game: it runs the script of the current scene.
func (t *selftest) Update() error {
	if t.pending != "" {
		// Ebiten may run several updates per drawn frame: wait for Draw
		// to read the screen back before going on.
		return t.g.Update()
	}
	i, f := t.current()
	if i >= len(t.names) {
		// Last checks: hiding the panel gives the scene the whole window.
		t.g.Key(ebiten.KeyH)
		if !t.g.PanelHidden() || t.g.SceneRect().Min != (image.Point{}) {
			t.failf("H did not hide the panel")
		}
		for _, n := range t.names {
			for _, c := range []string{n + "-before", n} {
				if !t.captured[c] {
					t.failf("%s: the screen was never read back", c)
				}
			}
		}
		return ebiten.Termination
	}
	name := t.names[i]
	switch f {
	case stepTab:
		pt, ok := t.g.TabPoint(name)
		if !ok || !t.g.Click(pt.X, pt.Y) && t.g.SceneName() != name {
			t.failf("%s: clicking its tab did not select it", name)
		}
		if t.g.SceneName() != name {
			t.failf("%s: tab click selected %s", name, t.g.SceneName())
		}
		if _, ok := t.g.Scene().(viz.Animator); ok {
			// Keep the picture still so that the checks below compare
			// the effect of the controls alone.
			_ = t.g.SetParam("animate", "false")
		}
	case stepControl:
		p := controlParam(t.g)
		old, _ := t.g.Param(p)
		pt, ok := t.g.ControlPoint(p)
		if !ok {
			t.failf("%s: no control for %s", name, p)
			break
		}
		t.g.Click(pt.X, pt.Y)
		if v, _ := t.g.Param(p); v == old {
			t.failf("%s: clicking the control of %s at %v left it at %q", name, p, pt, v)
		} else {
			fmt.Fprintf(t.log, "selftest: %s: clicked %s: %q -> %q\n", name, p, old, v)
		}
	case stepKeys:
		t.g.Key(ebiten.KeyArrowDown)
		t.g.Key(ebiten.KeyArrowDown)
		t.g.Key(ebiten.KeyArrowRight)
	case stepBefore:
		t.pending = name + "-before"
	case stepAfter:
		t.pending = name
	case stepIdle:
		t.renders = t.g.Renders()
		if _, ok := t.g.Scene().(viz.Backgrounder); ok {
			// Live training on the scene's own goroutine: the frames
			// must keep coming while it trains.
			t.version, t.since, t.slowest = version(t.g.Scene()), int64(t.frame), 0
			// The control click above may have switched the scene to its
			// shipped runs, which trains nothing: go back to live runs.
			if _, err := t.g.Param("runs"); err == nil {
				if err := t.g.SetParam("runs", "live"); err != nil {
					t.failf("%s: back to live runs: %v", name, err)
				}
			}
			if err := t.g.SetParam("train", "true"); err != nil {
				t.failf("%s: starting the training: %v", name, err)
			}
		}
	case t.per - 2:
		if _, ok := t.g.Scene().(viz.Backgrounder); ok {
			t.pending = name + "-live"
		}
	case t.per - 1:
		if _, anim := t.g.Scene().(viz.Animator); !anim && t.g.Renders() != t.renders {
			t.failf("%s: %d renders while idle: frames are not cached", name, t.g.Renders()-t.renders)
		}
		if _, ok := t.g.Scene().(viz.Backgrounder); ok {
			v := version(t.g.Scene())
			fmt.Fprintf(t.log, "selftest: %s: %d steps trained in the background over %d frames; slowest Update %v\n",
				name, v-t.version, int64(t.frame)-t.since, t.slowest.Round(time.Millisecond))
			if v <= t.version {
				t.failf("%s: nothing trained in the background over %d frames", name, int64(t.frame)-t.since)
			}
			_ = t.g.SetParam("train", "false") // stop the goroutine
		}
	}
	start := time.Now()
	if err := t.g.Update(); err != nil {
		return err
	}
	t.slowest = max(t.slowest, time.Since(start))
	t.frame++
	return nil
}

// version returns a scene's version (0 for scenes without one).
func version(s viz.Scene) int64 {
	if v, ok := s.(viz.Versioned); ok {
		return v.Version()
	}
	return 0
}

// Draw implements ebiten.Game: it draws the app and reads the screen back
// when the script asks for it.
func (t *selftest) Draw(screen *ebiten.Image) {
	t.g.Draw(screen)
	if t.pending == "" {
		return
	}
	name := t.pending
	t.pending = ""
	b := screen.Bounds()
	pix := make([]byte, 4*b.Dx()*b.Dy())
	screen.ReadPixels(pix)
	if v := variance(pix); v < 1 {
		t.failf("%s: the screen is blank (variance %.3f)", name, v)
	}
	if name == t.names[min(t.frame/t.per, len(t.names)-1)] {
		if bytes.Equal(pix, t.before) {
			t.failf("%s: the screen did not change when a control changed", name)
		}
	} else {
		t.before = pix
	}
	t.captured[name] = true
	t.save(name, pix, b)
}

// Layout implements ebiten.Game.
func (t *selftest) Layout(w, h int) (int, int) { return t.g.Layout(w, h) }

// variance returns the variance of the grey level of the pixels.
func variance(pix []byte) float64 {
	var s, s2 float64
	n := float64(len(pix) / 4)
	for i := 0; i+3 < len(pix); i += 4 {
		y := 0.299*float64(pix[i]) + 0.587*float64(pix[i+1]) + 0.114*float64(pix[i+2])
		s += y
		s2 += y * y
	}
	m := s / n
	return s2/n - m*m
}

func (t *selftest) save(name string, pix []byte, b image.Rectangle) {
	img := &image.RGBA{Pix: bytes.Clone(pix), Stride: 4 * b.Dx(), Rect: image.Rect(0, 0, b.Dx(), b.Dy())}
	// The screen has no alpha to speak of: make it opaque for viewers.
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 0xff
	}
	var buf bytes.Buffer
	if err := viz.WritePNG(&buf, img); err != nil {
		t.failf("%s: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(t.dir, name+".png"), buf.Bytes(), 0o644); err != nil {
		t.failf("%s: %v", name, err)
	}
}
