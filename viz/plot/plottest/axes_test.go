package plottest_test

import (
	"image"
	"testing"

	"github.com/fp8lab/fp8lab/viz/plot"
	"github.com/fp8lab/fp8lab/viz/plot/plottest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newAxes(t *testing.T, outer image.Rectangle, opts plot.AxesOptions) *plot.Axes {
	t.Helper()
	x, err := plot.NewLinear(0, 10)
	require.NoError(t, err)
	y, err := plot.NewLinear(0, 10)
	require.NoError(t, err)
	a, err := plot.NewAxes(outer, x, y, opts)
	require.NoError(t, err)
	return a
}

// ObserveAxes hands over every Axes drawn, in order, until stopped; its
// tick labels are the texts drawn below the plot area at the tick size
// (counted by RecordText), its axis labels and SharedX those of its
// options.
func TestObserveAxes(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 800, 300))
	left := newAxes(t, image.Rect(0, 0, 400, 300), plot.AxesOptions{XLabel: "bits", YLabel: "count"})
	right := newAxes(t, image.Rect(400, 0, 800, 300), plot.AxesOptions{SharedX: true})
	var seen []*plottest.Axes
	stop := plottest.ObserveAxes(func(a *plottest.Axes) { seen = append(seen, a) })
	boxes := plottest.RecordText(img, func() {
		left.Draw(img)
		right.Draw(img)
	})
	stop()
	stop() // a second stop does nothing
	left.Draw(img)
	require.Len(t, seen, 2, "nothing seen after stop")
	assert.Same(t, left, seen[0].Axes)
	assert.Same(t, right, seen[1].Axes)

	var below []string
	for _, b := range boxes {
		if b.Box.Min.Y > left.Plot.Max.Y && b.Box.Max.X <= left.Outer.Max.X && b.Size == left.Theme.TickSize {
			below = append(below, b.Text)
		}
	}
	xt, yt := seen[0].TickLabels()
	assert.Equal(t, below, xt)
	assert.GreaterOrEqual(t, len(xt), 3)
	assert.GreaterOrEqual(t, len(yt), 3)
	xl, yl := seen[0].AxisLabels()
	assert.Equal(t, [2]string{"bits", "count"}, [2]string{xl, yl})
	assert.False(t, seen[0].SharesX())
	xt, _ = seen[1].TickLabels()
	assert.Empty(t, xt, "a shared x axis has no labels of its own")
	assert.True(t, seen[1].SharesX())
}

// ObserveLegends reports each legend and label where it went: a legend
// of the axes covering no data, a bar under nothing but data, a legend
// beside the plots on the axes' own picture and not on another, and a
// label left out where data fill the plot.
func TestObserveLegends(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 600, 300))
	elsewhere := image.NewRGBA(image.Rect(0, 0, 200, 100))
	a := newAxes(t, image.Rect(0, 0, 400, 300), plot.AxesOptions{})
	var drawn []*plottest.Axes
	var placed []plottest.LegendPlacement
	defer plottest.ObserveAxes(func(a *plottest.Axes) { drawn = append(drawn, a) })()
	defer plottest.ObserveLegends(func(p plottest.LegendPlacement) { placed = append(placed, p) })()
	entries := []plot.LegendEntry{{Label: "bars"}}

	a.Draw(img)
	require.NoError(t, a.Bars(img, []float64{8}, []float64{10}, 3, plot.BarStyle{}))
	box, err := a.Legend(img, plot.TopRight, entries)
	require.NoError(t, err)
	_, err = plot.DrawLegend(img, image.Rect(400, 0, 600, 300), plot.TopLeft, entries, nil)
	require.NoError(t, err)
	_, err = plot.DrawLegend(elsewhere, elsewhere.Rect, plot.TopLeft, entries, nil)
	require.NoError(t, err)
	require.Len(t, drawn, 1)
	require.Len(t, placed, 3)

	legend, beside, off := placed[0], placed[1], placed[2]
	assert.Equal(t, plottest.PlacedLegend, legend.Kind)
	assert.Equal(t, box, legend.Box)
	assert.Equal(t, a.Plot, legend.Plot)
	assert.Zero(t, legend.Covered)
	require.NotNil(t, legend.Axes)
	assert.Same(t, a, legend.Axes.Axes)
	assert.Zero(t, legend.Axes.CoveredData(legend.Box))
	bar := a.Map(8, 5)
	assert.Equal(t, 1, legend.Axes.CoveredData(image.Rect(int(bar.X), int(bar.Y), int(bar.X)+1, int(bar.Y)+1)), "the bar is data")
	assert.True(t, legend.On(drawn[0]))

	assert.Equal(t, plottest.PlacedBeside, beside.Kind)
	assert.Nil(t, beside.Axes)
	assert.True(t, beside.On(drawn[0]), "beside the plots of its own picture")
	assert.False(t, off.On(drawn[0]), "drawn on another picture")
	assert.False(t, off.On(nil))

	a.Draw(img)
	require.NoError(t, a.Bars(img, []float64{5}, []float64{10}, 10, plot.BarStyle{}))
	a.VMarker(img, 5, "no room", plot.LineStyle{})
	require.Len(t, placed, 4)
	assert.Equal(t, plottest.PlacedLabel, placed[3].Kind)
	assert.Equal(t, "no room", placed[3].Text)
	assert.True(t, placed[3].Omitted)
}
