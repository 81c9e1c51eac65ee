package plot

import (
	"fmt"
	"image"
	"math"
	"strings"
	"sync"
	"sync/atomic"
)

// Text probes: a test or a page asks what size the smallest text drawn
// into a picture really is (legends, fitted labels and wrapped captions
// included), rather than trusting a formula for it.

// probes maps the end of a picture's pixel buffer (shared by every
// subimage of it, so text drawn through Axes.Clip counts) to its probe.
var (
	probes      sync.Map // *uint8 -> *textProbe
	probesCount atomic.Int32
)

type textProbe struct {
	mu       sync.Mutex
	smallest float64
	text     string
	record   bool      // keep every box (RecordText)
	boxes    []TextBox // what was drawn, in order, when record is set
}

// TextBox is one text drawn into a picture: the string, its box (the line
// box DrawText returns, or the rotated box of DrawTextRotated), its size in
// pixels and the bounds of the image it was drawn into (a sub-image such
// as Axes.Clip clips it to those).
type TextBox struct {
	Text string
	Box  image.Rectangle
	// Ink bounds the pixels the glyphs cover, inside Box: a line box is
	// as tall as the font's ascent and descent, which text without
	// descenders or accents ("0x7E") leaves partly empty. Rotated text
	// gets its whole box.
	Ink  image.Rectangle
	Clip image.Rectangle
	Size float64
}

// TextOverlaps describes the texts of boxes that are cut by the edge of
// the image they were drawn into, and the pairs whose boxes overlap, one
// line each; none when the texts stand apart. A pair for which byInk
// (if given) is true is compared by its ink instead, which must keep a
// clear pixel between: for labels whose letters are known to leave their
// line boxes' descent empty.
func TextOverlaps(boxes []TextBox, byInk ...func(a, b TextBox) bool) []string {
	var out []string
	for i, a := range boxes {
		if a.Clipped() {
			out = append(out, fmt.Sprintf("%q %v cut by %v", a.Text, a.Box, a.Clip))
		}
		for _, b := range boxes[i+1:] {
			ink := false
			for _, f := range byInk {
				ink = ink || f(a, b)
			}
			switch {
			case ink && a.Ink.Inset(-1).Overlaps(b.Ink):
				out = append(out, fmt.Sprintf("%q ink %v and %q ink %v", a.Text, a.Ink, b.Text, b.Ink))
			case !ink && a.Box.Overlaps(b.Box):
				out = append(out, fmt.Sprintf("%q %v and %q %v", a.Text, a.Box, b.Text, b.Box))
			}
		}
	}
	return out
}

// Clipped reports whether part of the text's box lies outside the image it
// was drawn into, so that the reader sees it cut.
func (t TextBox) Clipped() bool { return !t.Box.In(t.Clip) }

// bufferKey identifies the pixel buffer of dst and of every subimage of it.
func bufferKey(dst *image.RGBA) *uint8 {
	if dst == nil || cap(dst.Pix) == 0 {
		return nil
	}
	p := dst.Pix[:cap(dst.Pix)]
	return &p[len(p)-1]
}

// ProbeText calls draw and returns the size, in pixels, of the smallest
// text that draw put into dst (or any subimage of it) through DrawText and
// DrawTextRotated, and that text; 0 and "" when it drew none. Sizes are
// those given to the text styles, after the clamp to
// [MinTextSize, MaxTextSize]. Probes of different pictures may run at once.
func ProbeText(dst *image.RGBA, draw func()) (size float64, text string) {
	key := bufferKey(dst)
	if key == nil {
		draw()
		return 0, ""
	}
	p := probe(key, false, draw)
	if math.IsInf(p.smallest, 1) {
		return 0, ""
	}
	return p.smallest, p.text
}

// RecordText calls draw and returns every text it put into dst (or any
// subimage of it) through DrawText and DrawTextRotated, in the order drawn;
// text wholly outside the image it was drawn into is not drawn and not
// listed. Tests check with it that no two labels of a picture overlap.
func RecordText(dst *image.RGBA, draw func()) []TextBox {
	key := bufferKey(dst)
	if key == nil {
		draw()
		return nil
	}
	return probe(key, true, draw).boxes
}

// probe runs draw with a probe on the buffer key.
func probe(key *uint8, record bool, draw func()) *textProbe {
	p := &textProbe{smallest: math.Inf(1), record: record}
	probes.Store(key, p)
	probesCount.Add(1)
	defer func() {
		probes.Delete(key)
		probesCount.Add(-1)
	}()
	draw()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p
}

// noteText tells the probe of dst, if any, that s was drawn at size in
// box.
func noteText(dst *image.RGBA, s string, size float64, box image.Rectangle, ink func() image.Rectangle) {
	if probesCount.Load() == 0 || strings.TrimSpace(s) == "" {
		return
	}
	v, ok := probes.Load(bufferKey(dst))
	if !ok {
		return
	}
	p := v.(*textProbe)
	p.mu.Lock()
	if size < p.smallest {
		p.smallest, p.text = size, s
	}
	if p.record {
		p.boxes = append(p.boxes, TextBox{Text: s, Box: box, Ink: ink(), Clip: dst.Bounds(), Size: size})
	}
	p.mu.Unlock()
}

// WrapText breaks s at spaces into lines no wider than width pixels in
// style ts. A single word wider than width gets a line of its own.
func WrapText(s string, width int, ts TextStyle) []string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(s) {
		try := w
		if cur != "" {
			try = cur + " " + w
		}
		if cur != "" && MeasureText(try, ts).Width > width {
			lines = append(lines, cur)
			cur = w
			continue
		}
		cur = try
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}
