package plot

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/fp8lab/fp8lab/viz/plot/internal/observe"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newTestAxes(t *testing.T, outer image.Rectangle, x, y Scale, opts AxesOptions) (*Axes, *image.RGBA) {
	t.Helper()
	ax, err := NewAxes(outer, x, y, opts)
	require.NoError(t, err)
	img := NewCanvas(outer.Max.X, outer.Max.Y, white)
	ax.Draw(img)
	return ax, img
}

// recordText lists the texts draw puts into dst, as plottest.RecordText
// does (plot's own tests cannot import plottest, which imports plot).
func recordText(dst *image.RGBA, draw func()) []observe.Text {
	var texts []observe.Text
	observe.WatchText(dst, true, func(t observe.Text) { texts = append(texts, t) }, draw)
	return texts
}

func linear(t *testing.T, lo, hi float64) LinearScale {
	t.Helper()
	s, err := NewLinear(lo, hi)
	require.NoError(t, err)
	return s
}

func TestAxesLayout(t *testing.T) {
	outer := image.Rect(0, 0, 640, 400)
	ax, img := newTestAxes(t, outer, linear(t, 0, 448), linear(t, -1, 1),
		AxesOptions{Title: "Title", XLabel: "x label", YLabel: "y label"})
	p := ax.Plot
	assert.True(t, p.In(outer))
	assert.Greater(t, p.Dx(), 500)
	assert.Greater(t, p.Dy(), 280)
	// Domain ends map to the centres of the edge pixels, y upwards.
	assert.InDelta(t, float64(p.Min.X)+0.5, ax.X.Map(0), 1e-9)
	assert.InDelta(t, float64(p.Max.X)-0.5, ax.X.Map(448), 1e-9)
	assert.InDelta(t, float64(p.Max.Y)-0.5, ax.Y.Map(-1), 1e-9)
	assert.InDelta(t, float64(p.Min.Y)+0.5, ax.Y.Map(1), 1e-9)
	th := LightTheme()
	// The frame surrounds the plot area.
	assert.Equal(t, th.Frame, img.RGBAAt(p.Min.X-1, (p.Min.Y+p.Max.Y)/2))
	assert.Equal(t, th.Frame, img.RGBAAt((p.Min.X+p.Max.X)/2, p.Max.Y))
	// A grid line at x = 200.
	gx := int(math.Floor(ax.X.Map(200)))
	assert.Equal(t, th.Grid, img.RGBAAt(gx, p.Min.Y+3))
	// Tick labels, axis labels and title all leave ink in the margins.
	margins := map[string]image.Rectangle{
		"title":        image.Rect(p.Min.X, 0, p.Max.X, p.Min.Y-1),
		"x ticks":      image.Rect(p.Min.X-20, p.Max.Y+1, p.Max.X+20, p.Max.Y+25),
		"y ticks/text": image.Rect(0, p.Min.Y, p.Min.X-1, p.Max.Y),
		"x label":      image.Rect(p.Min.X, p.Max.Y+25, p.Max.X, outer.Max.Y),
	}
	for name, r := range margins {
		ink := countPixels(img, r, func(c color.RGBA) bool { return c != white })
		assert.Positive(t, ink, name)
	}
	// Nothing is drawn outside the outer rectangle's margin-free text area.
	assert.Equal(t, white, img.RGBAAt(0, 0))
}

func TestAxesTooSmallAndNilScales(t *testing.T) {
	_, err := NewAxes(image.Rect(0, 0, 40, 30), linear(t, 0, 1), linear(t, 0, 1), AxesOptions{Title: "T", XLabel: "x"})
	assert.ErrorIs(t, err, ErrTooSmall)
	_, err = NewAxes(image.Rect(0, 0, 30, 30), linear(t, 0, 1e6), linear(t, -1e5, 1e5), AxesOptions{YLabel: "long label"})
	assert.ErrorIs(t, err, ErrTooSmall)
	_, err = NewAxes(image.Rect(0, 0, 400, 300), nil, linear(t, 0, 1), AxesOptions{})
	assert.ErrorIs(t, err, ErrBadArgument)
}

