package ui

import (
	"fmt"
	"image"
	"os"
	"strconv"

	"github.com/fp8lab/fp8lab/viz"
)

// Key is a key the Shell reacts to; package app maps ebiten's keys to them.
type Key int

// The keys.
const (
	KeyNone Key = iota
	KeyDigit1
	KeyDigit2
	KeyDigit3
	KeyDigit4
	KeyDigit5
	KeyDigit6
	KeyDigit7
	KeyDigit8
	KeyDigit9
	KeyNextScene // Tab, Page Down
	KeyPrevScene // Shift+Tab, Page Up
	KeyUp
	KeyDown
	KeyLeft
	KeyRight
	KeyEnter
	KeySpace
	KeyEscape
	KeyBackspace
	KeyReset       // R
	KeyTogglePanel // H
	KeySave        // S
	KeyPresent     // P: presentation mode
	KeyExplain     // E: the next page of the explanation, then back to its top
)

// Input is what one tick of the mouse and keyboard brought.
type Input struct {
	X, Y              int     // cursor position
	Pressed, Released bool    // left button went down, went up (see Pointers)
	Down              bool    // left button is held
	Wheel             float64 // vertical wheel movement
	Keys              []Key   // keys pressed (or repeated) this tick
	Chars             []rune  // characters typed this tick
	// Pointers are the presses and releases of this tick in order; when
	// set, Pressed and Released are ignored (a tick may hold a whole
	// click). Events queued by QueuePointer come first.
	Pointers []Pointer
}

// HandleInput applies one tick of input.
func (g *Shell) HandleInput(in Input) {
	g.mu.Lock()
	defer g.mu.Unlock()
	queued := append(g.queue, in.Pointers...)
	g.queue = nil
	if len(queued) > 0 {
		for _, p := range queued {
			g.pointer(p)
		}
		if in.Down && g.drag >= 0 {
			g.dragTo(in.X)
		}
	} else {
		if in.Pressed {
			g.press(in.X, in.Y)
		} else if in.Down && g.drag >= 0 {
			g.dragTo(in.X)
		}
		if in.Released {
			g.drag = -1
		}
	}
	if in.Wheel != 0 {
		g.wheelAt(in.X, in.Y, in.Wheel)
	}
	if g.editing && len(in.Chars) > 0 {
		g.buf += string(in.Chars)
	}
	for _, k := range in.Keys {
		g.key(k)
	}
}

// Click simulates a click (press and release) at window coordinates (x,
// y) and reports whether it did anything.
func (g *Shell) Click(x, y int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	ok := g.press(x, y)
	g.drag = -1
	return ok
}

// Drag simulates pressing the mouse at (x0, y0) and moving it to (x1, y)
// before releasing: on a slider it sets the value under x1.
func (g *Shell) Drag(x0, y0, x1 int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	ok := g.press(x0, y0)
	if g.drag >= 0 {
		ok = g.dragTo(x1) || ok
	}
	g.drag = -1
	return ok
}

// Key simulates pressing k and reports whether it did anything.
func (g *Shell) Key(k Key) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.key(k)
}

// TypeText simulates typing s into the text box being edited.
func (g *Shell) TypeText(s string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.editing {
		g.buf += s
	}
}

// press handles a mouse press at window coordinates.
func (g *Shell) press(x, y int) bool {
	p := image.Pt(x, y)
	if p.In(g.tabsRect()) {
		for i, r := range tabRects(g.names, g.w) {
			if p.In(r) {
				return g.setScene(g.names[i]) == nil
			}
		}
		return false
	}
	if p.In(g.panelRect()) {
		return g.pressPanel(p)
	}
	g.editing = false
	if sr := g.pictureRect(); p.In(sr) {
		return viz.ClickFor(g.scene(), x-sr.Min.X, y-sr.Min.Y, sr.Dx(), sr.Dy(), g.display())
	}
	return false
}

// pressPanel handles a press on the control panel.
func (g *Shell) pressPanel(p image.Point) bool {
	L := g.layout()
	if p.In(L.help) {
		return false
	}
	for i, w := range L.widgets {
		if !p.In(w.row) || !L.shown(w) {
			continue
		}
		if g.editing && g.focus != i {
			g.editing = false
		}
		g.focus = i
		switch {
		case w.p.Kind == viz.ParamChoice:
			for k, r := range w.opts {
				if p.In(r) {
					return g.setParam(w.p.Name, w.p.Options[k]) == nil
				}
			}
		case w.p.Kind == viz.ParamNumber || w.p.Kind == viz.ParamInt:
			if p.In(w.track.Inset(-10)) {
				g.drag = i
				return g.setParam(w.p.Name, sliderValue(w, p.X)) == nil
			}
		case w.p.Kind == viz.ParamBool:
			if p.In(w.toggle.Inset(-4)) {
				v, _ := stepValue(w, 1)
				return g.setParam(w.p.Name, v) == nil
			}
		default:
			if p.In(w.box) {
				g.editing, g.buf = true, w.value
				return true
			}
		}
		return true
	}
	return false
}

// dragTo moves the slider being dragged to window x.
func (g *Shell) dragTo(x int) bool {
	L := g.layout()
	if g.drag < 0 || g.drag >= len(L.widgets) {
		return false
	}
	w := L.widgets[g.drag]
	v := sliderValue(w, x)
	if v == w.value {
		return false
	}
	return g.setParam(w.p.Name, v) == nil
}

