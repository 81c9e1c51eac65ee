// Package plottest is test support for pictures drawn with package plot,
// as net/http/httptest is for handlers: it reports what a drawing really
// did, so that a test checks the picture rather than a formula for it.
// ProbeText and RecordText collect the texts drawn into a picture (their
// boxes, ink and sizes), TextOverlaps says which of them collide or are
// cut, ObserveAxes hands over every Axes drawn (with what Draw left in it:
// tick labels, the pixels holding data) and ObserveLegends every legend
// and label placed or left out.
//
// Package plot reports to an internal registry that only this package
// reads; with no probe or observer installed, the drawing code does no
// work for them. Nothing in plot's own API exists for tests.
package plottest

import (
	"fmt"
	"image"
	"math"

	"github.com/fp8lab/fp8lab/viz/plot/internal/observe"
)

// TextBox is one text drawn into a picture: the string, its box (the line
// box plot.DrawText returns, or the rotated box of plot.DrawTextRotated),
// its size in pixels and the bounds of the image it was drawn into (a
// sub-image such as Axes.Clip clips it to those).
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

// Clipped reports whether part of the text's box lies outside the image it
// was drawn into, so that the reader sees it cut.
func (t TextBox) Clipped() bool { return !t.Box.In(t.Clip) }

// ProbeText calls draw and returns the size, in pixels, of the smallest
// text that draw put into dst (or any sub-image of it) through
// plot.DrawText and plot.DrawTextRotated, and that text; 0 and "" when it
// drew none. Sizes are those given to the text styles, after the clamp to
// [plot.MinTextSize, plot.MaxTextSize]. Probes of different pictures may
// run at once.
func ProbeText(dst *image.RGBA, draw func()) (size float64, text string) {
	size = math.Inf(1)
	observe.WatchText(dst, false, func(t observe.Text) {
		if t.Size < size {
			size, text = t.Size, t.Text
		}
	}, draw)
	if math.IsInf(size, 1) {
		return 0, ""
	}
	return size, text
}

// RecordText calls draw and returns every text it put into dst (or any
// sub-image of it) through plot.DrawText and plot.DrawTextRotated, in the
// order drawn; text wholly outside the image it was drawn into is not
// drawn and not listed. Tests check with it that no two labels of a
// picture overlap (TextOverlaps).
func RecordText(dst *image.RGBA, draw func()) []TextBox {
	var boxes []TextBox
	observe.WatchText(dst, true, func(t observe.Text) { boxes = append(boxes, TextBox(t)) }, draw)
	return boxes
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