func TestTickLabelsDoNotOverlap(t *testing.T) {
	// A narrow log2 axis over the E8M0 range must thin its labels.
	x, err := NewLog2(math.Exp2(-127), math.Exp2(127))
	require.NoError(t, err)
	ax, _ := newTestAxes(t, image.Rect(0, 0, 260, 200), x, linear(t, 0, 1), AxesOptions{})
	ts := ax.Theme.tickStyle()
	ticks := visibleTicks(ax.X, ax.X.Ticks())
	stride := labelStride(ticks, ax.X, ts, true)
	var prevEnd float64 = math.Inf(-1)
	n := 0
	for _, tk := range ticks {
		if tk.Label == "" {
			continue
		}
		if n%stride == 0 {
			w := float64(MeasureText(tk.Label, ts).Width)
			c := ax.X.Map(tk.Value)
			assert.GreaterOrEqual(t, c-w/2-prevEnd, float64(labelSpacing)-1, tk.Label)
			prevEnd = c + w/2
		}
		n++
	}
}

func TestLineSeries(t *testing.T) {
	ax, img := newTestAxes(t, image.Rect(0, 0, 400, 300), linear(t, 0, 10), linear(t, 0, 10), AxesOptions{})
	require.NoError(t, ax.Line(img, []float64{0, 10}, []float64{0, 10}, LineStyle{Color: Vermillion, Width: 3}))
	mid := ax.Map(5, 5)
	assert.Equal(t, Vermillion, img.RGBAAt(int(mid.X), int(mid.Y)))
	// Data outside the domain is clipped to the plot area.
	require.NoError(t, ax.Line(img, []float64{-100, 100}, []float64{5, 5}, LineStyle{Color: Blue, Width: 3}))
	y := int(ax.Y.Map(5))
	assert.Equal(t, Blue, img.RGBAAt(ax.Plot.Min.X, y))
	assert.NotEqual(t, Blue, img.RGBAAt(ax.Plot.Min.X-1, y))
	assert.NotEqual(t, Blue, img.RGBAAt(ax.Plot.Max.X, y))

	assert.ErrorIs(t, ax.Line(img, []float64{1}, []float64{1, 2}, LineStyle{}), ErrLengthMismatch)
	assert.ErrorIs(t, ax.Line(img, nil, nil, LineStyle{}), ErrEmptyData)
	// NaN and Inf are skipped, not fatal.
	assert.NoError(t, ax.Line(img, []float64{1, math.NaN(), 3, math.Inf(1)}, []float64{1, 2, math.NaN(), 4}, LineStyle{}))
	assert.NoError(t, ax.Line(nil, []float64{1, 2}, []float64{1, 2}, LineStyle{}))
}

func TestLineOnLogAxisSkipsNonPositive(t *testing.T) {
	y, err := NewLog2(1, 1024)
	require.NoError(t, err)
	ax, img := newTestAxes(t, image.Rect(0, 0, 400, 300), linear(t, 0, 4), y, AxesOptions{})
	before := append([]uint8(nil), img.Pix...)
	require.NoError(t, ax.Line(img, []float64{0, 1, 2}, []float64{0, -4, 0}, LineStyle{Marker: MarkerCircle}))
	assert.Equal(t, before, img.Pix, "no placeable points, nothing drawn")
	require.NoError(t, ax.Line(img, []float64{0, 4}, []float64{32, 32}, LineStyle{Color: Blue}))
	assert.Equal(t, Blue, img.RGBAAt(200, int(ax.Y.Map(32))))
}

