package plot_test

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"

	"github.com/fp8lab/fp8lab/viz/plot"
)

// Each example draws one kind of plot and writes it as a PNG to out, which
// is io.Discard when the example runs as an example; the golden tests
// (golden_test.go) capture it and compare it with testdata/NAME.png.

// Axes with two line series: a solid one with a gap where a value is NaN,
// and a dashed one.
func ExampleAxes_Line() {
	th := plot.LightTheme()
	img := plot.NewCanvas(480, 300, th.Background)
	x, _ := plot.NewLinear(0, 448)
	y, _ := plot.NewLinear(-1.2, 1.2)
	ax, _ := plot.NewAxes(img.Rect, x, y, plot.AxesOptions{Title: "Line", XLabel: "input x", YLabel: "value", Theme: &th})
	ax.Draw(img)
	var xs, sin, cos []float64
	for i := 0; i <= 200; i++ {
		v := 448 * float64(i) / 200
		xs = append(xs, v)
		sin = append(sin, math.Sin(v/48))
		cos = append(cos, math.Cos(v/48))
	}
	sin[120] = math.NaN() // a gap in the line
	_ = ax.Line(img, xs, sin, plot.LineStyle{Color: plot.Blue, Width: 2.5})
	_ = ax.Line(img, xs, cos, plot.LineStyle{Color: plot.Vermillion, Width: 1.5, Dash: []float64{6, 4}})
	fmt.Println("plot area", ax.Plot)
	_ = png.Encode(out, img)
	// Output:
	// plot area (60,35)-(468,239)
}

// A step series: rounding to a grid of quarter steps, the value held from
// each x to the next.
func ExampleAxes_Step() {
	th := plot.LightTheme()
	img := plot.NewCanvas(480, 300, th.Background)
	x, _ := plot.NewLinear(-2, 2)
	y, _ := plot.NewLinear(-2.2, 2.2)
	ax, _ := plot.NewAxes(img.Rect, x, y, plot.AxesOptions{Title: "Step", XLabel: "x", YLabel: "round(x)", Theme: &th})
	ax.Draw(img)
	var xs, ys []float64
	for v := -2.0; v <= 2; v += 0.25 {
		xs = append(xs, v)
		ys = append(ys, math.Round(v))
	}
	_ = ax.Line(img, []float64{-2, 2}, []float64{-2, 2}, plot.LineStyle{Color: th.Grid, Width: 1})
	_ = ax.Step(img, xs, ys, plot.StepMid, plot.LineStyle{Color: plot.Blue, Width: 2, Marker: plot.MarkerCircle, MarkerSize: 5})
	_ = png.Encode(out, img)
}

// A scatter plot with one series per marker shape.
func ExampleAxes_Scatter() {
	th := plot.LightTheme()
	img := plot.NewCanvas(480, 300, th.Background)
	x, _ := plot.NewLinear(0, 8)
	y, _ := plot.NewLinear(0, 8)
	ax, _ := plot.NewAxes(img.Rect, x, y, plot.AxesOptions{Title: "Scatter", XLabel: "x", YLabel: "y", Theme: &th})
	ax.Draw(img)
	shapes := []plot.Marker{plot.MarkerCircle, plot.MarkerSquare, plot.MarkerDiamond, plot.MarkerTriangleUp,
		plot.MarkerTriangleDown, plot.MarkerPlus, plot.MarkerCross}
	for i, m := range shapes {
		xs := []float64{float64(i) + 1, float64(i) + 1.4, float64(i) + 0.7}
		ys := []float64{float64(i) + 1, float64(i) + 0.3, float64(i) + 1.6}
		_ = ax.Scatter(img, xs, ys, plot.MarkerStyle{Shape: m, Size: 10, Color: plot.Categorical(i)})
	}
	fmt.Println(len(shapes), "marker shapes")
	_ = png.Encode(out, img)
	// Output:
	// 7 marker shapes
}

