package ui

import (
	"image"

	"github.com/fp8lab/fp8lab/viz/plot"
)

// The scene's explanation, under its picture: the same paragraphs the
// site shows beside the canvas and `fp8lab render --explain` prints,
// wrapped to the width of the scene area. An explanation taller than its
// share of the area scrolls (wheel over the strip, or E), so that every
// word of it can be read in the app.

// Sizes of the explanation strip, in logical pixels.
const (
	explainPad = 12
	// explainShare is the largest part of the scene area's height the
	// explanation may take; the picture keeps the rest.
	explainShare = 0.45
)

// explainSizes are the text sizes tried, largest first, until the whole
// explanation fits its share of the height; at the smallest it scrolls.
var explainSizes = []float64{16, 15, 14, 13}

// explainLayout is the explanation wrapped for one scene area.
type explainLayout struct {
	ts      plot.TextStyle
	paras   [][]string // the lines of each paragraph, all of them
	height  int        // of the strip, 0 when there is nothing to show
	content int        // height of all the lines
	scrolls bool       // the lines do not fit: the strip scrolls
}

// layoutExplanation wraps paras to a w-wide strip under a scene area h
// tall, at the largest size of explainSizes at which every line fits in
// explainShare of h; at the smallest size the strip takes that share and
// scrolls.
func layoutExplanation(w, h int, paras []string) explainLayout {
	var L explainLayout
	if len(paras) == 0 || w < 4*explainPad {
		return L
	}
	limit := int(float64(h) * explainShare)
	for _, size := range explainSizes {
		L = explainLayout{ts: plot.TextStyle{Font: plot.FontRegular, Size: size, Color: textColor, VAlign: plot.AlignTop}}
		lh := lineHeight(L.ts)
		for i, p := range paras {
			if i > 0 {
				L.content += lh / 2
			}
			lines := plot.WrapText(p, w-2*explainPad, L.ts)
			L.paras = append(L.paras, lines)
			L.content += len(lines) * lh
		}
		L.height = L.content + 2*explainPad
		if L.height <= limit {
			return L
		}
	}
	L.height, L.scrolls = limit, true
	return L
}

func lineHeight(ts plot.TextStyle) int { return plot.MeasureText("Xg", ts).Height() + 3 }

// view is the height of the part of the strip that shows lines: all of it
// but the padding and, when it scrolls, the line of the scroll cue.
func (L explainLayout) view() int {
	v := L.height - 2*explainPad
	if L.scrolls {
		v -= lineHeight(L.ts)
	}
	return max(v, 0)
}

// maxScroll is how far the lines scroll up at most.
func (L explainLayout) maxScroll() int { return max(L.content-L.view(), 0) }

// page is how far one E scrolls: a view less one line, so that a line cut
// at the bottom shows whole at the top of the next page.
func (L explainLayout) page() int { return max(L.view()-lineHeight(L.ts), lineHeight(L.ts)) }

// placedLine is one line of the explanation at its offset from the top of
// the text.
type placedLine struct {
	text string
	y    int
}

// lines returns every line with its offset from the top of the text.
func (L explainLayout) lines() []placedLine {
	var out []placedLine
	lh, y := lineHeight(L.ts), 0
	for i, lines := range L.paras {
		if i > 0 {
			y += lh / 2
		}
		for _, l := range lines {
			out = append(out, placedLine{l, y})
			y += lh
		}
	}
	return out
}

// explainCue is the line under a scrolling explanation: where the rest is
// and how to reach it.
func explainCue(L explainLayout, scroll int) string {
	if scroll < L.maxScroll() {
		return "more below ↓  wheel or E"
	}
	return "end · E: back to the top"
}

// drawExplanation paints the strip dst with the explanation L scrolled up
// by scroll pixels.
func drawExplanation(dst *image.RGBA, L explainLayout, scroll int) {
	b := dst.Bounds()
	if b.Empty() || L.height == 0 {
		return
	}
	plot.FillRect(dst, b, panelBG)
	plot.HLine(dst, b.Min.X, b.Max.X-1, b.Min.Y, panelRule)
	// Only whole lines: half a line at an edge reads as noise.
	lh := lineHeight(L.ts)
	for _, l := range L.lines() {
		if top := l.y - scroll; top >= 0 && top+lh <= L.view() {
			plot.DrawText(dst, l.text, float64(b.Min.X+explainPad), float64(b.Min.Y+explainPad+top), L.ts)
		}
	}
	if L.scrolls {
		ts := L.ts
		ts.Color, ts.Align, ts.VAlign = accent, plot.AlignRight, plot.AlignBottom
		plot.DrawText(dst, explainCue(L, scroll), float64(b.Max.X-explainPad), float64(b.Max.Y-explainPad/2), ts)
	}
}
