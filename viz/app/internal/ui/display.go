package ui

import "github.com/fp8lab/fp8lab/viz"

// The screen a Shell draws for (its pixel ratio and presentation mode),
// the wake-up hook of hosts that draw only when something changed, and the
// queue of pointer events that keeps every click, however short.

// Pointer is one press or release of the left button, in window
// coordinates (device pixels).
type Pointer struct {
	X, Y int
	Down bool // pressed; false: released
}

// maxQueued bounds the pointer queue; older events are dropped first.
const maxQueued = 64

// QueuePointer records a press or release to be handled at the next
// HandleInput, in order, so that a click shorter than a frame is not lost.
func (g *Shell) QueuePointer(p Pointer) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.queue) == maxQueued {
		g.queue = append(g.queue[:0], g.queue[1:]...)
	}
	g.queue = append(g.queue, p)
	g.wake()
}

// pointer applies one queued press or release.
func (g *Shell) pointer(p Pointer) {
	if p.Down {
		g.press(p.X, p.Y)
		return
	}
	g.drag = -1
}

// SetPixelRatio sets the number of device pixels per CSS pixel of the
// screen (the window is measured in device pixels): text is sized so that
// it reads the same on any screen.
func (g *Shell) SetPixelRatio(r float64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if r != g.ratio {
		g.ratio = r
		g.wake()
	}
}

// SetPresentation turns presentation mode on or off: the tab bar and the
// panel hidden, and larger type for the back of a room. Off brings back
// the panel as it was.
func (g *Shell) SetPresentation(on bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.setPresentation(on)
}

func (g *Shell) setPresentation(on bool) {
	if on == g.present {
		return
	}
	g.present = on
	if on {
		g.panelBefore, g.opts.HidePanel = g.opts.HidePanel, true
	} else {
		g.opts.HidePanel = g.panelBefore
	}
	g.wake()
}

// Presentation reports whether presentation mode is on.
func (g *Shell) Presentation() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.present
}

// display is what the scene's picture is drawn for.
func (g *Shell) display() viz.Display {
	d := viz.Display{PixelRatio: g.ratio}
	if g.present {
		d.TextScale = viz.PresentationTextScale
	}
	return d
}

// wake tells the host that the window must be drawn again (Options.Wake).
func (g *Shell) wake() {
	if g.opts.Wake != nil {
		g.opts.Wake()
	}
}

// backgroundWake is the wake-up a background scene calls from its own
// goroutine, without the Shell's lock: it only asks the host for a frame.
func (g *Shell) backgroundWake() {
	if w := g.opts.Wake; w != nil {
		w()
	}
}
