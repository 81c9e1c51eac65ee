package plot

import (
	"image"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every scale of values labels at least three ticks where its domain
// allows: a finer linear step where the first leaves two, a smaller round
// stride of exponents where the first labels fewer, and plain values on a
// log axis spanning less than two binades.
func TestScalesLabelThreeTicks(t *testing.T) {
	labels := func(ts []Tick) []string {
		var out []string
		for _, t := range ts {
			if t.Label != "" {
				out = append(out, t.Label)
			}
		}
		return out
	}
	lin := linear(t, 0, 250).WithRange(0, 60).(LinearScale)
	assert.Equal(t, []string{"0", "100", "200"}, labels(lin.Ticks()), "[0, 250] on 60 px")
	lg, err := NewLog2(0x1p-20, 0x1p11)
	require.NoError(t, err)
	assert.Equal(t, []string{"2⁻²⁰", "2⁻¹⁰", "2⁰", "2¹⁰"}, labels(lg.WithRange(0, 100).Ticks()), "2⁻²⁰…2¹¹ on 100 px")
	narrow, err := NewLog2(1.5, 6)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, len(labels(narrow.WithRange(0, 100).Ticks())), 3, "1.5…6: %q", labels(narrow.WithRange(0, 100).Ticks()))
}

// HBars lays bars down from x=0 over a band of categories, the way Bars
// stands them up; a bad thickness is an error.
func TestHBars(t *testing.T) {
	y, err := NewBand([]string{"a", "b"})
	require.NoError(t, err)
	ax, img := newTestAxes(t, image.Rect(0, 0, 400, 300), linear(t, -2, 4), y, AxesOptions{HideXGrid: true, HideYGrid: true})
	require.NoError(t, ax.HBars(img, []float64{0, 1}, []float64{3, -1}, 0.6, BarStyle{Fill: BluishGreen}))
	at := func(x, y float64) bool { p := ax.Map(x, y); return img.RGBAAt(int(p.X), int(p.Y)) == BluishGreen }
	assert.True(t, at(2.5, 0))
	assert.False(t, at(3.5, 0), "beyond the bar's end")
	assert.True(t, at(-0.5, 1), "a negative bar reaches left of x=0")
	assert.False(t, at(0.5, 1))
	assert.False(t, at(2.5, 0.5), "between the bars")
	assert.Positive(t, axesView{ax}.CoveredData(image.Rect(int(ax.Map(1, 0).X), int(ax.Map(1, 0).Y), int(ax.Map(1, 0).X)+1, int(ax.Map(1, 0).Y)+1)), "the bars are data for legends to avoid")
	assert.ErrorIs(t, ax.HBars(img, []float64{0}, []float64{1}, 0, BarStyle{}), ErrBadArgument)
}

// SharedX keeps the tick marks and leaves the tick labels to the axes
// below, giving the plot their room.
func TestSharedX(t *testing.T) {
	x, y := linear(t, 0, 100), linear(t, 0, 1)
	own, _ := newTestAxes(t, image.Rect(0, 0, 400, 200), x, y, AxesOptions{})
	shared, _ := newTestAxes(t, image.Rect(0, 0, 400, 200), x, y, AxesOptions{SharedX: true})
	xt, _ := axesView{own}.TickLabels()
	assert.GreaterOrEqual(t, len(xt), 3)
	xt, _ = axesView{shared}.TickLabels()
	assert.Empty(t, xt)
	assert.True(t, axesView{shared}.SharesX())
	assert.Greater(t, shared.Plot.Dy(), own.Plot.Dy())
}

// A legend entry wider than a narrow plot gets a strip that starts
// further left, over the tick labels, inside the outer rectangle.
func TestLegendStripOverTickLabels(t *testing.T) {
	entries := []LegendEntry{{Label: "a rather long legend entry", Color: Blue, Kind: LegendSwatch}}
	ax, img := newTestAxes(t, image.Rect(0, 0, 200, 300), linear(t, 0, 1000000), linear(t, 0, 1), AxesOptions{Legend: entries})
	require.True(t, ax.HasLegendStrip())
	box, err := ax.Legend(img, TopRight, entries)
	require.NoError(t, err)
	assert.True(t, box.In(ax.Outer), "legend %v inside %v", box, ax.Outer)
	assert.Less(t, box.Min.X, ax.Plot.Min.X, "starts left of the plot")
	assert.LessOrEqual(t, box.Max.Y, ax.Plot.Min.Y, "above the plot")
}
