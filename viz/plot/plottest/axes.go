package plottest

import (
	"image"

	"github.com/fp8lab/fp8lab/viz/plot"
	"github.com/fp8lab/fp8lab/viz/plot/internal/observe"
)

// Axes is an Axes that an observer saw drawn: the plot.Axes, and what its
// Draw and the marks drawn on it since left in it, which plot does not
// export. The methods read the axes as they are when called: once the
// picture is drawn, the whole picture.
type Axes struct {
	*plot.Axes
	view    observe.Axes
	picture observe.Picture // the picture Draw started, or the placement's
}

// axes wraps what plot reported; nil when it reported none.
func axes(v observe.Axes, pic observe.Picture) *Axes {
	if v == nil {
		return nil
	}
	a, _ := v.Axes().(*plot.Axes)
	return &Axes{Axes: a, view: v, picture: pic}
}

// TickLabels returns the tick labels Draw last wrote along the x and the y
// axis, in order from the start of each, after thinning: tests check with
// it that a reader can read each axis's scale.
func (a *Axes) TickLabels() (x, y []string) {
	if a == nil || a.view == nil {
		return nil, nil
	}
	return a.view.TickLabels()
}

// AxisLabels returns the labels the axes name their x and y axes with
// (plot.AxesOptions.XLabel, YLabel); empty for an axis without one.
func (a *Axes) AxisLabels() (x, y string) {
	if a == nil || a.view == nil {
		return "", ""
	}
	return a.view.AxisLabels()
}

// SharesX reports whether the axes leave their x axis to be labelled by
// the axes below them (plot.AxesOptions.SharedX).
func (a *Axes) SharesX() bool { return a != nil && a.view != nil && a.view.SharesX() }

// CoveredData returns how many pixels of r hold data drawn on the axes
// since Draw: plot.Axes.Covered without the labels of markers and bands.
// Tests check with it, once a picture is drawn, that no label or legend
// hides data, even data drawn after it.
func (a *Axes) CoveredData(r image.Rectangle) int {
	if a == nil || a.view == nil {
		return 0
	}
	return a.view.CoveredData(r)
}

// ObserveAxes calls f with every Axes whose Draw starts a picture, until
// the returned stop function is called. With ObserveLegends, tests check
// once a picture is drawn that no legend beside the plots and no label
// hides data. Calls of f are serialised; f must not start or stop an
// observer.
func ObserveAxes(f func(*Axes)) (stop func()) {
	return observe.AxesDrawn.Add(func(d observe.DrawnAxes) { f(axes(d.Axes, d.Picture)) })
}

// PlacementKind says what a LegendPlacement placed.
type PlacementKind int

// What is placed.
const (
	// PlacedLegend: a legend plot.Axes.Legend placed in its plot area, its
	// strip above or its margin.
	PlacedLegend PlacementKind = iota
	// PlacedLabel: the label of a marker or band (VMarker, HMarker, VBand,
	// HBand) or a note (Note), placed in the plot area where it covers no
	// data.
	PlacedLabel
	// PlacedBeside: a legend drawn with plot.DrawLegend or
	// plot.DrawInlineLegend, beside the plots; see LegendPlacement.On for
	// the axes of the same picture.
	PlacedBeside
)

// LegendPlacement is where a legend or label went: its box, the plot area
// (for a legend or label of an Axes), how many pixels of recorded data the
// box covered when it was placed (legends; 0 by construction, tests check
// it), or that it was left out for want of room.
type LegendPlacement struct {
	Kind      PlacementKind
	Plot, Box image.Rectangle
	Covered   int
	Omitted   bool
	// Axes holds the legend or label; nil for PlacedBeside. Once the
	// picture is drawn, Axes.CoveredData(Box) says whether data drawn
	// after the label hides under it.
	Axes *Axes
	// Text is a label's or note's text (empty for a legend), so that a
	// test can find the placement of one it cares about.
	Text    string
	picture observe.Picture
}

// On reports whether p was drawn on the picture whose drawing a started
// (the same pixels, through any sub-image): a legend beside the plots must
// hide no data of the axes of its own picture, and what a caller draws off
// screen to measure it is none of theirs.
func (p LegendPlacement) On(a *Axes) bool {
	return a != nil && p.picture != (observe.Picture{}) && p.picture == a.picture
}

// ObserveLegends calls f with every placement of a legend or label (see
// PlacementKind), until the returned stop function is called: tests of the
// pictures built on package plot check with it that none hides data. Calls
// of f are serialised; f must not start or stop an observer.
func ObserveLegends(f func(LegendPlacement)) (stop func()) {
	return observe.Placements.Add(func(p observe.Placement) {
		f(LegendPlacement{
			// The kinds are declared in observe's order (TestObserveLegends).
			Kind: PlacementKind(p.Kind), Plot: p.Plot, Box: p.Box, Covered: p.Covered, Omitted: p.Omitted,
			Axes: axes(p.Axes, p.Picture), Text: p.Text, picture: p.Picture,
		})
	})
}
