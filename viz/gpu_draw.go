package viz

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/docs/gpu"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// draw lays the panels out side by side (stacked on a tall picture), two
// by two when there are four.
func (s *gpuScene) draw(dst *image.RGBA, st style, body image.Rectangle) error {
	panels := s.gpuPanels()
	var rects []image.Rectangle
	var err error
	switch len(panels) {
	case 1:
		rects = []image.Rectangle{body}
	case 4:
		rects, err = st.grid(body, 2, 2, st.px(18))
	default:
		w := make([]float64, len(panels))
		for i := range w {
			w[i] = 1
		}
		rects, err = st.columns(body, st.px(22), w...)
	}
	if err != nil {
		return err
	}
	for i, p := range panels {
		var perr error
		switch p {
		case gpuGEMM:
			perr = s.drawGEMM(dst, st, rects[i])
		case gpuBandwidth:
			perr = s.drawBandwidth(dst, st, rects[i])
		case gpuAccum:
			perr = s.drawAccum(dst, st, rects[i])
		case gpuLinear:
			perr = s.drawLinear(dst, st, rects[i])
		}
		if perr != nil {
			errorPanel(dst, rects[i], st, perr.Error())
		}
	}
	return nil
}

// logTicks is a log scale with caller-chosen ticks.
type logTicks struct {
	plot.LogScale
	ticks []plot.Tick
}

// Ticks implements plot.Scale.
func (s logTicks) Ticks() []plot.Tick { return slices.Clone(s.ticks) }

// WithRange implements plot.Scale.
func (s logTicks) WithRange(p0, p1 float64) plot.Scale {
	ls, _ := s.LogScale.WithRange(p0, p1).(plot.LogScale)
	return logTicks{LogScale: ls, ticks: s.ticks}
}

// logSpan returns a log10 scale covering vs (positive values) with a
// margin of pad times at each end.
func logSpan(vs []float64, pad float64) (plot.LogScale, error) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if v > 0 && !math.IsInf(v, 0) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if math.IsInf(lo, 1) {
		return plot.LogScale{}, fmt.Errorf("no positive values to plot")
	}
	return plot.NewLog10(lo/pad, hi*pad)
}

// drawGEMM plots TFLOPS against each product's work (log-log): FP8 (the
// faster of fast accumulation on and off) and BF16, the speed-up written
// at the largest product.
func (s *gpuScene) drawGEMM(dst *image.RGBA, st style, r image.Rectangle) error {
	m := &s.m
	if len(m.products) == 0 {
		return fmt.Errorf("this run measured no FP8 and BF16 products")
	}
	var xs, fp8, bf16, all []float64
	for _, p := range m.products {
		xs = append(xs, work(p)/1e9)
		fp8 = append(fp8, p.FP8())
		bf16 = append(bf16, p.BF16.TFLOPS)
	}
	all = append(append(all, fp8...), bf16...)
	xsc, err := logSpan(xs, 2)
	if err != nil {
		return err
	}
	ysc, err := logSpan(all, 2.5)
	if err != nil {
		return err
	}
	legend := []plot.LegendEntry{
		{Label: "FP8 E4M3", Color: gpuFP8Color, Kind: plot.LegendMarker, Marker: plot.MarkerCircle},
		{Label: "BF16", Color: gpuBF16Color, Kind: plot.LegendMarker, Marker: plot.MarkerSquare},
	}
	ax, err := st.axes(r, xsc, ysc, "Matrix products: TFLOPS by size", "work per product (GFLOP)", "TFLOPS", legend...)
	if err != nil {
		return err
	}
	ax.Draw(dst)
	size := st.pxf(9)
	if err := ax.Scatter(dst, xs, bf16, plot.MarkerStyle{Shape: plot.MarkerSquare, Size: size, Color: gpuBF16Color}); err != nil {
		return err
	}
	if err := ax.Scatter(dst, xs, fp8, plot.MarkerStyle{Shape: plot.MarkerCircle, Size: size, Color: gpuFP8Color}); err != nil {
		return err
	}
	// The square products, in a sweep, read as a curve.
	var sx, sf, sb []float64
	for i, p := range m.products {
		if p.Square() {
			sx, sf, sb = append(sx, xs[i]), append(sf, fp8[i]), append(sb, bf16[i])
		}
	}
	if len(sx) > 1 {
		_ = ax.Line(dst, sx, sf, plot.LineStyle{Color: gpuFP8Color, Width: st.pxf(1.5)})
		_ = ax.Line(dst, sx, sb, plot.LineStyle{Color: gpuBF16Color, Width: st.pxf(1.5)})
	}
	last := m.products[len(m.products)-1]
	if _, err = ax.Legend(dst, plot.TopLeft, legend); err != nil {
		return err
	}
	// The speed-up of the largest product goes where it covers no data and
	// stays inside the plot at every size (or is left out).
	ax.Note(dst, fmt.Sprintf("%s: %s×", last.Shape, strconv.FormatFloat(last.Speedup(), 'f', 2, 64)), plot.BottomRight, st.text(14, plot.FontBold, gpuFP8Color))
	return nil
}

