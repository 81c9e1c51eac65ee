package draw

import (
	"fmt"
	"image"
	"image/color"
)

// LegendKind is the kind of key drawn next to a legend label.
type LegendKind int

// Legend key kinds. The zero value, LegendLine, draws a short line.
const (
	LegendLine   LegendKind = iota // A short line (with its marker, if any).
	LegendSwatch                   // A filled square, for bars, bands and heatmaps.
	LegendMarker                   // A marker alone, for scatter series.
)

// LegendEntry is one row of a legend.
type LegendEntry struct {
	Label  string
	Color  color.RGBA // Zero means the theme's foreground.
	Kind   LegendKind
	Width  float64   // Line width for LegendLine; 0 means the theme's.
	Dash   []float64 // Dash pattern for LegendLine.
	Marker Marker    // Marker for LegendLine and LegendMarker (default circle).
}

// Corner names a corner of a rectangle.
type Corner int

// Corners. The zero value is TopRight.
const (
	TopRight Corner = iota
	TopLeft
	BottomLeft
	BottomRight
)

// Legend layout, in pixels.
const (
	legendPad     = 8  // inside the box
	legendMargin  = 8  // between the box and the area's edge
	legendKeyW    = 28 // width of the key column
	legendKeyGap  = 8  // key to label
	legendRowGap  = 4  // between rows
	legendBorderW = 1
)

// DrawLegend draws a legend box with one row per entry in the given corner
// of area, and returns the box. It fails if there are no entries.
func DrawLegend(dst *image.RGBA, area image.Rectangle, corner Corner, entries []LegendEntry, th *Theme) (image.Rectangle, error) {
	if dst == nil {
		return image.Rectangle{}, fmt.Errorf("draw: legend: %w", ErrNilImage)
	}
	if len(entries) == 0 {
		return image.Rectangle{}, fmt.Errorf("draw: legend: %w: no entries", ErrEmptyData)
	}
	t := themeOrDefault(th)
	ts := t.tickStyle()
	ts.VAlign = AlignMiddle
	rowH := max(MeasureText("Xg", ts).Height(), 14)
	textW := 0
	for _, e := range entries {
		textW = max(textW, MeasureText(e.Label, ts).Width)
	}
	bw := 2*legendPad + legendKeyW + legendKeyGap + textW
	bh := 2*legendPad + len(entries)*rowH + (len(entries)-1)*legendRowGap
	area = area.Canon()
	var at image.Point
	switch corner {
	case TopLeft:
		at = image.Pt(area.Min.X+legendMargin, area.Min.Y+legendMargin)
	case BottomLeft:
		at = image.Pt(area.Min.X+legendMargin, area.Max.Y-legendMargin-bh)
	case BottomRight:
		at = image.Pt(area.Max.X-legendMargin-bw, area.Max.Y-legendMargin-bh)
	default:
		at = image.Pt(area.Max.X-legendMargin-bw, area.Min.Y+legendMargin)
	}
	box := image.Rectangle{Min: at, Max: at.Add(image.Pt(bw, bh))}
	FillRect(dst, box, t.LegendFill)
	StrokeRect(dst, box, legendBorderW, t.Grid)

	for i, e := range entries {
		c := e.Color
		if c == (color.RGBA{}) {
			c = t.Foreground
		}
		top := box.Min.Y + legendPad + i*(rowH+legendRowGap)
		cy := float64(top) + float64(rowH)/2
		kx0 := float64(box.Min.X + legendPad)
		kx1 := kx0 + legendKeyW
		switch e.Kind {
		case LegendSwatch:
			s := min(rowH-2, 14)
			y0 := top + (rowH-s)/2
			FillRect(dst, image.Rect(int(kx0)+(legendKeyW-s)/2, y0, int(kx0)+(legendKeyW-s)/2+s, y0+s), c)
		case LegendMarker:
			m := e.Marker
			if m == MarkerNone {
				m = MarkerCircle
			}
			DrawMarker(dst, m, (kx0+kx1)/2, cy, 8, c)
		default:
			w := e.Width
			if !(w > 0) {
				w = t.LineWidth
			}
			line := []Point{{kx0, cy}, {kx1, cy}}
			if len(e.Dash) > 0 {
				DashedPolyline(dst, line, w, e.Dash, c)
			} else {
				Polyline(dst, line, w, c)
			}
			if e.Marker != MarkerNone {
				DrawMarker(dst, e.Marker, (kx0+kx1)/2, cy, 3*w+2, c)
			}
		}
		DrawText(dst, e.Label, kx1+legendKeyGap, cy, ts)
	}
	return box, nil
}

// Legend draws a legend in the given corner of the plot area.
func (a *Axes) Legend(dst *image.RGBA, corner Corner, entries []LegendEntry) (image.Rectangle, error) {
	t := a.Theme
	return DrawLegend(a.Clip(dst), a.Plot, corner, entries, &t)
}
