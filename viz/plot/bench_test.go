package plot

import (
	"bytes"
	"image"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// renderBenchFigure renders a 1280x720 frame like a scene would: a line
// panel with a 1000-point series and a 64x64 heatmap panel with a colour
// bar.
func renderBenchFigure(img *image.RGBA, xs, ys []float64, grid [][]float64) error {
	th := LightTheme()
	Clear(img, th.Background)
	cols, err := SplitColumns(img.Rect, 16, 3, 2, 0.35)
	if err != nil {
		return err
	}
	x, err := NewLinear(0, 1000)
	if err != nil {
		return err
	}
	y, err := NewLinear(-1.5, 1.5)
	if err != nil {
		return err
	}
	ax, err := NewAxes(cols[0], x, y, AxesOptions{Title: "1000 points", XLabel: "step", YLabel: "value", Theme: &th})
	if err != nil {
		return err
	}
	ax.Draw(img)
	if err := ax.Line(img, xs, ys, LineStyle{Color: Blue, Width: 2}); err != nil {
		return err
	}
	gx, err := NewLinear(0, 64)
	if err != nil {
		return err
	}
	gy, err := NewLinear(64, 0)
	if err != nil {
		return err
	}
	gax, err := NewAxes(cols[1], gx, gy, AxesOptions{Title: "64×64 heatmap", XLabel: "column", YLabel: "row", Theme: &th})
	if err != nil {
		return err
	}
	gax.Draw(img)
	vs, err := NewLinear(-1, 1)
	if err != nil {
		return err
	}
	if err := gax.Heatmap(img, grid, HeatmapStyle{Map: BlueWhiteRed, Value: vs}); err != nil {
		return err
	}
	cb := image.Rect(cols[2].Min.X, gax.Plot.Min.Y, cols[2].Max.X, gax.Plot.Max.Y)
	return DrawColorBar(img, cb, ColorBarStyle{Map: BlueWhiteRed, Value: vs, Label: "error"}, &th)
}

func TestBenchFigureIsDeterministic(t *testing.T) {
	xs, ys, grid := benchData()
	a := image.NewRGBA(image.Rect(0, 0, 1280, 720))
	b := image.NewRGBA(image.Rect(0, 0, 1280, 720))
	require.NoError(t, renderBenchFigure(a, xs, ys, grid))
	require.NoError(t, renderBenchFigure(b, xs, ys, grid))
	assert.True(t, bytes.Equal(a.Pix, b.Pix))
}

func benchData() (xs, ys []float64, grid [][]float64) {
	xs = make([]float64, 1000)
	ys = make([]float64, 1000)
	for i := range xs {
		xs[i] = float64(i)
		ys[i] = math.Sin(float64(i)/40) + 0.3*math.Sin(float64(i)*0.9)
	}
	grid = make([][]float64, 64)
	for i := range grid {
		grid[i] = make([]float64, 64)
		for j := range grid[i] {
			grid[i][j] = math.Sin(float64(i)/7) * math.Cos(float64(j)/5)
		}
	}
	return xs, ys, grid
}

func BenchmarkFigure1280x720(b *testing.B) {
	xs, ys, grid := benchData()
	img := image.NewRGBA(image.Rect(0, 0, 1280, 720))
	b.ReportAllocs()
	for b.Loop() {
		if err := renderBenchFigure(img, xs, ys, grid); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/frame")
}