// wheelAt turns the wheel over (x, y): over a slider or a choice it steps
// the value, elsewhere on the panel it scrolls the panel, and over the
// explanation it scrolls the explanation.
func (g *Shell) wheelAt(x, y int, dy float64) bool {
	p := image.Pt(x, y)
	if sr, pr := g.sceneRect(), g.pictureRect(); !g.opts.HidePanel && p.In(sr) && p.Y >= pr.Max.Y {
		return g.scrollExplanation(-int(dy * 30))
	}
	if !p.In(g.panelRect()) {
		return false
	}
	L := g.layout()
	dir := 1
	if dy < 0 {
		dir = -1
	}
	for _, w := range L.widgets {
		if p.In(w.row) && L.shown(w) && w.p.Kind != viz.ParamText && w.p.Kind != viz.ParamBool {
			if v, ok := stepValue(w, dir); ok {
				return g.setParam(w.p.Name, v) == nil
			}
			return false
		}
	}
	maxScroll := max(0, L.content-L.view.Dy())
	g.scroll = min(max(g.scroll-int(dy*30), 0), maxScroll)
	return true
}

// key handles one key press.
func (g *Shell) key(k Key) bool {
	L := g.layout()
	if g.editing {
		switch k {
		case KeyEnter:
			g.editing = false
			if g.focus >= 0 && g.focus < len(L.widgets) {
				return g.setParam(L.widgets[g.focus].p.Name, g.buf) == nil
			}
		case KeyEscape:
			g.editing = false
			return true
		case KeyBackspace:
			if r := []rune(g.buf); len(r) > 0 {
				g.buf = string(r[:len(r)-1])
			}
			return true
		}
		return false
	}
	if k >= KeyDigit1 && k <= KeyDigit9 {
		if i := int(k - KeyDigit1); i < len(g.names) {
			return g.setScene(g.names[i]) == nil
		}
		return false
	}
	focused := g.focus >= 0 && g.focus < len(L.widgets)
	switch k {
	case KeyNextScene, KeyPrevScene:
		dir := 1
		if k == KeyPrevScene {
			dir = -1
		}
		return g.setScene(g.names[(g.index()+dir+len(g.names))%len(g.names)]) == nil
	case KeyDown, KeyUp:
		if len(L.widgets) == 0 {
			return false
		}
		d := 1
		if k == KeyUp {
			d = -1
		}
		g.focus = (g.focus + d + len(L.widgets)) % len(L.widgets)
		g.reveal(g.focus)
		return true
	case KeyLeft, KeyRight:
		if !focused {
			return false
		}
		d := 1
		if k == KeyLeft {
			d = -1
		}
		if v, ok := stepValue(L.widgets[g.focus], d); ok {
			return g.setParam(L.widgets[g.focus].p.Name, v) == nil
		}
	case KeyEnter, KeySpace:
		if !focused {
			return false
		}
		w := L.widgets[g.focus]
		switch w.p.Kind {
		case viz.ParamText:
			g.editing, g.buf = true, w.value
			return true
		case viz.ParamBool:
			v, _ := stepValue(w, 1)
			return g.setParam(w.p.Name, v) == nil
		}
	case KeyReset:
		for _, p := range g.scene().Params() {
			_ = g.scene().Set(p.Name, p.Default)
		}
		g.status = ""
		return true
	case KeyTogglePanel:
		g.opts.HidePanel = !g.opts.HidePanel
		return true
	case KeyPresent:
		g.setPresentation(!g.present)
		return true
	case KeyExplain:
		ex := g.explanation(g.sceneRect())
		if g.opts.HidePanel || !ex.scrolls {
			return false
		}
		if g.exScroll >= ex.maxScroll() {
			return g.scrollExplanation(-g.exScroll)
		}
		return g.scrollExplanation(ex.page())
	case KeySave:
		name, err := g.saveScene()
		if err != nil {
			g.status = err.Error()
			return false
		}
		g.status = "saved " + name
		return true
	case KeyEscape:
		g.focus = -1
		return true
	}
	return false
}

// scrollExplanation scrolls the explanation's lines up by d pixels (down
// when negative), within its ends, and reports whether they moved.
func (g *Shell) scrollExplanation(d int) bool {
	ex := g.explanation(g.sceneRect())
	s := min(max(g.exScroll+d, 0), ex.maxScroll())
	if s == g.exScroll {
		return false
	}
	g.exScroll = s
	g.wake()
	return true
}

// index returns the position of the current scene in the tab order.
func (g *Shell) index() int {
	for i, n := range g.names {
		if n == g.cur {
			return i
		}
	}
	return 0
}

// saveScene writes the scene's picture as fp8lab-SCENE-N.png in the
// current directory, with the first N not taken.
func (g *Shell) saveScene() (string, error) {
	if g.sceneRGBA == nil {
		return "", ErrNoScene
	}
	for n := 1; n < 1000; n++ {
		name := "fp8lab-" + g.cur + "-" + strconv.Itoa(n) + ".png"
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if os.IsExist(err) {
			continue
		}
		if err != nil {
			return "", err
		}
		if err := viz.WritePNG(f, g.sceneRGBA); err != nil {
			f.Close()
			return "", err
		}
		return name, f.Close()
	}
	return "", fmt.Errorf("app: too many screenshots in this directory")
}

// reveal scrolls the panel so that widget i is fully visible.
func (g *Shell) reveal(i int) {
	L := g.layout()
	if i < 0 || i >= len(L.widgets) {
		return
	}
	row := L.widgets[i].row
	top, bottom := L.view.Min.Y, L.view.Max.Y
	switch {
	case row.Min.Y < top:
		g.scroll -= top - row.Min.Y
	case row.Max.Y > bottom:
		g.scroll += row.Max.Y - bottom + 8
	}
	g.scroll = max(g.scroll, 0)
}
