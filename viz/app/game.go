// Package app is the interactive shell around the viz scenes: an
// ebiten.Game with a tab bar to switch scenes, a control panel generated
// from each scene's parameters, and the scene's picture, re-rendered only
// when a parameter or the window size changes.
//
// The desktop app (cmd/fp8lab-desktop) runs it in a window; the browser
// playground (wasm/) runs the same Game in a canvas with Options.HidePanel
// and drives it from HTML controls through SetScene and SetParam.
//
// Native builds need cgo and, on Linux, the X11/GL development headers, and
// ebiten's init panics without a display; so only cmd/fp8lab-desktop and
// wasm/ import this package. The logic lives in viz/app/internal/ui, which
// does not import ebiten and is tested without a display.
package app

import (
	"image"
	"sync/atomic"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fp8lab/fp8lab/viz/app/internal/ui"
)

// Options configures a Game.
type Options struct {
	// HidePanel hides the tab bar and the control panel: the scene fills the
	// window, and the host drives it through SetScene and SetParam (as the
	// browser playground does with its HTML controls). H toggles them.
	HidePanel bool
	// ExternalPointer says the host queues the left button's presses and
	// releases itself (QueuePointer, as the browser playground does from
	// the canvas's pointer events); the Game then does not read them from
	// ebiten.
	ExternalPointer bool
	// Wake, if set, is called after every frame the Game schedules (a
	// change, a queued click, an animation step), from any goroutine: the
	// browser build uses it to restart its parked frame loop.
	Wake func()
	// Background lets scenes with long work (live training) do it on their
	// own goroutine (ui.Options.Background): for the desktop app; the
	// browser, single-threaded, leaves it off and trains between frames.
	Background bool
}

// The smallest window a host should allow (ebiten.SetWindowSizeLimits),
// in logical pixels: the shell lays its tabs and panel out for every size
// from it up.
const (
	MinWindowWidth  = ui.MinWindowWidth
	MinWindowHeight = ui.MinWindowHeight
)

// Game is an ebiten.Game showing one scene at a time. Besides the
// ebiten.Game methods it has those of the display-independent shell, all
// safe to call from other goroutines while ebiten runs it:
//
//   - SetScene(name) error, SceneName() string, Scene() viz.Scene;
//   - SetParam(name, value) error, Param(name) (string, error), Status() string;
//   - SetPanelHidden(bool), PanelHidden() bool, SceneRect() image.Rectangle;
//   - Click(x, y), Drag(x0, y0, x1), TypeText(s): synthetic input in window
//     coordinates, and ControlPoint(param), TabPoint(scene) to find where;
//   - Renders() int: how many times a scene was rendered (not once per frame);
//   - Snapshot(w, h) *image.RGBA: the whole window, drawn without ebiten.
//   - QueueButton(x, y, down): a press or release to handle at the next
//     Update, in order (QueuePointer in the shell's terms);
//   - SetPresentation(on), Presentation() bool: presentation mode (P);
//   - Settled() bool: whether the screen shows every change made so far.
//
// Every change schedules a frame (ebiten.ScheduleFrame), so a host may run
// it with ebiten.FPSModeVsyncOffMinimum and draw only when something
// changed.
type Game struct {
	*ui.Shell
	scene, panel, tabs *ebiten.Image
	external           bool   // Options.ExternalPointer
	onWake             func() // Options.Wake
	// Wake-ups asked for and those drawn: equal when the screen shows
	// every change.
	scheduled, drawn atomic.Int64
	// animating says the last Update advanced an animation: another frame
	// is due after the one drawn next.
	animating atomic.Bool
}

// New returns a Game showing the scene called name, with its panel.
func New(name string) (*Game, error) { return NewWithOptions(name, Options{}) }

// NewWithOptions returns a Game showing the scene called name.
func NewWithOptions(name string, opts Options) (*Game, error) {
	g := &Game{external: opts.ExternalPointer, onWake: opts.Wake}
	s, err := ui.New(name, ui.Options{HidePanel: opts.HidePanel, Wake: g.wake, Background: opts.Background})
	if err != nil {
		return nil, err
	}
	g.Shell = s
	return g, nil
}

