//go:build js && wasm

package main

import (
	"strconv"
	"strings"
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fp8lab/fp8lab/internal/jsapi"
	"github.com/fp8lab/fp8lab/viz"
)

// game is what the playground needs from the interactive scene: an ebiten
// game whose scene can be changed by the API.
type game interface {
	ebiten.Game
	jsapi.Live
	// QueueButton records a press or release at screen coordinates.
	QueueButton(x, y int, down bool)
	// SetPresentation and Presentation: presentation mode.
	SetPresentation(on bool)
	Presentation() bool
	// Settled reports whether the last frame shows every change.
	Settled() bool
}

// player wraps the game to count frames, record the time of the first one
// (globalThis.fp8labFirstFrame, in performance.now() milliseconds) and tell
// the parent page when the scene's parameters change.
type player struct {
	game
	frames int
	state  string // the parameters as last reported
}

func newPlayer(g game) *player {
	p := &player{game: g}
	p.state = p.snapshot()
	return p
}

// Frames returns the number of frames drawn (the API's frameCount).
func (p *player) Frames() int { return p.frames }

// Update runs the game's update, then reports a parameter change.
func (p *player) Update() error {
	if err := p.game.Update(); err != nil {
		return err
	}
	if s := p.snapshot(); s != p.state {
		p.state = s
		notifyParent(p.Presentation())
	}
	return nil
}

// Draw draws a frame and counts it.
func (p *player) Draw(screen *ebiten.Image) {
	p.game.Draw(screen)
	p.frames++
	if p.frames == 1 {
		js.Global().Set("fp8labFirstFrame", js.Global().Get("performance").Call("now"))
	}
}

// LayoutF passes the game's float layout through when it has one, so that
// wrapping does not change the resolution.
func (p *player) LayoutF(w, h float64) (float64, float64) {
	if lf, ok := p.game.(ebiten.LayoutFer); ok {
		return lf.LayoutF(w, h)
	}
	iw, ih := p.game.Layout(int(w), int(h))
	return float64(iw), float64(ih)
}

// snapshot is the scene's name, parameter values and version (for scenes
// that change by themselves) in one string.
func (p *player) snapshot() string {
	s := p.Scene()
	var b strings.Builder
	b.WriteString(s.Name())
	if p.Presentation() {
		b.WriteString(" present")
	}
	for _, prm := range s.Params() {
		v, _ := s.Get(prm.Name)
		b.WriteString("\x00" + prm.Name + "=" + v)
	}
	if v, ok := s.(viz.Versioned); ok {
		// A training run's facts change with every step: the page reads
		// them again (at most every 200 ms).
		b.WriteString("\x00version=" + strconv.FormatInt(v.Version(), 10))
	}
	return b.String()
}

// notifyParent posts {fp8lab: "change", present} to the parent window
// (asynchronous, so the parent's handler never runs inside Update).
func notifyParent(present bool) {
	w := js.Global().Get("window")
	if w.Type() != js.TypeObject {
		return
	}
	parent := w.Get("parent")
	if parent.Type() != js.TypeObject || parent.Equal(w) {
		return
	}
	origin := w.Get("location").Get("origin").String()
	if origin == "null" || origin == "" {
		origin = "*"
	}
	msg := js.Global().Get("Object").New()
	msg.Set("fp8lab", "change")
	msg.Set("present", present)
	parent.Call("postMessage", msg, origin)
}