// drawBandwidth draws one bar per kernel: its bandwidth as a share of the
// copy's, a tick at its goal, green where it meets it and vermillion where
// it misses.
func (s *gpuScene) drawBandwidth(dst *image.RGBA, st style, r image.Rectangle) error {
	m := &s.m
	if len(m.kernels) == 0 {
		return fmt.Errorf("this run measured no kernel bandwidths")
	}
	ts := st.text(14, plot.FontRegular, color.RGBA{})
	ts.VAlign = plot.AlignMiddle
	// Every kernel where its name fits its bar; else the kernels with a
	// goal, if their names fit; else every kernel, unnamed.
	kernels, title := m.kernels, "Kernels: bandwidth as a share of a copy"
	rowFits := func(n int) bool {
		return float64(plot.MeasureText("Xy", ts).Height())*1.15*float64(n) <= float64(r.Dy())*0.8
	}
	if !rowFits(len(kernels)) {
		var goals []gpu.BenchResult
		for _, k := range kernels {
			if k.Goal > 0 {
				goals = append(goals, k)
			}
		}
		if len(goals) > 0 && rowFits(len(goals)) {
			kernels, title = goals, "Kernels with a goal: share of a copy"
		}
	}
	n := len(kernels)
	hi := 1.1
	for _, k := range kernels {
		hi = max(hi, k.OfCopy*1.05)
	}
	var ticks []plot.Tick
	for v := 0.0; v <= hi; v += 0.25 {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.Itoa(int(math.Round(v*100))) + "%"})
	}
	xsc, err := newTickScale(0, hi, ticks)
	if err != nil {
		return err
	}
	ysc, err := newTickScale(0, float64(n), nil)
	if err != nil {
		return err
	}
	if m.hasCopy {
		title += fmt.Sprintf(" (%s GB/s)", strconv.FormatFloat(m.copy.GBps, 'f', 0, 64))
	}
	th := st.th
	ax, err := plot.NewAxes(r, xsc, ysc, plot.AxesOptions{Title: title, XLabel: "bandwidth, share of a copy's", Theme: &th, HideYGrid: true})
	if err != nil {
		return err
	}
	ax.Draw(dst)
	clip := ax.Clip(dst)
	rowH := float64(ax.Plot.Dy()) / float64(n)
	names := float64(plot.MeasureText("Xy", ts).Height()) <= rowH*1.05
	for i, k := range kernels {
		top := ax.Y.Map(float64(n - i))
		bot := ax.Y.Map(float64(n - i - 1))
		gap := math.Max(1, rowH*0.12)
		fill := plot.WithAlpha(gpuBF16Color, 0x70)
		switch {
		case k.Goal > 0 && k.OfCopy >= k.Goal:
			fill = plot.WithAlpha(plot.BluishGreen, 0x90)
		case k.Goal > 0:
			fill = plot.WithAlpha(plot.Vermillion, 0x90)
		}
		x0, x1 := ax.X.Map(0), ax.X.Map(k.OfCopy)
		plot.FillRect(clip, image.Rect(int(x0), int(top+gap), int(x1), int(bot-gap)), fill)
		if k.Goal > 0 {
			g := ax.X.Map(k.Goal)
			plot.Line(clip, g, top+gap, g, bot-gap, st.pxf(2), st.th.Foreground)
		}
		if names {
			label := kernelLabel(k.Name)
			w := ax.Plot.Dx() - st.px(8)
			for len(label) > 4 && plot.MeasureText(label, ts).Width > w {
				label = strings.TrimSpace(label[:len(label)-5]) + "…"
			}
			plot.DrawText(clip, label, float64(ax.Plot.Min.X)+st.pxf(4), (top+bot)/2, ts)
		}
	}
	one := ax.X.Map(1)
	plot.Line(clip, one, float64(ax.Plot.Min.Y), one, float64(ax.Plot.Max.Y), st.pxf(1.5), st.th.MutedText)
	return nil
}

