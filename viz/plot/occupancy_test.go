package plot

import (
	"image"
	"math"
	"testing"

	"github.com/fp8lab/fp8lab/viz/plot/internal/observe"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every pixel that a curve, its markers, bars, scatter points or a marker
// label changed in the plot area is recorded as data: the pixels are
// compared with a copy of the empty axes, independently of how marks record
// themselves.
func TestCoveredHoldsEveryDrawnPixel(t *testing.T) {
	ax, img := newTestAxes(t, image.Rect(0, 0, 400, 300), linear(t, 0, 10), linear(t, 0, 10), AxesOptions{})
	ax.Draw(img)
	empty := image.NewRGBA(img.Rect)
	copy(empty.Pix, img.Pix)
	xs := []float64{0, 1, 2, 3.5, 5, 7, 10}
	ys := []float64{1, 9, 2, 8, 3, 7, 0.5}
	require.NoError(t, ax.Line(img, xs, ys, LineStyle{Width: 3, Marker: MarkerSquare}))
	require.NoError(t, ax.Step(img, xs, []float64{5, 5, 6, 6, 4, 4, 4}, StepMid, LineStyle{Color: Vermillion, Width: 2, Dash: []float64{6, 3}}))
	require.NoError(t, ax.Bars(img, []float64{2, 8}, []float64{4, 6}, 0.8, BarStyle{}))
	require.NoError(t, ax.Scatter(img, []float64{6, 9}, []float64{9, 9}, MarkerStyle{Size: 10}))
	ax.VMarker(img, 4, "four", LineStyle{Width: 2})
	ax.DrawText(img, "label", 200, 150, TextStyle{Size: 14})
	drawn := 0
	p := ax.Plot
	for y := p.Min.Y; y < p.Max.Y; y++ {
		for x := p.Min.X; x < p.Max.X; x++ {
			if img.RGBAAt(x, y) != empty.RGBAAt(x, y) {
				drawn++
				if ax.Covered(image.Rect(x, y, x+1, y+1)) != 1 {
					t.Fatalf("pixel (%d, %d) was drawn but is not recorded as data", x, y)
				}
			}
		}
	}
	assert.Greater(t, drawn, 5000)
	// And the record is not the whole plot: most of it stays free.
	assert.Less(t, ax.Covered(p), p.Dx()*p.Dy()/2)
	ax.Draw(img)
	assert.Zero(t, ax.Covered(p), "Draw starts a new picture")
}

func TestLegendKeepsOffData(t *testing.T) {
	var seen []observe.Placement
	stop := observe.Placements.Add(func(p observe.Placement) { seen = append(seen, p) })
	defer stop()
	entries := []LegendEntry{{Label: "first curve"}, {Label: "second"}}
	ax, img := newTestAxes(t, image.Rect(0, 0, 400, 300), linear(t, 0, 10), linear(t, 0, 10), AxesOptions{})
	ax.Draw(img)
	// A curve through the top-right corner: the legend asked there goes
	// to the next free corner, top-left.
	require.NoError(t, ax.Line(img, []float64{5, 10}, []float64{5, 10}, LineStyle{Width: 2}))
	box, err := ax.Legend(img, TopRight, entries)
	require.NoError(t, err)
	assert.Equal(t, cornerBox(ax.Plot, TopLeft, box.Size(), metricsFor(&ax.Theme).margin), box)
	assert.Zero(t, ax.Covered(box))
	// Bars filling every corner leave a gap in the middle of the top: the
	// legend goes there.
	ax.Draw(img)
	require.NoError(t, ax.Bars(img, []float64{1, 9}, []float64{10, 10}, 3, BarStyle{}))
	require.NoError(t, ax.Bars(img, []float64{5}, []float64{6}, 3.9, BarStyle{}))
	box, err = ax.Legend(img, TopRight, entries)
	require.NoError(t, err)
	assert.True(t, box.In(ax.Plot))
	assert.Zero(t, ax.Covered(box.Inset(-1)))
	// No free place anywhere: the legend is left out.
	ax.Draw(img)
	require.NoError(t, ax.Bars(img, []float64{5}, []float64{10}, 10, BarStyle{}))
	before := image.NewRGBA(img.Rect)
	copy(before.Pix, img.Pix)
	box, err = ax.Legend(img, TopRight, entries)
	require.NoError(t, err)
	assert.True(t, box.Empty())
	assert.Equal(t, before.Pix, img.Pix, "nothing drawn")
	require.Len(t, seen, 3)
	assert.Zero(t, seen[0].Covered)
	assert.Zero(t, seen[1].Covered)
	assert.True(t, seen[2].Omitted)
	// Entries declared to NewAxes get a strip above the plot area, and are
	// written there in rows.
	opts := AxesOptions{Legend: []LegendEntry{{Label: "a rather long legend label"}, {Label: "and another long one"}}}
	small, err := NewAxes(image.Rect(0, 0, 200, 200), linear(t, 0, 1), linear(t, 0, 1), opts)
	require.NoError(t, err)
	plain, err := NewAxes(image.Rect(0, 0, 200, 200), linear(t, 0, 1), linear(t, 0, 1), AxesOptions{})
	require.NoError(t, err)
	assert.Greater(t, small.Plot.Min.Y, plain.Plot.Min.Y)
	small.Draw(img)
	require.NoError(t, small.Line(img, []float64{0, 1}, []float64{1, 1}, LineStyle{}))
	box, err = small.Legend(img, TopRight, opts.Legend)
	require.NoError(t, err)
	assert.LessOrEqual(t, box.Max.Y, small.Plot.Min.Y)
	assert.False(t, box.Empty())
	_, err = ax.Legend(img, TopRight, nil)
	assert.ErrorIs(t, err, ErrEmptyData)
}

// Axes.Heatmap pools like DrawHeatmap: one outlier row among 300 stays
// visible in a plot area a fifth as tall, and a NaN cell wins.
func TestAxesHeatmapPoolsExtremes(t *testing.T) {
	data := make([][]float64, 300)
	for i := range data {
		data[i] = make([]float64, 300)
	}
	for j := range data[137] {
		data[137][j] = 1
	}
	data[20][250] = math.NaN()
	for _, pool := range []Pool{PoolNone, PoolMax} {
		ax, img := newTestAxes(t, image.Rect(0, 0, 120, 100), linear(t, 0, 300), linear(t, 300, 0), AxesOptions{})
		ax.Draw(img)
		require.NoError(t, ax.Heatmap(img, data, HeatmapStyle{Pool: pool}))
		top, nan := 0, 0
		for y := ax.Plot.Min.Y; y < ax.Plot.Max.Y; y++ {
			for x := ax.Plot.Min.X; x < ax.Plot.Max.X; x++ {
				switch img.RGBAAt(x, y) {
				case Viridis.At(1):
					top++
				case NaNColor:
					nan++
				}
			}
		}
		if pool == PoolMax {
			assert.GreaterOrEqual(t, top, ax.Plot.Dx()-1, "the outlier row spans the map")
			assert.True(t, nan >= 1 && nan <= 4, "the NaN cell shows, in the pixels it touches: %d", nan)
			continue
		}
		assert.Less(t, top+nan, ax.Plot.Dx(), "sampling loses the row (and the NaN) at this size: the test can fail")
	}
}

// A marker's label keeps off data: beside a full-height bar it goes to the
// other side of its line; between two full-height bars too close for it
// across, it runs up along the line; with no free place at all it is left
// out, and every placement is reported.
func TestMarkerLabelKeepsOffData(t *testing.T) {
	var seen []observe.Placement
	stop := observe.Placements.Add(func(p observe.Placement) { seen = append(seen, p) })
	defer stop()
	ax, img := newTestAxes(t, image.Rect(0, 0, 400, 300), linear(t, 0, 10), linear(t, 0, 10), AxesOptions{})
	ax.Draw(img)
	require.NoError(t, ax.Bars(img, []float64{7}, []float64{10}, 3.9, BarStyle{}))
	ax.VMarker(img, 5, "a long marker label", LineStyle{})
	require.Len(t, seen, 1)
	box := seen[0].Box
	assert.False(t, seen[0].Omitted)
	assert.Less(t, box.Max.X, int(ax.X.Map(5)), "left of the line, away from the bar")
	assert.Zero(t, axesView{ax}.CoveredData(box))
	// Bars left and right of the line, leaving a gap narrower than the
	// label: it turns to run along the line.
	ax.Draw(img)
	require.NoError(t, ax.Bars(img, []float64{2.5, 7.5}, []float64{10, 10}, 3, BarStyle{}))
	ax.VMarker(img, 5, "a long marker label", LineStyle{})
	require.Len(t, seen, 2)
	box = seen[1].Box
	assert.False(t, seen[1].Omitted)
	assert.Greater(t, box.Dy(), box.Dx(), "rotated along the line")
	assert.Zero(t, axesView{ax}.CoveredData(box))
	// No room at all: left out, nothing drawn over the data.
	ax.Draw(img)
	require.NoError(t, ax.Bars(img, []float64{5}, []float64{10}, 10, BarStyle{}))
	ax.VMarker(img, 5, "a long marker label", LineStyle{})
	require.Len(t, seen, 3)
	assert.True(t, seen[2].Omitted)
}

// A note goes to the free place nearest its corner: past a bar in that
// corner, below a bar across the top, and nowhere when bars fill the plot.
func TestNoteKeepsOffData(t *testing.T) {
	var seen []observe.Placement
	stop := observe.Placements.Add(func(p observe.Placement) { seen = append(seen, p) })
	defer stop()
	ax, img := newTestAxes(t, image.Rect(0, 0, 400, 300), linear(t, 0, 10), linear(t, 0, 10), AxesOptions{})
	const note = "outlier ÷ √16 = 4"
	// The top-left corner itself is free.
	ax.Draw(img)
	box := ax.Note(img, note, TopLeft, TextStyle{Size: 14})
	m := metricsFor(&ax.Theme).margin
	assert.Equal(t, ax.Plot.Min.Add(image.Pt(m, m)), box.Min)
	// A full-height bar in the top-left corner: the note goes right of it,
	// at the top.
	ax.Draw(img)
	require.NoError(t, ax.Bars(img, []float64{1}, []float64{10}, 2, BarStyle{}))
	box = ax.Note(img, note, TopLeft, TextStyle{Size: 14})
	require.False(t, box.Empty())
	assert.Greater(t, box.Min.X, int(ax.X.Map(2)), "right of the bar")
	assert.Equal(t, ax.Plot.Min.Y+m, box.Min.Y, "as high as it can")
	assert.Zero(t, axesView{ax}.CoveredData(box.Inset(-2)))
	// Bars across the whole width up to 7: the note goes above them, and
	// its border stays off them.
	ax.Draw(img)
	require.NoError(t, ax.Bars(img, []float64{5}, []float64{7}, 10, BarStyle{}))
	box = ax.Note(img, note, BottomRight, TextStyle{Size: 14})
	require.False(t, box.Empty())
	assert.LessOrEqual(t, box.Max.Y+2, int(ax.Y.Map(7)), "above the bars")
	assert.Zero(t, axesView{ax}.CoveredData(box.Inset(-2)))
	// Bars fill the plot: the note is left out and reported so.
	ax.Draw(img)
	require.NoError(t, ax.Bars(img, []float64{5}, []float64{10}, 10, BarStyle{}))
	assert.True(t, ax.Note(img, note, TopLeft, TextStyle{Size: 14}).Empty())
	require.Len(t, seen, 4)
	for i, p := range seen {
		assert.Equal(t, observe.Label, p.Kind)
		assert.Equal(t, note, p.Text)
		assert.Equal(t, i == 3, p.Omitted, "placement %d", i)
	}
}
