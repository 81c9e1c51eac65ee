package plot

import (
	"fmt"
	"image"
)

// ColorBarStyle says what a colour bar shows and which way it runs.
type ColorBarStyle struct {
	// Map is the colour map; nil means Viridis.
	Map *ColorMap
	// Value is the value scale, the same one given as HeatmapStyle.Value.
	// It is required.
	Value Scale
	// Label names the values; empty means no label.
	Label string
	// Horizontal runs the bar from left to right instead of bottom to top.
	Horizontal bool
}

// colorBarWidth is the width of a vertical colour bar's gradient strip.
const colorBarWidth = 18

// DrawColorBar draws a colour bar for st.Map and st.Value in r. A nil theme
// means LightTheme().
//
// A vertical bar (the default) is a strip at the left of r, 18 px wide,
// spanning r's full height (so give r the same vertical extent as the plot
// area it belongs to), the domain's low end at the bottom; ticks and their
// labels go to its right, and the label, rotated, right of the tick labels.
//
// A horizontal bar fills r, the domain's low end on the left; tick labels
// go below r and the label right of r, vertically centred.
func DrawColorBar(dst *image.RGBA, r image.Rectangle, st ColorBarStyle, th *Theme) error {
	if dst == nil {
		return fmt.Errorf("plot: colour bar: %w", ErrNilImage)
	}
	if st.Value == nil {
		return fmt.Errorf("plot: colour bar: %w: nil value scale", ErrBadArgument)
	}
	cm := st.Map
	if cm == nil {
		cm = Viridis
	}
	t := themeOrDefault(th)
	r = r.Canon()

	// The gradient strip, and the pixel scale along it (pix) as the
	// position of each row or column's centre.
	bar := image.Rect(r.Min.X, r.Min.Y, r.Min.X+colorBarWidth, r.Max.Y)
	tooSmall := r.Dx() < colorBarWidth || r.Dy() < minPlotSize
	lo, hi := bar.Min.Y, bar.Max.Y
	pix := st.Value.WithRange(float64(bar.Max.Y)-0.5, float64(bar.Min.Y)+0.5)
	if st.Horizontal {
		bar = r
		tooSmall = r.Dx() < minPlotSize || r.Dy() < 2
		lo, hi = bar.Min.X, bar.Max.X
		pix = st.Value.WithRange(float64(bar.Min.X)+0.5, float64(bar.Max.X)-0.5)
	}
	if tooSmall {
		return fmt.Errorf("plot: colour bar in %v: %w", r, ErrTooSmall)
	}
	unit := st.Value.WithRange(0, 1)
	lut := cm.LUT()
	for p := lo; p < hi; p++ {
		c := lut[lutIndex(unit.Map(pix.Invert(float64(p)+0.5)))]
		if st.Horizontal {
			FillRect(dst, image.Rect(p, bar.Min.Y, p+1, bar.Max.Y), c)
		} else {
			FillRect(dst, image.Rect(bar.Min.X, p, bar.Max.X, p+1), c)
		}
	}
	StrokeRect(dst, bar.Inset(-1), 1, t.Frame)

	// Ticks and their labels, thinned where they would overlap.
	ts := t.tickStyle()
	if st.Horizontal {
		ts.Align, ts.VAlign = AlignCenter, AlignTop
	} else {
		ts.VAlign = AlignMiddle
	}
	ticks := visibleTicks(pix, pix.Ticks())
	stride := labelStride(ticks, pix, ts, st.Horizontal)
	n, labelW := 0, 0
	for _, tk := range ticks {
		at := pixel(pix.Map(tk.Value))
		l := tickLength
		if tk.Minor {
			l = minorTickLength
		}
		if st.Horizontal {
			VLine(dst, at, bar.Max.Y, bar.Max.Y+l-1, t.Frame)
		} else {
			HLine(dst, bar.Max.X+1, bar.Max.X+l, at, t.Frame)
		}
		if tk.Label == "" {
			continue
		}
		if n%stride == 0 {
			if st.Horizontal {
				DrawText(dst, tk.Label, float64(at), float64(bar.Max.Y+tickLength+1), ts)
			} else {
				box := DrawText(dst, tk.Label, float64(bar.Max.X+1+tickLength+tickLabelPad), float64(at)+0.5, ts)
				labelW = max(labelW, box.Dx())
			}
		}
		n++
	}

	if st.Label == "" {
		return nil
	}
	ls := t.labelStyle()
	midY := float64(r.Min.Y+r.Max.Y) / 2
	if st.Horizontal {
		ls.VAlign = AlignMiddle
		DrawText(dst, st.Label, float64(r.Max.X+2*outerPad+2), midY, ls)
	} else {
		ls.Align, ls.VAlign = AlignCenter, AlignTop
		x := bar.Max.X + 1 + tickLength + tickLabelPad + labelW + axisLabelGap
		DrawTextRotated(dst, st.Label, float64(x), midY, ls)
	}
	return nil
}