// kernelLabel shortens a kernel's bench name for its bar: the words that
// every quantize row repeats go.
func kernelLabel(name string) string {
	name = strings.TrimPrefix(name, "quantize ")
	return strings.NewReplacer(" (read + write)", "", "software", "sw", "hardware", "hw").Replace(name)
}

// drawAccum plots the relative error of fast accumulation against K (both
// logarithmic): the device on and off, and the emulator's fitted
// accumulators beside them, one marker per operand kind.
func (s *gpuScene) drawAccum(dst *image.RGBA, st style, r image.Rectangle) error {
	m := &s.m
	if len(m.accum) == 0 {
		return fmt.Errorf("this run has no accumulation study")
	}
	kinds := gpuKinds
	if o := s.ps.str("operands"); o != "both" {
		kinds = []string{o}
	}
	var ks, ys []float64
	for _, row := range m.accum {
		if slices.Contains(kinds, row.kind) {
			ks = append(ks, float64(row.k))
			ys = append(ys, row.on, row.off, row.fast, row.promoted)
		}
	}
	lo, hi := slices.Min(ks), slices.Max(ks)
	xl, err := plot.NewLog2(lo/1.5, hi*1.5)
	if err != nil {
		return err
	}
	var ticks []plot.Tick
	for k := lo; k <= hi; k *= 2 {
		ticks = append(ticks, plot.Tick{Value: k, Label: strconv.Itoa(int(k))})
	}
	ysc, err := logSpan(ys, 2)
	if err != nil {
		return err
	}
	dev := m.run.Info.Name
	if f := strings.Fields(dev); len(f) > 1 {
		dev = f[1] // "NVIDIA H100 80GB HBM3" → "H100"
	}
	legend := []plot.LegendEntry{
		{Label: dev + " fast acc. on", Color: gpuOnColor, Marker: plot.MarkerCircle},
		{Label: dev + " off", Color: gpuOffColor, Marker: plot.MarkerCircle},
	}
	if m.emulated {
		legend = append(legend,
			plot.LegendEntry{Label: "emulated", Color: gpuFastColor, Dash: []float64{st.pxf(6), st.pxf(4)}},
			plot.LegendEntry{Label: "emulated, promoted", Color: gpuPromotedColor, Dash: []float64{st.pxf(6), st.pxf(4)}})
	}
	xlabel := "K, products per dot product"
	if len(kinds) == 2 {
		xlabel = "K (● growing, ▲ mixed signs)"
		if plot.MeasureText(xlabel, plot.TextStyle{Size: st.th.LabelSize}).Width > r.Dx()-st.px(12) {
			xlabel = "K (● growing, ▲ signed)" // a narrow chart
		}
	}
	ax, err := st.axes(r, logTicks{LogScale: xl, ticks: ticks}, ysc, "Fast accumulation: error against K", xlabel, "relative error", legend...)
	if err != nil {
		return err
	}
	ax.Draw(dst)
	w := st.pxf(2)
	dash := []float64{st.pxf(6), st.pxf(4)}
	// Lines first, the emulator's dashed over the device's solid (where
	// they coincide both show); then the emulator's hollow markers and,
	// inside them, the device's filled ones.
	var marks []func()
	for _, kind := range kinds {
		rows := m.kindRows(kind)
		mk := plot.MarkerCircle
		if kind == "signed" {
			mk = plot.MarkerTriangleUp
		}
		var x, on, off, fast, prom []float64
		for _, row := range rows {
			x = append(x, float64(row.k))
			on, off, fast, prom = append(on, row.on), append(off, row.off), append(fast, row.fast), append(prom, row.promoted)
		}
		series := []accumSeries{{off, gpuOffColor, nil}, {on, gpuOnColor, nil}}
		if m.emulated {
			series = append(series, accumSeries{prom, gpuPromotedColor, dash}, accumSeries{fast, gpuFastColor, dash})
		}
		for _, sr := range series {
			if err := ax.Line(dst, x, sr.y, plot.LineStyle{Color: sr.c, Width: w, Dash: sr.dash}); err != nil {
				return err
			}
			c, y, emulated := sr.c, sr.y, sr.dash != nil
			mark := func() {
				clip := ax.Clip(dst)
				for i := range x {
					p := ax.Map(x[i], y[i])
					if emulated {
						plot.DrawMarker(clip, mk, p.X, p.Y, st.pxf(13), c)
						plot.DrawMarker(clip, mk, p.X, p.Y, st.pxf(13)-2*w, st.th.PlotBackground)
					} else {
						plot.DrawMarker(clip, mk, p.X, p.Y, st.pxf(7), c)
					}
				}
			}
			if emulated {
				marks = append([]func(){mark}, marks...)
			} else {
				marks = append(marks, mark)
			}
		}
	}
	for _, mark := range marks {
		mark()
	}
	_, err = ax.Legend(dst, plot.BottomRight, legend)
	return err
}

