package plot

import (
	"fmt"
	"image"
	"image/color"
)

// LineStyle says how to draw a line series or marker line.
type LineStyle struct {
	Color color.RGBA // Zero means the theme's foreground colour.
	Width float64    // Pixels; 0 means the theme's line width.
	Dash  []float64  // Alternating dash and gap lengths in pixels; nil is solid.

	Marker     Marker     // Marker drawn at every data point; MarkerNone for none.
	MarkerSize float64    // Marker diameter in pixels; 0 means 3 × Width + 2.
	MarkerFill color.RGBA // Zero means Color.
}

func (a *Axes) lineDefaults(st LineStyle) LineStyle {
	if st.Color == (color.RGBA{}) {
		st.Color = a.Theme.Foreground
	}
	if !(st.Width > 0) {
		st.Width = a.Theme.LineWidth
	}
	if !(st.MarkerSize > 0) {
		st.MarkerSize = 3*st.Width + 2
	}
	if st.MarkerFill == (color.RGBA{}) {
		st.MarkerFill = st.Color
	}
	return st
}

// checkXY validates a pair of coordinate slices.
func checkXY(what string, xs, ys []float64) error {
	if len(xs) != len(ys) {
		return fmt.Errorf("plot: %s: %w: %d x values, %d y values", what, ErrLengthMismatch, len(xs), len(ys))
	}
	if len(xs) == 0 {
		return fmt.Errorf("plot: %s: %w", what, ErrEmptyData)
	}
	return nil
}

// mapPoints maps data points to pixels; points that are not finite (in
// data or after mapping) become NaN, which breaks lines.
func (a *Axes) mapPoints(xs, ys []float64) []Point {
	pts := make([]Point, len(xs))
	for i := range xs {
		p := a.Map(xs[i], ys[i])
		if !finite(xs[i]) || !finite(ys[i]) || !p.finite() {
			p = Point{nan, nan}
		}
		pts[i] = p
	}
	return pts
}

// strokePixels draws a pixel-space polyline clipped to the plot area.
func (a *Axes) strokePixels(dst *image.RGBA, pts []Point, st LineStyle) {
	clip := a.Clip(dst)
	if len(st.Dash) > 0 {
		DashedPolyline(clip, pts, st.Width, st.Dash, st.Color)
	} else {
		Polyline(clip, pts, st.Width, st.Color)
	}
	a.occ().markPolyline(pts, st.Width/2)
	if st.Marker != MarkerNone {
		a.drawMarkers(clip, st.Marker, pts, st.MarkerSize, st.MarkerFill)
	}
}

// Line draws the series (xs[i], ys[i]) as a polyline with optional markers.
// Points with NaN or infinite coordinates, or that the scales cannot place
// (like 0 on a log axis), are skipped and break the line. It fails on empty
// or mismatched slices.
func (a *Axes) Line(dst *image.RGBA, xs, ys []float64, st LineStyle) error {
	if !a.ready() {
		return errNoAxes
	}
	if err := checkXY("line", xs, ys); err != nil {
		return err
	}
	a.strokePixels(dst, a.mapPoints(xs, ys), a.lineDefaults(st))
	return nil
}

// StepMode says where the value of a step series changes.
type StepMode int

// Step modes, named as in matplotlib's step(where=...).
const (
	StepPost StepMode = iota // ys[i] holds from xs[i] up to xs[i+1] (the default).
	StepPre                  // ys[i] holds from xs[i-1] up to xs[i].
	StepMid                  // the value changes halfway between xs[i] and xs[i+1].
)

// Step draws the series as a staircase, as for a scale factor that is
// updated at discrete steps. Markers, if any, sit at the data points.
// Non-finite points break the staircase.
func (a *Axes) Step(dst *image.RGBA, xs, ys []float64, mode StepMode, st LineStyle) error {
	if !a.ready() {
		return errNoAxes
	}
	if err := checkXY("step", xs, ys); err != nil {
		return err
	}
	if mode < StepPost || mode > StepMid {
		return fmt.Errorf("plot: step: %w: mode %d", ErrBadArgument, mode)
	}
	st = a.lineDefaults(st)
	data := a.mapPoints(xs, ys)
	stairs := make([]Point, 0, 2*len(data))
	for i, p := range data {
		if i == 0 || !p.finite() || !data[i-1].finite() {
			stairs = append(stairs, p)
			continue
		}
		q := data[i-1]
		switch mode {
		case StepPost:
			stairs = append(stairs, Point{p.X, q.Y}, p)
		case StepPre:
			stairs = append(stairs, Point{q.X, p.Y}, p)
		case StepMid:
			mx := (q.X + p.X) / 2
			stairs = append(stairs, Point{mx, q.Y}, Point{mx, p.Y}, p)
		}
	}
	marker := st.Marker
	st.Marker = MarkerNone
	a.strokePixels(dst, stairs, st)
	if marker != MarkerNone {
		a.drawMarkers(a.Clip(dst), marker, data, st.MarkerSize, st.MarkerFill)
	}
	return nil
}

// MarkerStyle says how to draw scatter points.
type MarkerStyle struct {
	Shape Marker     // MarkerNone means MarkerCircle.
	Size  float64    // Diameter in pixels; 0 means 6.
	Color color.RGBA // Zero means the theme's foreground colour.
}

// Scatter draws a marker at every point (xs[i], ys[i]), skipping points
// that are not finite or cannot be placed. It fails on empty or mismatched
// slices.
func (a *Axes) Scatter(dst *image.RGBA, xs, ys []float64, st MarkerStyle) error {
	if !a.ready() {
		return errNoAxes
	}
	if err := checkXY("scatter", xs, ys); err != nil {
		return err
	}
	if st.Shape == MarkerNone {
		st.Shape = MarkerCircle
	}
	if !(st.Size > 0) {
		st.Size = 6
	}
	if st.Color == (color.RGBA{}) {
		st.Color = a.Theme.Foreground
	}
	a.drawMarkers(a.Clip(dst), st.Shape, a.mapPoints(xs, ys), st.Size, st.Color)
	return nil
}

// drawMarkers draws markers at pts and records them as data.
func (a *Axes) drawMarkers(clip *image.RGBA, m Marker, pts []Point, size float64, c color.RGBA) {
	DrawMarkers(clip, m, pts, size, c)
	o := a.occ()
	for _, p := range pts {
		o.markDisc(p, size/2)
	}
}