func TestStepSeries(t *testing.T) {
	ax, img := newTestAxes(t, image.Rect(0, 0, 400, 300), linear(t, 0, 3), linear(t, 0, 3), AxesOptions{HideXGrid: true, HideYGrid: true})
	require.NoError(t, ax.Step(img, []float64{0, 1, 2, 3}, []float64{1, 2, 1, 2}, StepPost, LineStyle{Color: Black, Width: 2}))
	// Post: y=1 holds from x=0 to x=1; at x=0.5, y=2 is empty.
	at := func(x, y float64) color.RGBA { p := ax.Map(x, y); return img.RGBAAt(int(p.X), int(p.Y)) }
	assert.Equal(t, Black, at(0.5, 1))
	assert.NotEqual(t, Black, at(0.5, 2))
	assert.Equal(t, Black, at(1.5, 2))
	assert.Equal(t, Black, at(1, 1.5), "vertical riser at x=1")
	assert.ErrorIs(t, ax.Step(img, []float64{0}, []float64{0}, StepMode(9), LineStyle{}), ErrBadArgument)
}

func TestScatter(t *testing.T) {
	ax, img := newTestAxes(t, image.Rect(0, 0, 300, 300), linear(t, 0, 1), linear(t, 0, 1), AxesOptions{})
	require.NoError(t, ax.Scatter(img, []float64{0.5, math.NaN()}, []float64{0.5, 0.2}, MarkerStyle{Color: Orange, Size: 10}))
	p := ax.Map(0.5, 0.5)
	assert.Equal(t, Orange, img.RGBAAt(int(p.X), int(p.Y)))
	assert.ErrorIs(t, ax.Scatter(img, nil, []float64{1}, MarkerStyle{}), ErrLengthMismatch)
}

func TestHistogram(t *testing.T) {
	ax, img := newTestAxes(t, image.Rect(0, 0, 400, 300), linear(t, 0, 4), linear(t, 0, 10), AxesOptions{HideXGrid: true, HideYGrid: true})
	require.NoError(t, ax.Histogram(img, []float64{0, 1, 2, 3, 4}, []float64{5, math.NaN(), 10, 0}, BarStyle{Fill: Blue}))
	at := func(x, y float64) color.RGBA { p := ax.Map(x, y); return img.RGBAAt(int(p.X), int(p.Y)) }
	assert.Equal(t, Blue, at(0.5, 4.9))
	assert.NotEqual(t, Blue, at(0.5, 5.2))
	assert.NotEqual(t, Blue, at(1.5, 1), "NaN count skipped")
	assert.Equal(t, Blue, at(2.5, 9.9))
	// Adjacent bars meet with no gap: bins 2 and 3 of equal height.
	require.NoError(t, ax.Histogram(img, []float64{1, 2, 3}, []float64{3, 3}, BarStyle{Fill: Orange}))
	row := int(ax.Y.Map(1))
	for x := int(ax.X.Map(1)) + 1; x < int(ax.X.Map(3)); x++ {
		require.Equal(t, Orange, img.RGBAAt(x, row), "x=%d", x)
	}
	assert.ErrorIs(t, ax.Histogram(img, []float64{0, 1}, []float64{1, 2}, BarStyle{}), ErrLengthMismatch)
	assert.ErrorIs(t, ax.Histogram(img, []float64{0}, nil, BarStyle{}), ErrEmptyData)
}

func TestHistogramLogY(t *testing.T) {
	y, err := NewLog10(1, 1e4)
	require.NoError(t, err)
	ax, img := newTestAxes(t, image.Rect(0, 0, 400, 300), linear(t, 0, 3), y, AxesOptions{HideXGrid: true, HideYGrid: true})
	require.NoError(t, ax.Histogram(img, []float64{0, 1, 2, 3}, []float64{100, 0, 1e5}, BarStyle{Fill: Blue}))
	at := func(x, y float64) color.RGBA { p := ax.Map(x, y); return img.RGBAAt(int(p.X), int(p.Y)) }
	assert.Equal(t, Blue, at(0.5, 2), "bars rise from the bottom of a log axis")
	assert.Equal(t, Blue, at(0.5, 99))
	assert.NotEqual(t, Blue, at(0.5, 110))
	assert.NotEqual(t, Blue, at(1.5, 2), "zero count left out on a log axis")
	assert.Equal(t, Blue, at(2.5, 9000), "bars above the domain are clipped")
}

