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

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fp8lab/fp8lab/viz/app/internal/ui"
)

// Options configures a Game.
type Options struct {
	// HidePanel hides the tab bar and the control panel: the scene fills the
	// window, and the host drives it through SetScene and SetParam (as the
	// browser playground does with its HTML controls). H toggles them.
	HidePanel bool
}

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
type Game struct {
	*ui.Shell
	scene, panel, tabs *ebiten.Image
}

// New returns a Game showing the scene called name, with its panel.
func New(name string) (*Game, error) { return NewWithOptions(name, Options{}) }

// NewWithOptions returns a Game showing the scene called name.
func NewWithOptions(name string, opts Options) (*Game, error) {
	s, err := ui.New(name, ui.Options{HidePanel: opts.HidePanel})
	if err != nil {
		return nil, err
	}
	return &Game{Shell: s}, nil
}

// Update implements ebiten.Game: it reads the mouse and keyboard and
// advances animated scenes.
func (g *Game) Update() error {
	if inpututilF11() {
		ebiten.SetFullscreen(!ebiten.IsFullscreen())
	}
	g.HandleInput(pollInput())
	g.Animate()
	return nil
}

// Draw implements ebiten.Game: it draws the cached pictures, uploading
// only those that changed.
func (g *Game) Draw(screen *ebiten.Image) {
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
