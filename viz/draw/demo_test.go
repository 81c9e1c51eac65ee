package draw

import (
	"image"
	"math"
)

// demoHistogram returns log2-spaced bin edges from 2^-14 to 2^12 and
// counts shaped like the magnitudes of a tensor (a log-normal bump), all
// closed-form so the figure is deterministic.
func demoHistogram() (edges, counts []float64) {
	for e := -14.0; e <= 12; e += 0.5 {
		edges = append(edges, math.Exp2(e))
	}
	for i := 0; i+1 < len(edges); i++ {
		mid := math.Log2(edges[i]) + 0.25
		counts = append(counts, math.Round(5000*math.Exp(-(mid+1)*(mid+1)/18)))
	}
	return edges, counts
}

// demoErrors returns a rows x cols grid of signed relative errors with a
// smooth pattern, like a per-block scaling error heatmap.
func demoErrors(rows, cols int) [][]float64 {
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

// demoImage returns a w x h horizontal ramp with a diagonal band, and a
// 1-bit threshold of it, as a dithering scene would show.
func demoImage(w, h int) (ramp, threshold []float32) {
	ramp = make([]float32, w*h)
	threshold = make([]float32, w*h)
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
	return ramp, threshold
}

// renderDemo renders the composite demo figure used by the golden test: a
// title bar and four panels (line and step series with a legend, a log2
// histogram with a format window, a signed-error heatmap with a colour bar,
// and two image panels).
func renderDemo(w, h int) (*image.RGBA, error) {
	th := LightTheme()
	img := NewCanvas(w, h, th.Background)
	body := DrawTitleBar(img, img.Rect, "fp8lab · draw demo", "axes, series, histogram, heatmap, legend", &th)
	cells, err := GridCells(Inset(body, 8), 2, 2, 16)
	if err != nil {
		return nil, err
	}

	// Panel 1: line, step and scatter series.
	x, err := NewLinear(0, 448)
	if err != nil {
		return nil, err
	}
	y, err := NewLinear(-1.9, 1.2)
	if err != nil {
		return nil, err
	}
	ax, err := NewAxes(cells[0], x, y, AxesOptions{Title: "Series", XLabel: "input x", YLabel: "value", Theme: &th})
	if err != nil {
		return nil, err
	}
	ax.Draw(img)
	var xs, sine, steps []float64
	for i := 0; i <= 200; i++ {
		v := 448 * float64(i) / 200
		xs = append(xs, v)
		sine = append(sine, math.Sin(v/48))
		steps = append(steps, math.Round(4*math.Sin(v/48))/4)
	}
	xs[120] = math.NaN() // a gap in the line
	if err := ax.Line(img, xs, sine, LineStyle{Color: Blue, Width: 2.5}); err != nil {
		return nil, err
	}
	if err := ax.Step(img, xs, steps, StepPost, LineStyle{Color: Vermillion, Width: 1.5, Dash: []float64{6, 4}}); err != nil {
		return nil, err
	}
	sx := []float64{32, 96, 160, 224, 288, 352, 416}
	sy := make([]float64, len(sx))
	for i, v := range sx {
		sy[i] = math.Cos(v / 48)
	}
	if err := ax.Scatter(img, sx, sy, MarkerStyle{Shape: MarkerDiamond, Size: 10, Color: BluishGreen}); err != nil {
		return nil, err
	}
	ax.VMarker(img, 240, "240", LineStyle{Color: ReddishPurple, Width: 1.5, Dash: []float64{4, 3}})
	if _, err := ax.Legend(img, BottomLeft, []LegendEntry{
		{Label: "sin(x/48)", Color: Blue, Width: 2.5},
		{Label: "quantised", Color: Vermillion, Width: 1.5, Dash: []float64{6, 4}},
		{Label: "cos samples", Color: BluishGreen, Kind: LegendMarker, Marker: MarkerDiamond},
	}); err != nil {
		return nil, err
	}

	// Panel 2: histogram on a log2 axis with a format window.
	edges, counts := demoHistogram()
	hx, err := NewLog2(math.Exp2(-14), math.Exp2(12))
	if err != nil {
		return nil, err
	}
	hy, err := NewLinear(0, 5500)
	if err != nil {
		return nil, err
	}
	hax, err := NewAxes(cells[1], hx, hy, AxesOptions{Title: "Magnitudes vs E4M3FN", XLabel: "|x|", YLabel: "count", Theme: &th, HideXGrid: true})
	if err != nil {
		return nil, err
	}
	hax.Draw(img)
	hax.VBand(img, math.Exp2(-9), 448, WithAlpha(SkyBlue, 0x38), "E4M3FN range")
	if err := hax.Histogram(img, edges, counts, BarStyle{Fill: WithAlpha(Blue, 0xcc)}); err != nil {
		return nil, err
	}
	hax.VMarker(img, math.Exp2(-6), "min normal 2⁻⁶", LineStyle{Color: Vermillion, Width: 1.5, Dash: []float64{5, 3}})
	hax.VMarker(img, 448, "max 448", LineStyle{Color: Vermillion, Width: 1.5})

	// Panel 3: heatmap with a colour bar.
	cols, err := SplitColumns(cells[2], 8, 6, 1)
	if err != nil {
		return nil, err
	}
	grid := demoErrors(16, 16)
	gx, err := NewLinear(0, 16)
	if err != nil {
		return nil, err
	}
	gy, err := NewLinear(16, 0)
	if err != nil {
		return nil, err
	}
	gax, err := NewAxes(cols[0], gx, gy, AxesOptions{Title: "Relative error per block", XLabel: "column block", YLabel: "row block", Theme: &th})
	if err != nil {
		return nil, err
	}
	gax.Draw(img)
	lo, hi, err := SymmetricRange(grid)
	if err != nil {
		return nil, err
	}
	vs, err := NewLinear(lo, hi)
	if err != nil {
		return nil, err
	}
	if err := gax.Heatmap(img, grid, HeatmapStyle{Map: BlueWhiteRed, Value: vs}); err != nil {
		return nil, err
	}
	cbar := image.Rect(cols[1].Min.X, gax.Plot.Min.Y, cols[1].Max.X, gax.Plot.Max.Y)
	if err := DrawColorBar(img, cbar, ColorBarStyle{Map: BlueWhiteRed, Value: vs, Label: "error"}, &th); err != nil {
		return nil, err
	}

	// Panel 4: image panels.
	tb, panels := TitleBar(cells[3], 28)
	ts := th.titleStyle()
	ts.Align, ts.VAlign = AlignCenter, AlignTop
	DrawText(img, "Image panels", float64(tb.Min.X+tb.Max.X)/2, float64(tb.Min.Y+outerPad), ts)
	ps, err := SplitColumns(Inset(panels, 4), 16, 1, 1)
	if err != nil {
		return nil, err
	}
	ramp, thr := demoImage(48, 32)
	if _, err := DrawImagePanel(img, ps[0], ramp, 48, 32, ImageStyle{Caption: "ramp (48×32)", Theme: &th}); err != nil {
		return nil, err
	}
	if _, err := DrawImagePanel(img, ps[1], thr, 48, 32, ImageStyle{Caption: "threshold at 0.5", Map: Viridis, Theme: &th}); err != nil {
		return nil, err
	}
	return img, nil
}

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
