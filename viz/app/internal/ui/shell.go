// Package ui is the display-independent part of the fp8lab app: the
// scene tabs, the control panel generated from a scene's parameters, the
// input handlers and the cached pictures, all drawn into image.RGBA with
// viz/plot. Package app wraps a Shell into an ebiten.Game; keeping ebiten
// out of this package lets its tests run without a display.
package ui

import (
	"errors"
	"fmt"
	"image"
	"sort"
	"strings"
	"sync"

	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/viz"
)

// Shell shows one scene at a time with its tabs and control panel. Its
// methods are safe for concurrent use: a browser's event callbacks may call
// them while the frame loop runs.
type Shell struct {
	mu     sync.Mutex
	opts   Options
	names  []string
	scenes map[string]viz.Scene
	cur    string
	loaded map[string]bool // scenes that were handed a tensor
	w, h   int             // window size from Layout

	focus    int    // focused widget, -1 for none
	editing  bool   // a text parameter is being typed
	buf      string // what has been typed
	status   string // last error
	scroll   int    // panel scroll offset
	exScroll int    // explanation scroll offset, in pixels
	drag     int    // widget whose slider is being dragged, -1 for none

	ratio       float64   // device pixels per CSS pixel (0: 1)
	present     bool      // presentation mode
	panelBefore bool      // HidePanel before presentation mode
	queue       []Pointer // pointer events not yet handled

	// Cached pictures: re-rendered only when their signature changes.
	sceneRGBA, panelRGBA, tabsRGBA *image.RGBA
	sceneSig, panelSig, tabsSig    string
	stripSig                       string // the explanation strip's, within sceneRGBA
	renders                        int
}

// Options configures a Shell.
type Options struct {
	// HidePanel hides the tab bar and the control panel.
	HidePanel bool
	// Wake, if set, is called (with the Shell locked: it must not call
	// back) whenever something changes that must be drawn: a parameter,
	// the scene, the panel, the pixel ratio, a queued click. Hosts that
	// draw only on demand schedule a frame in it. With Background it is
	// also called from the goroutines of scenes that work in the
	// background, without the lock.
	Wake func()
	// Background lets scenes that do long work (viz.Backgrounder: live
	// training) do it on their own goroutine instead of in Animate's
	// slices: for hosts with threads to spare (the desktop app, not the
	// single-threaded browser).
	Background bool
}

// New returns a Shell showing the scene called name.
func New(name string, opts Options) (*Shell, error) {
	g := &Shell{opts: opts, names: viz.Names(), scenes: map[string]viz.Scene{}, loaded: map[string]bool{}, focus: -1, drag: -1, w: 1280, h: 800}
	if err := g.setScene(name); err != nil {
		return nil, err
	}
	return g, nil
}

// SetScene switches to the scene called name, keeping the parameters each
// scene had when it was last shown.
func (g *Shell) SetScene(name string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.setScene(name)
}

func (g *Shell) setScene(name string) error {
	s, ok := g.scenes[name]
	if !ok {
		var err error
		if s, err = viz.New(name); err != nil {
			return err
		}
		if b, ok := s.(viz.Backgrounder); ok && g.opts.Background {
			b.RunInBackground(g.backgroundWake)
		}
		g.scenes[name] = s
	}
	if g.cur != name {
		g.focus, g.editing, g.scroll, g.drag, g.status, g.exScroll = -1, false, 0, -1, "", 0
	}
	g.cur = name
	g.wake()
	return nil
}

// SetParam sets a parameter of the current scene; a bad value is an error
// (also shown in the panel) and changes nothing.
func (g *Shell) SetParam(name, value string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.setParam(name, value)
}

func (g *Shell) setParam(name, value string) error {
	if err := g.scene().Set(name, value); err != nil {
		g.status = strings.TrimPrefix(err.Error(), viz.ErrParam.Error()+": ")
		return err
	}
	g.status = problemText(g.scene())
	g.wake()
	return nil
}

// problemText is the panel's line for the scene's control problems (a
// value another control's change left unusable), "" when there are none.
func problemText(s viz.Scene) string {
	probs := viz.Problems(s)
	names := make([]string, 0, len(probs))
	for k := range probs {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []string
	for _, k := range names {
		label := k
		for _, p := range s.Params() {
			if p.Name == k {
				label = p.Label
			}
		}
		out = append(out, label+": "+probs[k])
	}
	return strings.Join(out, "; ")
}

// LoadTensor shows t in the current scene, which must be a viz.TensorLoader
// (the window scene). A tensor is not a parameter, so the cached picture is
// dropped here: loading a second file redraws even when every parameter
// stays the same.
func (g *Shell) LoadTensor(t *scaling.Tensor) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	l, ok := g.scene().(viz.TensorLoader)
	if !ok {
		return fmt.Errorf("%w: scene %q cannot show a loaded tensor", viz.ErrParam, g.cur)
	}
	if err := l.LoadTensor(t); err != nil {
		g.status = err.Error()
		return err
	}
	g.status, g.sceneSig, g.loaded[g.cur] = "", "", true
	g.wake()
	return nil
}

