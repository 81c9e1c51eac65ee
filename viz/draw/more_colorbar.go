package draw

import (
	"fmt"
	"image"
	"math"
)

// DrawColorBarH draws a horizontal colour bar for cm and the value scale
// (as given to HeatmapStyle.Value): the gradient fills r from the domain's
// low end on the left to its high end on the right, tick labels go below r
// and label (if any) right of r, vertically centred. A nil cm means
// Viridis; a nil theme means LightTheme().
func DrawColorBarH(dst *image.RGBA, r image.Rectangle, cm *ColorMap, value Scale, label string, th *Theme) error {
	if dst == nil {
		return fmt.Errorf("draw: colour bar: %w", ErrNilImage)
	}
	if value == nil {
		return fmt.Errorf("draw: colour bar: %w: nil value scale", ErrBadArgument)
	}
	if cm == nil {
		cm = Viridis
	}
	t := themeOrDefault(th)
	r = r.Canon()
	if r.Dx() < minPlotSize || r.Dy() < 2 {
		return fmt.Errorf("draw: colour bar in %v: %w", r, ErrTooSmall)
	}
	unit := value.WithRange(0, 1)
	pix := value.WithRange(float64(r.Min.X)+0.5, float64(r.Max.X)-0.5)
	lut := cm.LUT()
	for x := r.Min.X; x < r.Max.X; x++ {
		k := lutIndex(unit.Map(pix.Invert(float64(x) + 0.5)))
		FillRect(dst, image.Rect(x, r.Min.Y, x+1, r.Max.Y), lut[k])
	}
	StrokeRect(dst, r.Inset(-1), 1, t.Frame)
	ts := t.tickStyle()
	ts.Align, ts.VAlign = AlignCenter, AlignTop
	ticks := visibleTicks(pix, pix.Ticks())
	stride := labelStride(ticks, pix, ts, true)
	n := 0
	for _, tk := range ticks {
		x := math.Floor(pix.Map(tk.Value))
		VLine(dst, int(x), r.Max.Y, r.Max.Y+tickLength-1, t.Frame)
		if tk.Minor || tk.Label == "" {
			continue
		}
		if n%stride == 0 {
			DrawText(dst, tk.Label, x, float64(r.Max.Y+tickLength+1), ts)
		}
		n++
	}
	if label != "" {
		ls := t.labelStyle()
		ls.VAlign = AlignMiddle
		DrawText(dst, label, float64(r.Max.X+2*outerPad+2), float64(r.Min.Y+r.Max.Y)/2, ls)
	}
	return nil
}
