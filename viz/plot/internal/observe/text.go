package observe

import (
	"image"
	"strings"
	"sync"
	"sync/atomic"
)

// Text is one text drawn into a picture: the string, its box (the line
// box of plot.DrawText, or the rotated box of plot.DrawTextRotated), the
// pixels its glyphs cover inside the box (when the probe asked for them),
// the bounds of the image it was drawn into and its size in pixels, after
// the clamp to plot's text size limits.
type Text struct {
	Text string
	Box  image.Rectangle
	Ink  image.Rectangle
	Clip image.Rectangle
	Size float64
}

// textProbe is one WatchText call's callback.
type textProbe struct {
	ink bool
	f   func(Text)
}

// probes holds the text probes of the pictures being watched.
var probes struct {
	n  atomic.Int32 // how many probes are installed, read without the lock
	mu sync.Mutex   // guards by and serialises the callbacks
	by map[Picture][]*textProbe
}

// WatchText calls draw and, while it runs, f with every text drawn into
// dst's picture (dst or any sub-image of it) through plot's DrawText and
// DrawTextRotated, in the order drawn; Text.Ink is measured only when ink
// is set. Blank texts and texts wholly outside the image they were drawn
// into are not drawn and not reported. The calls of f are serialised.
// Probes of different pictures, and several of one picture, may run at
// once. A nil dst or one without pixels is no picture: draw runs unwatched.
func WatchText(dst *image.RGBA, ink bool, f func(Text), draw func()) {
	pic := PictureOf(dst)
	if pic == (Picture{}) {
		draw()
		return
	}
	p := &textProbe{ink: ink, f: f}
	probes.mu.Lock()
	if probes.by == nil {
		probes.by = map[Picture][]*textProbe{}
	}
	probes.by[pic] = append(probes.by[pic], p)
	probes.n.Add(1)
	probes.mu.Unlock()
	defer func() {
		probes.mu.Lock()
		defer probes.mu.Unlock()
		rest := probes.by[pic][:0]
		for _, q := range probes.by[pic] {
			if q != p {
				rest = append(rest, q)
			}
		}
		if len(rest) == 0 {
			delete(probes.by, pic)
		} else {
			probes.by[pic] = rest
		}
		probes.n.Add(-1)
	}()
	draw()
}

// NoteText tells the probes of dst's picture, if any, that s was drawn
// into dst at size in box. ink measures the pixels the glyphs cover; it is
// called only for a probe that asked for them, and not kept.
func NoteText(dst *image.RGBA, s string, size float64, box image.Rectangle, ink func() image.Rectangle) {
	if probes.n.Load() == 0 || strings.TrimSpace(s) == "" {
		return
	}
	pic := PictureOf(dst)
	probes.mu.Lock()
	defer probes.mu.Unlock()
	t := Text{Text: s, Box: box, Clip: dst.Bounds(), Size: size}
	measured := false
	for _, p := range probes.by[pic] {
		if p.ink && !measured {
			t.Ink, measured = ink(), true
		}
		p.f(t)
	}
}