// accumSeries is one line of the accumulation panel: dashed for the
// emulator, solid for the device.
type accumSeries struct {
	y    []float64
	c    color.RGBA
	dash []float64
}

// gpuRoleColors colour a plan's launches by role.
var gpuRoleColors = map[string]color.RGBA{
	gpu.RoleGEMM:          plot.Blue,
	gpu.RoleProduce:       plot.Hex(0x999999),
	gpu.RoleProduceAmax:   plot.Hex(0x777777),
	gpu.RoleAmax:          plot.Yellow,
	gpu.RoleScale:         plot.SkyBlue,
	gpu.RoleCast:          plot.Orange,
	gpu.RoleTranspose:     plot.Vermillion,
	gpu.RoleCastTranspose: plot.ReddishPurple,
}

// gpuRoles orders the roles in the timeline and its legend.
var gpuRoles = []string{gpu.RoleProduce, gpu.RoleProduceAmax, gpu.RoleAmax, gpu.RoleScale, gpu.RoleCast,
	gpu.RoleTranspose, gpu.RoleCastTranspose, gpu.RoleGEMM}

// drawLinear draws one timeline per plan: its launches in order, each as
// long as it took, coloured by role.
func (s *gpuScene) drawLinear(dst *image.RGBA, st style, r image.Rectangle) error {
	sh := s.m.linear
	if sh == nil {
		return fmt.Errorf("this run timed no linear layer")
	}
	n := len(sh.Plans)
	var hi float64
	for _, p := range sh.Plans {
		hi = max(hi, p.StepMillis())
	}
	if n == 0 || !(hi > 0) {
		return fmt.Errorf("the linear layer %s has no timed plan", layerName(*sh))
	}
	xsc, err := plot.NewLinear(0, hi*1.15)
	if err != nil {
		return err
	}
	var ticks []plot.Tick
	for i, p := range sh.Plans {
		ticks = append(ticks, plot.Tick{Value: float64(n-i) - 0.5, Label: p.Plan})
	}
	ysc, err := newTickScale(0, float64(n), ticks)
	if err != nil {
		return err
	}
	var legend []plot.LegendEntry
	for _, role := range gpuRoles {
		for _, p := range sh.Plans {
			if p.RoleMillis(role) > 0 && !slices.ContainsFunc(legend, func(e plot.LegendEntry) bool { return e.Label == role }) {
				legend = append(legend, plot.LegendEntry{Label: role, Color: gpuRoleColors[role], Kind: plot.LegendSwatch})
			}
		}
	}
	title := fmt.Sprintf("One linear layer %s, forward and backward: each launch's time", strings.ReplaceAll(layerName(*sh), "x", "×"))
	ax, err := st.axes(r, xsc, ysc, title, "milliseconds", "", legend...)
	if err != nil {
		return err
	}
	ax.Draw(dst)
	clip := ax.Clip(dst)
	ts := st.text(14, plot.FontRegular, color.RGBA{})
	ts.VAlign = plot.AlignMiddle
	for i, p := range sh.Plans {
		top, bot := ax.Y.Map(float64(n-i)-0.15), ax.Y.Map(float64(n-i-1)+0.15)
		var t float64
		for _, step := range p.Steps {
			x0, x1 := ax.X.Map(t), ax.X.Map(t+step.Millis)
			plot.FillRect(clip, image.Rect(int(x0), int(top), int(math.Max(x1, x0+1)), int(bot)), gpuRoleColors[step.Role])
			plot.Line(clip, x1, top, x1, bot, 1, st.th.PlotBackground)
			t += step.Millis
		}
		plot.DrawText(clip, strconv.FormatFloat(t, 'f', 3, 64)+" ms", ax.X.Map(t)+st.pxf(4), (top+bot)/2, ts)
	}
	_, err = ax.Legend(dst, plot.BottomRight, legend)
	return err
}