func TestBarsBandMarkers(t *testing.T) {
	x, err := NewBand([]string{"a", "b", "c"})
	require.NoError(t, err)
	ax, img := newTestAxes(t, image.Rect(0, 0, 400, 300), x, linear(t, -1, 3), AxesOptions{HideXGrid: true, HideYGrid: true})
	require.NoError(t, ax.Bars(img, []float64{0, 1, 2}, []float64{1, -1, 2}, 0.8, BarStyle{Fill: BluishGreen}))
	at := func(x, y float64) color.RGBA { p := ax.Map(x, y); return img.RGBAAt(int(p.X), int(p.Y)) }
	assert.Equal(t, BluishGreen, at(0, 0.5))
	assert.Equal(t, BluishGreen, at(1, -0.5), "negative bar hangs below y=0")
	assert.NotEqual(t, BluishGreen, at(1, 0.5))
	assert.NotEqual(t, BluishGreen, at(0.45, 0.5), "gap between bars")
	assert.ErrorIs(t, ax.Bars(img, []float64{0}, []float64{1}, 0, BarStyle{}), ErrBadArgument)

	band := WithAlpha(SkyBlue, 0x40)
	ax.VBand(img, 1.5, 1e9, band, "window")
	p := ax.Map(2.4, 2.8)
	assert.NotEqual(t, white, img.RGBAAt(int(p.X), int(p.Y)))
	ax.VMarker(img, 0.5, "max", LineStyle{Color: Vermillion, Width: 2})
	q := ax.Map(0.5, 2.5)
	assert.Equal(t, Vermillion, img.RGBAAt(int(q.X), int(q.Y)))
	ax.HMarker(img, 2.5, "level", LineStyle{Color: ReddishPurple, Width: 2, Dash: []float64{4, 2}})
	assert.NotPanics(t, func() {
		ax.VMarker(img, math.NaN(), "nan", LineStyle{})
		ax.VBand(img, math.Inf(-1), 2, band, "")
		ax.Text(img, math.NaN(), 1, "x", TextStyle{})
	})
	// Labels of markers and bands that would collide are stacked.
	assert.Len(t, ax.labels, 3)
	for i := range ax.labels {
		for j := i + 1; j < len(ax.labels); j++ {
			assert.False(t, ax.labels[i].Overlaps(ax.labels[j]), "%v %v", ax.labels[i], ax.labels[j])
		}
	}
}

// overlapping returns the pairs of recorded texts whose boxes overlap.
func overlapping(boxes []observe.Text) []string {
	var out []string
	for i, a := range boxes {
		for _, b := range boxes[i+1:] {
			if a.Box.Overlaps(b.Box) {
				out = append(out, fmt.Sprintf("%q %v and %q %v", a.Text, a.Box, b.Text, b.Box))
			}
		}
	}
	return out
}

// A y tick label at the foot of the y axis and the first x tick label meet
// at the plot's corner: with large type (a phone at 3×) the y label's lower
// half reaches below the frame into the x labels' row. No two tick labels
// of any axes may overlap; the y label gives way.
func TestTickLabelsClearAtTheCorner(t *testing.T) {
	x, err := NewLog2(1, 1024)
	require.NoError(t, err)
	for _, size := range []float64{14, 24, 36, 48} {
		th := LightTheme()
		th.TickSize = size
		k := size / 14
		outer := image.Rect(0, 0, int(300*k), int(160*k))
		ax, err := NewAxes(outer, x, linear(t, 0, 40), AxesOptions{Theme: &th})
		require.NoError(t, err)
		img := NewCanvas(outer.Max.X, outer.Max.Y, white)
		boxes := recordText(img, func() { ax.Draw(img) })
		var xs, ys int
		for _, b := range boxes {
			switch {
			case b.Box.Min.Y >= ax.Plot.Max.Y:
				xs++
			case b.Box.Max.X <= ax.Plot.Min.X:
				ys++
			}
		}
		require.Greater(t, xs, 2, "x tick labels drawn at text size %g", size)
		require.Greater(t, ys, 1, "y tick labels drawn at text size %g", size)
		assert.Empty(t, overlapping(boxes), "tick labels at text size %g", size)
	}
}
