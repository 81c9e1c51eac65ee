package observe

import "image"

// Axes is what an observer may read of a plot.Axes beyond its exported
// fields: what Draw and the marks drawn since left in it. Package plot
// implements it; plottest.Axes shows it to tests.
type Axes interface {
	// Axes returns the *plot.Axes.
	Axes() any
	// TickLabels returns the tick labels Draw last wrote along the x and
	// the y axis, in order from the start of each, after thinning.
	TickLabels() (x, y []string)
	// AxisLabels returns the labels the axes name their x and y axes with.
	AxisLabels() (x, y string)
	// SharesX reports whether the axes leave their x axis to be labelled
	// by the axes below them.
	SharesX() bool
	// CoveredData returns how many pixels of r hold data drawn on the axes
	// since Draw (labels of markers and bands left out).
	CoveredData(r image.Rectangle) int
}

// DrawnAxes is an Axes whose Draw started a picture, and that picture.
type DrawnAxes struct {
	Axes    Axes
	Picture Picture
}

// Kind says what a Placement placed.
type Kind int

// What is placed (see plottest.PlacementKind).
const (
	Legend Kind = iota // a legend of an Axes
	Label              // a label of a marker or band, or a note
	Beside             // a legend drawn beside the plots
)

// Placement is where a legend or label went (see plottest.LegendPlacement).
type Placement struct {
	Kind      Kind
	Plot, Box image.Rectangle
	Covered   int
	Omitted   bool
	Axes      Axes // nil for Beside
	Text      string
	Picture   Picture
}

// The observers package plot notifies.
var (
	// AxesDrawn is told of every Axes when its Draw starts a picture.
	AxesDrawn Observers[DrawnAxes]
	// Placements is told of every legend and label placed or left out.
	Placements Observers[Placement]
)