// Param returns a parameter of the current scene.
func (g *Shell) Param(name string) (string, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.scene().Get(name)
}

// Scene returns the current scene. Change it through SetParam, or lock
// out concurrent use yourself: the frame loop draws it on its own goroutine.
func (g *Shell) Scene() viz.Scene {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.scene()
}

func (g *Shell) scene() viz.Scene { return g.scenes[g.cur] }

// SceneName returns the name of the current scene.
func (g *Shell) SceneName() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.cur
}

// SetPanelHidden hides or shows the tab bar and the control panel.
func (g *Shell) SetPanelHidden(hide bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.opts.HidePanel = hide
	g.wake()
}

// PanelHidden reports whether the tab bar and the control panel are hidden.
func (g *Shell) PanelHidden() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.opts.HidePanel
}

// Renders returns how many times a scene has been rendered: it grows only
// when a parameter or the size changes, not at every frame.
func (g *Shell) Renders() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.renders
}

// Status returns the last error shown in the panel ("" when none).
func (g *Shell) Status() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.status
}

// Layout is ebiten.Game's Layout: the screen is as large as the window, in
// logical pixels.
func (g *Shell) Layout(outsideWidth, outsideHeight int) (int, int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.w, g.h = max(outsideWidth, 1), max(outsideHeight, 1)
	return g.w, g.h
}

// Areas of the window.
func (g *Shell) tabsRect() image.Rectangle {
	if g.opts.HidePanel {
		return image.Rectangle{}
	}
	return image.Rect(0, 0, g.w, TabHeight)
}

func (g *Shell) panelRect() image.Rectangle {
	if g.opts.HidePanel {
		return image.Rectangle{}
	}
	return image.Rect(0, TabHeight, min(PanelWidth, g.w), g.h)
}

// SceneRect returns where the scene's picture goes in the window.
func (g *Shell) SceneRect() image.Rectangle {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.sceneRect()
}

func (g *Shell) sceneRect() image.Rectangle {
	if g.opts.HidePanel {
		return image.Rect(0, 0, g.w, g.h)
	}
	return image.Rect(min(PanelWidth, g.w), TabHeight, g.w, g.h)
}

// pictureRect is the part of the scene area the scene's picture fills, in
// window coordinates: all of it, less the explanation under it when the
// panel shows (the browser shows the explanation in the page instead).
func (g *Shell) pictureRect() image.Rectangle {
	sr := g.sceneRect()
	if g.opts.HidePanel {
		return sr
	}
	sr.Max.Y -= g.explanation(sr).height
	return sr
}

// explanation lays out the current scene's explanation for a scene area.
func (g *Shell) explanation(sr image.Rectangle) explainLayout {
	return layoutExplanation(sr.Dx(), sr.Dy(), g.scene().Explain().Paragraphs())
}

// values returns the current scene's parameter values.
func (g *Shell) values() map[string]string {
	out := map[string]string{}
	for _, p := range g.scene().Params() {
		v, _ := g.scene().Get(p.Name)
		out[p.Name] = v
	}
	return out
}

func (g *Shell) layout() panelLayout {
	L := layoutPanel(g.panelRect(), g.scene().Params(), g.values(), g.scroll)
	for i, w := range L.widgets {
		for _, o := range w.p.Options {
			L.widgets[i].off = append(L.widgets[i].off, g.optionOff(o))
		}
	}
	return L
}

// optionOff reports whether option o of the current scene's choices cannot
// be chosen now: the loaded tensor, before one was loaded. The panel greys
// it, stepping skips it, and a click on it shows the scene's reason.
func (g *Shell) optionOff(o string) bool {
	_, loader := g.scene().(viz.TensorLoader)
	return loader && o == viz.LoadedTensor && !g.loaded[g.cur]
}

// signature identifies what a scene picture depends on.
func (g *Shell) signature() string {
	var b strings.Builder
	r := g.pictureRect()
	fmt.Fprintf(&b, "%s %dx%d %v", g.cur, r.Dx(), r.Dy(), g.display())
	for _, p := range g.scene().Params() {
		v, _ := g.scene().Get(p.Name)
		b.WriteString(";" + p.Name + "=" + v)
	}
	if v, ok := g.scene().(viz.Versioned); ok {
		fmt.Fprintf(&b, ";version=%d", v.Version())
	}
	return b.String()
}

