package ui

import (
	"image"

	"github.com/fp8lab/fp8lab/viz/plot"
)

// The scene's explanation, under its picture: the same paragraphs the
// site shows beside the canvas and `fp8lab render --explain` prints,
// wrapped to the width of the scene area.

// Sizes of the explanation strip, in logical pixels.
const (
	explainPad = 12
	// explainShare is the largest part of the scene area's height the
	// explanation may take; the picture keeps the rest.
	explainShare = 0.45
)

// explainSizes are the text sizes tried, largest first, until the whole
// explanation fits its share of the height.
var explainSizes = []float64{16, 15, 14, 13}

// explainLayout is the explanation wrapped for one scene area.
type explainLayout struct {
	ts     plot.TextStyle
	paras  [][]string // the lines of each paragraph
	height int        // of the strip, 0 when there is nothing to show
	cut    bool       // the last lines did not fit
}

// layoutExplanation wraps paras to a w-wide strip under a scene area h
// tall, at the largest size of explainSizes at which every line fits in
// explainShare of h; at the smallest size it keeps the lines that fit.
func layoutExplanation(w, h int, paras []string) explainLayout {
	var L explainLayout
	if len(paras) == 0 || w < 4*explainPad {
		return L
	}
	limit := int(float64(h) * explainShare)
	for _, size := range explainSizes {
		L = explainLayout{ts: plot.TextStyle{Font: plot.FontRegular, Size: size, Color: textColor, VAlign: plot.AlignTop}}
		lh := lineHeight(L.ts)
		used := 2 * explainPad
		for i, p := range paras {
			lines := plot.WrapText(p, w-2*explainPad, L.ts)
			if i > 0 {
				used += lh / 2
			}
			L.paras = append(L.paras, lines)
			used += len(lines) * lh
		}
		L.height = used
		if used <= limit {
			return L
		}
	}
	// Even the smallest size does not fit: keep the lines that do.
	lh := lineHeight(L.ts)
	room := (limit - 2*explainPad) / lh
	var kept [][]string
	for _, lines := range L.paras {
		if room <= 0 {
			L.cut = true
			break
		}
		if len(lines) > room {
			lines, L.cut = lines[:room], true
		}
		kept = append(kept, lines)
		room -= len(lines) + 1
	}
	L.paras, L.height = kept, limit
	return L
}

func lineHeight(ts plot.TextStyle) int { return plot.MeasureText("Xg", ts).Height() + 3 }

// drawExplanation paints the strip dst with the explanation L.
func drawExplanation(dst *image.RGBA, L explainLayout) {
	b := dst.Bounds()
	if b.Empty() || L.height == 0 {
		return
	}
	plot.FillRect(dst, b, panelBG)
	plot.HLine(dst, b.Min.X, b.Max.X-1, b.Min.Y, panelRule)
	lh := lineHeight(L.ts)
	y := b.Min.Y + explainPad
	for i, lines := range L.paras {
		if i > 0 {
			y += lh / 2
		}
		for _, l := range lines {
			plot.DrawText(dst, l, float64(b.Min.X+explainPad), float64(y), L.ts)
			y += lh
		}
	}
	if L.cut {
		ts := L.ts
		ts.Color, ts.Align, ts.VAlign = accent, plot.AlignRight, plot.AlignBottom
		plot.DrawText(dst, "… (more: fp8lab render --explain)", float64(b.Max.X-explainPad), float64(b.Max.Y-4), ts)
	}
}