// A histogram of magnitudes on a log₂ axis, with the range of a format
// shaded and its limits marked.
func ExampleAxes_Histogram() {
	th := plot.LightTheme()
	img := plot.NewCanvas(480, 300, th.Background)
	var edges, counts []float64
	for e := -14.0; e <= 12; e += 0.5 {
		edges = append(edges, math.Exp2(e))
	}
	for i := 0; i+1 < len(edges); i++ {
		mid := math.Log2(edges[i]) + 0.25
		counts = append(counts, math.Round(5000*math.Exp(-(mid+1)*(mid+1)/18)))
	}
	x, _ := plot.NewLog2(math.Exp2(-14), math.Exp2(12))
	y, _ := plot.NewLinear(0, 5500)
	ax, _ := plot.NewAxes(img.Rect, x, y, plot.AxesOptions{Title: "Histogram", XLabel: "|x|", YLabel: "count", Theme: &th, HideXGrid: true})
	ax.Draw(img)
	ax.VBand(img, math.Exp2(-9), 448, plot.WithAlpha(plot.SkyBlue, 0x38), "E4M3FN range")
	_ = ax.Histogram(img, edges, counts, plot.BarStyle{Fill: plot.WithAlpha(plot.Blue, 0xcc)})
	ax.VMarker(img, math.Exp2(-6), "min normal 2⁻⁶", plot.LineStyle{Color: plot.Vermillion, Width: 1.5, Dash: []float64{5, 3}})
	ax.VMarker(img, 448, "max 448", plot.LineStyle{Color: plot.Vermillion, Width: 1.5})
	_ = png.Encode(out, img)
}

// Bars over a band scale: one category per format.
func ExampleAxes_Bars() {
	th := plot.LightTheme()
	img := plot.NewCanvas(480, 300, th.Background)
	names := []string{"E2M1", "E3M2", "E2M3", "E4M3FN", "E5M2"}
	bits := []float64{2, 3, 2, 4, 5} // exponent bits
	x, _ := plot.NewBand(names)
	y, _ := plot.NewLinear(0, 6)
	ax, _ := plot.NewAxes(img.Rect, x, y, plot.AxesOptions{Title: "Bars", XLabel: "format", YLabel: "exponent bits", Theme: &th, HideXGrid: true})
	ax.Draw(img)
	idx := make([]float64, len(names))
	for i := range idx {
		idx[i] = float64(i)
	}
	_ = ax.Bars(img, idx, bits, 0.7, plot.BarStyle{Fill: plot.SkyBlue, Edge: plot.Blue})
	fmt.Println(x.Len(), "bands")
	_ = png.Encode(out, img)
	// Output:
	// 5 bands
}

// exampleGrid is a smooth signed pattern, like the error of each block of
// a scaled tensor.
func exampleGrid(rows, cols int) [][]float64 {
	g := make([][]float64, rows)
	for i := range g {
		g[i] = make([]float64, cols)
		for j := range g[i] {
			x, y := float64(j)/float64(cols), float64(i)/float64(rows)
			g[i][j] = 0.06 * math.Sin(5*x+1) * math.Cos(4*y) * (0.4 + x)
		}
	}
	return g
}

// A heatmap of signed errors with a diverging colour map; the reversed y
// scale puts row 0 at the top, like a matrix.
func ExampleAxes_Heatmap() {
	th := plot.LightTheme()
	img := plot.NewCanvas(400, 360, th.Background)
	grid := exampleGrid(16, 16)
	x, _ := plot.NewLinear(0, 16)
	y, _ := plot.NewLinear(16, 0)
	ax, _ := plot.NewAxes(img.Rect, x, y, plot.AxesOptions{Title: "Heatmap", XLabel: "column block", YLabel: "row block", Theme: &th})
	ax.Draw(img)
	lo, hi, _ := plot.SymmetricRange(grid)
	v, _ := plot.NewLinear(lo, hi)
	_ = ax.Heatmap(img, grid, plot.HeatmapStyle{Map: plot.BlueWhiteRed, Value: v})
	_ = png.Encode(out, img)
}

// Colour bars for a value scale: a vertical one beside a plot, and a
// horizontal one under a picture.
func ExampleDrawColorBar() {
	th := plot.LightTheme()
	img := plot.NewCanvas(480, 300, th.Background)
	v, _ := plot.NewLinear(-0.05, 0.05)
	vertical := image.Rect(20, 20, 120, 280)
	_ = plot.DrawColorBar(img, vertical, plot.ColorBarStyle{Map: plot.BlueWhiteRed, Value: v, Label: "error"}, &th)
	log, _ := plot.NewLog10(1e-3, 1e3)
	horizontal := image.Rect(170, 120, 400, 140)
	_ = plot.DrawColorBar(img, horizontal, plot.ColorBarStyle{Value: log, Label: "|x|", Horizontal: true}, &th)
	fmt.Println(img.RGBAAt(25, 20) == plot.BlueWhiteRed.At(1), img.RGBAAt(170, 130) == plot.Viridis.At(0))
	_ = png.Encode(out, img)
	// Output:
	// true true
}

// exampleEntries has one legend entry of every kind.
var exampleEntries = []plot.LegendEntry{
	{Label: "sin(x/48)", Color: plot.Blue, Width: 2.5},
	{Label: "quantised", Color: plot.Vermillion, Width: 1.5, Dash: []float64{6, 4}},
	{Label: "line with markers", Color: plot.ReddishPurple, Marker: plot.MarkerSquare},
	{Label: "cos samples", Color: plot.BluishGreen, Kind: plot.LegendMarker, Marker: plot.MarkerDiamond},
	{Label: "E4M3FN range", Color: plot.SkyBlue, Kind: plot.LegendSwatch},
}

