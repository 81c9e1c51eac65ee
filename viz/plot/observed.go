package plot

import (
	"image"
	"slices"

	"github.com/fp8lab/fp8lab/viz/plot/internal/observe"
)

// What the drawing code tells the observers of package observe (installed
// by viz/plot/plottest in tests): every Axes drawn and every legend or
// label placed. None of it changes a pixel, and with nobody listening it
// costs an atomic load per report.

// axesView shows observers what Draw and the marks drawn since left in
// an Axes beyond its exported fields.
type axesView struct{ a *Axes }

func (v axesView) Axes() any { return v.a }

func (v axesView) TickLabels() (x, y []string) {
	return slices.Clone(v.a.xTicks), slices.Clone(v.a.yTicks)
}

func (v axesView) AxisLabels() (x, y string) { return v.a.opts.XLabel, v.a.opts.YLabel }

func (v axesView) SharesX() bool { return v.a.opts.SharedX }

func (v axesView) CoveredData(r image.Rectangle) int {
	if !v.a.ready() {
		return 0
	}
	return v.a.occ().countData(r)
}

// placed tells the observers of placements, if any, that a legend or label
// of the axes went to p.Box of dst's picture or was left out; a legend's
// p.Covered is computed only when someone is listening.
func (a *Axes) placed(dst *image.RGBA, p observe.Placement, cover func() int) {
	if !observe.Placements.Listening() {
		return
	}
	p.Plot, p.Axes, p.Picture = a.Plot, axesView{a}, observe.PictureOf(dst)
	if cover != nil {
		p.Covered = cover()
	}
	observe.Placements.Notify(p)
}

// placedBeside tells the observers of placements, if any, that a legend
// beside the plots went to box of dst's picture.
func placedBeside(dst *image.RGBA, box image.Rectangle) {
	observe.Placements.Notify(observe.Placement{Kind: observe.Beside, Box: box.Intersect(dst.Rect), Picture: observe.PictureOf(dst)})
}