// refresh re-renders whatever changed since the last call and reports
// which pictures are new.
func (g *Shell) refresh() (scene, panel, tabs bool) {
	sr := g.sceneRect()
	sig := g.signature()
	if sig != g.sceneSig || g.sceneRGBA == nil {
		if g.sceneRGBA == nil || g.sceneRGBA.Rect.Size() != sr.Size() {
			g.sceneRGBA = image.NewRGBA(image.Rect(0, 0, max(sr.Dx(), 1), max(sr.Dy(), 1)))
		}
		pic := g.sceneRGBA
		if !g.opts.HidePanel {
			// The picture above, the explanation below it.
			pic = g.sceneRGBA.SubImage(image.Rect(0, 0, sr.Dx(), sr.Dy()-g.explanation(sr).height)).(*image.RGBA)
		}
		if err := viz.RenderFor(g.scene(), pic, g.display()); err != nil {
			errorImage(pic, err.Error())
		}
		g.renders++
		g.sceneSig, g.stripSig, scene = sig, "", true
	}
	if !g.opts.HidePanel {
		// Scrolling the explanation redraws the strip, not the picture.
		ex := g.explanation(sr)
		g.exScroll = min(max(g.exScroll, 0), ex.maxScroll())
		if ssig := fmt.Sprintf("%s %d", sig, g.exScroll); ssig != g.stripSig {
			strip, _ := g.sceneRGBA.SubImage(image.Rect(0, sr.Dy()-ex.height, sr.Dx(), sr.Dy())).(*image.RGBA)
			drawExplanation(strip, ex, g.exScroll)
			g.stripSig, scene = ssig, true
		}
	}
	if g.opts.HidePanel {
		return scene, false, false
	}
	pr := g.panelRect()
	psig := fmt.Sprintf("%s %v %d %v %q %q %d %v", g.sceneSig, pr, g.focus, g.editing, g.buf, g.status, g.scroll, g.loaded[g.cur])
	if psig != g.panelSig || g.panelRGBA == nil {
		if g.panelRGBA == nil || g.panelRGBA.Rect != pr {
			g.panelRGBA = image.NewRGBA(pr)
		}
		drawPanel(g.panelRGBA, g.layout(), panelState{focus: g.focus, editing: g.editing, buf: g.buf, status: g.status})
		g.panelSig, panel = psig, true
	}
	tr := g.tabsRect()
	if tsig := fmt.Sprintf("%s %v", g.cur, tr); tsig != g.tabsSig || g.tabsRGBA == nil {
		if g.tabsRGBA == nil || g.tabsRGBA.Rect != tr {
			g.tabsRGBA = image.NewRGBA(tr)
		}
		drawTabs(g.tabsRGBA, g.names, g.cur)
		g.tabsSig, tabs = tsig, true
	}
	return scene, panel, tabs
}

// Snapshot renders the whole window as it would appear at w×h, without
// ebiten: for screenshots and for tests on machines without a display.
func (g *Shell) Snapshot(w, h int) *image.RGBA {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.w, g.h = max(w, 1), max(h, 1)
	g.refresh()
	out := image.NewRGBA(image.Rect(0, 0, g.w, g.h))
	copyInto(out, g.sceneRGBA, g.sceneRect().Min)
	if !g.opts.HidePanel {
		copyInto(out, g.panelRGBA, g.panelRect().Min)
		copyInto(out, g.tabsRGBA, image.Point{})
	}
	return out
}

// copyInto copies src (whose bounds may start anywhere) to dst at at.
func copyInto(dst, src *image.RGBA, at image.Point) {
	if src == nil {
		return
	}
	b := src.Bounds()
	for y := 0; y < b.Dy(); y++ {
		dy := at.Y + y
		if dy < 0 || dy >= dst.Rect.Dy() {
			continue
		}
		n := min(b.Dx(), dst.Rect.Dx()-at.X)
		if n <= 0 {
			return
		}
		copy(dst.Pix[dst.PixOffset(at.X, dy):][:4*n], src.Pix[src.PixOffset(b.Min.X, b.Min.Y+y):][:4*n])
	}
}

// ErrNoScene is returned by SaveScene when nothing has been rendered yet.
var ErrNoScene = errors.New("ui: no scene rendered yet")

// Animate runs one tick of the current scene's animation, if it has one,
// and reports whether it changed the scene (so another frame is due).
func (g *Shell) Animate() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if a, ok := g.scene().(viz.Animator); ok && g.drag < 0 {
		return a.Animate()
	}
	return false
}

// Frame is what one drawn frame shows: the pictures and where they go,
// and which of them changed since the last frame.
type Frame struct {
	Scene, Panel, Tabs          *image.RGBA // Panel and Tabs are nil when hidden
	SceneAt, PanelAt            image.Point
	SceneNew, PanelNew, TabsNew bool
}

// WithFrame brings the pictures up to date for a w×h window, re-rendering
// only what changed, and calls fn with them while holding the Shell's lock
// (so fn may upload them without another goroutine rendering into them).
func (g *Shell) WithFrame(w, h int, fn func(Frame)) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.w, g.h = max(w, 1), max(h, 1)
	sn, pn, tn := g.refresh()
	f := Frame{Scene: g.sceneRGBA, SceneAt: g.sceneRect().Min, SceneNew: sn}
	if !g.opts.HidePanel {
		f.Panel, f.PanelAt, f.PanelNew = g.panelRGBA, g.panelRect().Min, pn
		f.Tabs, f.TabsNew = g.tabsRGBA, tn
	}
	fn(f)
}