// wake schedules a frame to show a change.
func (g *Game) wake() {
	g.scheduled.Add(1)
	ebiten.ScheduleFrame()
	if g.onWake != nil {
		g.onWake()
	}
}

// Settled reports whether the last frame drawn shows every change made so
// far (parameters, scene, clicks, size of text): with
// FPSModeVsyncOffMinimum, no frame is due.
func (g *Game) Settled() bool { return g.drawn.Load() == g.scheduled.Load() }

// Update implements ebiten.Game: it reads the mouse and keyboard and
// advances animated scenes.
func (g *Game) Update() error {
	if inpututilF11() {
		ebiten.SetFullscreen(!ebiten.IsFullscreen())
	}
	g.HandleInput(pollInput(!g.external))
	if g.Animate() {
		g.animating.Store(true)
		g.wake()
	}
	return nil
}

// QueueButton records a press (down) or release of the left button at
// window coordinates (x, y), in device pixels, to be handled at the next
// Update: no click is lost, however short, and a frame is scheduled.
func (g *Game) QueueButton(x, y int, down bool) {
	g.QueuePointer(ui.Pointer{X: x, Y: y, Down: down})
}

// LayoutF implements ebiten.LayoutFer: the screen has as many pixels as
// the window has device pixels (the window's size times the device scale
// factor), so that the scene is drawn at the screen's real resolution, its
// text sized for the scale factor.
func (g *Game) LayoutF(outsideWidth, outsideHeight float64) (float64, float64) {
	r := ebiten.Monitor().DeviceScaleFactor()
	if r <= 0 {
		r = 1
	}
	g.SetPixelRatio(r)
	w, h := g.Layout(int(outsideWidth*r), int(outsideHeight*r))
	return float64(w), float64(h)
}

// Draw implements ebiten.Game: it draws the cached pictures, uploading
// only those that changed.
func (g *Game) Draw(screen *ebiten.Image) {
	seen := g.scheduled.Load()
	defer func() {
		g.drawn.Store(seen)
		// An animation (a training run) that stepped in this frame's
		// Update wants the next frame too: without this wake-up the frame
		// would count as settled and a host that parks its loop while
		// settled (the browser) would stop the animation after one step.
		if g.animating.Swap(false) {
			g.wake()
		}
	}()
	b := screen.Bounds()
	g.WithFrame(b.Dx(), b.Dy(), func(f ui.Frame) {
		put := func(img **ebiten.Image, src *image.RGBA, changed bool, at image.Point) {
			if src == nil {
				return
			}
			if changed || *img == nil || (*img).Bounds().Size() != src.Bounds().Size() {
				upload(img, src)
			}
			op := &ebiten.DrawImageOptions{}
			op.GeoM.Translate(float64(at.X), float64(at.Y))
			screen.DrawImage(*img, op)
		}
		put(&g.scene, f.Scene, f.SceneNew, f.SceneAt)
		put(&g.panel, f.Panel, f.PanelNew, f.PanelAt)
		put(&g.tabs, f.Tabs, f.TabsNew, image.Point{})
	})
}

// Key simulates pressing the ebiten key k and reports whether it did
// anything.
func (g *Game) Key(k ebiten.Key) bool {
	if u := mapKey(k, false); u != ui.KeyNone {
		return g.Shell.Key(u)
	}
	return false
}

// upload copies src into *img, making a new image when the size changed.
func upload(img **ebiten.Image, src *image.RGBA) {
	b := src.Bounds()
	if *img == nil || (*img).Bounds().Dx() != b.Dx() || (*img).Bounds().Dy() != b.Dy() {
		if *img != nil {
			(*img).Deallocate()
		}
		*img = ebiten.NewImage(b.Dx(), b.Dy())
	}
	(*img).WritePixels(src.Pix)
}
