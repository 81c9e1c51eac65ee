package draw

import (
	"image"
	"math"
)

// DrawInlineLegend draws legend entries side by side in a row starting at
// (x, y) (the top-left corner), wrapping to a new row before maxWidth pixels
// are exceeded, with no box around them; it returns the rectangle used.
// Keys are as in DrawLegend; the text style st sets the label size (zero
// size means the theme's tick size) and colour.
func DrawInlineLegend(dst *image.RGBA, x, y, maxWidth int, entries []LegendEntry, st TextStyle, th *Theme) image.Rectangle {
	t := themeOrDefault(th)
	if st.Size == 0 {
		st.Size = t.TickSize
	}
	if st.Color == (TextStyle{}).Color {
		st.Color = t.Foreground
	}
	st.Align, st.VAlign = AlignLeft, AlignMiddle
	h := MeasureText("Xg", st).Height()
	key := int(math.Round(st.Size * 1.6))
	gap := int(math.Round(st.Size * 0.4))
	sep := int(math.Round(st.Size * 1.3))
	cx, cy := x, y
	used := image.Rect(x, y, x, y)
	for _, e := range entries {
		w := key + gap + MeasureText(e.Label, st).Width
		if cx > x && cx+w > x+maxWidth {
			cx, cy = x, cy+h+gap
		}
		mid := float64(cy) + float64(h)/2
		c := e.Color
		if c == (LegendEntry{}).Color {
			c = t.Foreground
		}
		switch e.Kind {
		case LegendSwatch:
			s := int(math.Round(st.Size * 0.9))
			r := image.Rect(cx+(key-s)/2, int(mid)-s/2, cx+(key-s)/2+s, int(mid)-s/2+s)
			FillRect(dst, r, c)
		case LegendMarker:
			m := e.Marker
			if m == MarkerNone {
				m = MarkerCircle
			}
			DrawMarker(dst, m, float64(cx)+float64(key)/2, mid, st.Size*0.7, c)
		default:
			lw := e.Width
			if lw == 0 {
				lw = t.LineWidth
			}
			if len(e.Dash) > 0 {
				DashedLine(dst, float64(cx), mid, float64(cx+key), mid, lw, e.Dash[0], dashGap(e.Dash), c)
			} else {
				Line(dst, float64(cx), mid, float64(cx+key), mid, lw, c)
			}
			if e.Marker != MarkerNone {
				DrawMarker(dst, e.Marker, float64(cx)+float64(key)/2, mid, st.Size*0.6, c)
			}
		}
		r := DrawText(dst, e.Label, float64(cx+key+gap), mid, st)
		used = used.Union(image.Rect(cx, cy, r.Max.X, cy+h))
		cx += w + sep
	}
	return used
}

// dashGap returns the gap of a dash pattern (the dash length if the pattern
// has only one entry).
func dashGap(p []float64) float64 {
	if len(p) > 1 {
		return p[1]
	}
	return p[0]
}

// MeasureInlineLegend returns the size DrawInlineLegend would cover with
// the same arguments, without drawing anything: callers reserve room for a
// legend that wraps onto as many lines as its width needs.
func MeasureInlineLegend(maxWidth int, entries []LegendEntry, st TextStyle, th *Theme) image.Point {
	scratch := image.NewRGBA(image.Rect(0, 0, 1, 1)) // every primitive clips to it
	return DrawInlineLegend(scratch, 0, 0, maxWidth, entries, st, th).Size()
}