// A boxed legend in each corner of an area, one entry of every kind.
func ExampleDrawLegend() {
	th := plot.LightTheme()
	img := plot.NewCanvas(480, 300, th.Background)
	area := plot.Inset(img.Rect, 4)
	plot.StrokeRect(img, area, 1, th.Frame)
	box, _ := plot.DrawLegend(img, area, plot.TopLeft, exampleEntries, &th)
	_, _ = plot.DrawLegend(img, area, plot.BottomRight, exampleEntries[3:], &th)
	fmt.Println("top-left legend", box)
	_ = png.Encode(out, img)
	// Output:
	// top-left legend (12,12)-(172,129)
}

// An inline legend, wrapping into rows within a width, as scenes put one
// above a plot.
func ExampleDrawInlineLegend() {
	th := plot.LightTheme()
	img := plot.NewCanvas(480, 120, th.Background)
	st := plot.TextStyle{Size: 14}
	size := plot.MeasureInlineLegend(440, exampleEntries, st, &th)
	used := plot.DrawInlineLegend(img, 20, 20, 440, exampleEntries, st, &th)
	fmt.Println(size == used.Size(), used)
	_ = png.Encode(out, img)
	// Output:
	// true (20,20)-(365,60)
}

// Bands and markers annotate a plot: a shaded x range and y range,
// vertical and horizontal marker lines, and text at a data point.
func ExampleAxes_VBand() {
	th := plot.LightTheme()
	img := plot.NewCanvas(480, 300, th.Background)
	x, _ := plot.NewLinear(0, 10)
	y, _ := plot.NewLinear(0, 10)
	ax, _ := plot.NewAxes(img.Rect, x, y, plot.AxesOptions{Title: "Bands and markers", Theme: &th})
	ax.Draw(img)
	ax.VBand(img, 2, 4, color.RGBA{}, "x band")
	ax.HBand(img, 6, 8, plot.WithAlpha(plot.Orange, 0x40), "y band")
	ax.VMarker(img, 7, "x = 7", plot.LineStyle{Color: plot.Vermillion, Width: 1.5, Dash: []float64{4, 3}})
	ax.HMarker(img, 3, "y = 3", plot.LineStyle{Color: plot.Blue, Width: 1.5})
	ax.Text(img, 8.5, 1.5, "a note", plot.TextStyle{Size: 14, Align: plot.AlignCenter})
	_ = png.Encode(out, img)
}

// Image panels: grey values in [0, 1] and the same through a colour map,
// each with a caption.
func ExampleDrawImagePanel() {
	th := plot.LightTheme()
	img := plot.NewCanvas(480, 240, th.Background)
	const w, h = 48, 32
	ramp := make([]float32, w*h)
	threshold := make([]float32, w*h)
	for y := range h {
		for x := range w {
			v := float32(x) / float32(w-1)
			if d := x - y; d > -4 && d < 4 {
				v = 1 - v
			}
			ramp[y*w+x] = v
			if v >= 0.5 {
				threshold[y*w+x] = 1
			}
		}
	}
	panels, _ := plot.SplitColumns(plot.Inset(img.Rect, 8), 16, 1, 1)
	r, _ := plot.DrawImagePanel(img, panels[0], ramp, w, h, plot.ImageStyle{Caption: "ramp (48×32)", Theme: &th})
	_, _ = plot.DrawImagePanel(img, panels[1], threshold, w, h, plot.ImageStyle{Caption: "threshold at 0.5", Map: plot.Viridis, Theme: &th})
	fmt.Println("image at", r)
	_ = png.Encode(out, img)
	// Output:
	// image at (24,45)-(216,173)
}

// A title bar over a grid of cells, the layout of a scene's picture.
func ExampleDrawTitleBar() {
	th := plot.LightTheme()
	img := plot.NewCanvas(480, 300, th.Background)
	body := plot.DrawTitleBar(img, img.Rect, "fp8lab", "a title bar over a 2×3 grid", &th)
	cells, _ := plot.GridCells(plot.Inset(body, 8), 2, 3, 8)
	for i, c := range cells {
		plot.FillRect(img, c, plot.WithAlpha(plot.Categorical(i), 0x60))
		plot.StrokeRect(img, c, 1, th.Frame)
	}
	fmt.Println("body", body, "first cell", cells[0])
	_ = png.Encode(out, img)
	// Output:
	// body (0,39)-(480,300) first cell (8,47)-(157,166)
}
