package viz

import (
	"fmt"
	"image"
	"math"
	"strings"

	"github.com/fp8lab/fp8lab/viz/plot"
)

// Render implements Scene.
func (s *hadamardScene) render(dst *image.RGBA, d Display) error {
	s.gainAx = nil
	cerr := s.compute()
	sub := "rows of N(0, 1) with outliers ±2" + plot.Superscript(s.ps.int("outlier")) + " · rotating spreads each outlier over its block"
	if s.ps.str("tensor") == "loaded" && cerr == nil {
		sub = s.crop
	}
	st, body, err := begin(dst, d, "Hadamard rotation and outliers", sub)
	if err != nil {
		return err
	}
	s.size = dst.Bounds().Size()
	if cerr != nil {
		errorPanel(dst, body, st, cerr.Error())
		return nil
	}
	cols, err := st.columns(body, st.px(28), 1, 1.1)
	if err != nil {
		return err
	}
	// The histograms one above the other, or side by side on a short
	// picture (the desktop app's), where stacked they would be too flat
	// for three labels on their count axes.
	split := plot.SplitRows
	if cols[0].Dy() < st.px(400) && cols[0].Dx() >= st.px(400) {
		split = plot.SplitColumns
	}
	left, err := split(cols[0], st.px(16), 1, 1)
	if err != nil {
		return err
	}
	if err := s.drawHist(dst, st, left[0], s.before, "Before rotation: the values of every row", ""); err != nil {
		return err
	}
	note := ""
	if len(s.outlierCols) > 0 {
		big := math.Exp2(float64(s.ps.int("outlier")))
		note = fmt.Sprintf("outlier ÷ √%d = %s", s.block, short(big/math.Sqrt(float64(s.block))))
	}
	if err := s.drawHist(dst, st, left[1], s.after, fmt.Sprintf("After a %d-point Hadamard rotation", s.block), note); err != nil {
		return err
	}
	// Three charts need height; on a short picture the per-element errors
	// give way to the side-by-side formats, which carry the lesson.
	weights := []float64{1, 1, 1}
	if cols[1].Dy() < st.px(560) {
		weights = weights[:2]
	}
	right, err := plot.SplitRows(cols[1], st.px(16), weights...)
	if err != nil {
		return err
	}
	if err := s.drawSQNR(dst, st, right[0]); err != nil {
		return err
	}
	if err := s.drawGains(dst, st, right[1]); err != nil {
		return err
	}
	if len(right) < 3 {
		return nil
	}
	return s.drawErrors(dst, st, right[2])
}

// drawGains draws, for every format of chartFormats, how many decibels
// the rotation adds to (blue, above zero) or takes from (vermillion, below)
// the SQNR of all elements: where rotation helps and where it hurts, side
// by side. The chosen format's label is marked; clicking a bar selects it.
func (s *hadamardScene) drawGains(dst *image.RGBA, st style, r image.Rectangle) error {
	labels := make([]string, len(s.gains))
	d := make([]float64, len(s.gains))
	lo, hi := 0.0, 0.0
	for i, g := range s.gains {
		labels[i] = g.name
		d[i] = g.rotated - g.plain
		if math.IsInf(d[i], 0) || math.IsNaN(d[i]) {
			d[i] = 0
		}
		lo, hi = math.Min(lo, d[i]), math.Max(hi, d[i])
	}
	xs, err := plot.NewBand(labels)
	if err != nil {
		return err
	}
	// Room above and below the bars for their labels.
	pad := math.Max(hi-lo, 1) * 0.3
	ys, err := plot.NewLinear(math.Floor(lo-pad), math.Ceil(hi+pad))
	if err != nil {
		return err
	}
	const title, ylabel = "SQNR change by rotating, per format", "Δ SQNR (dB)"
	ax, err := st.axes(r, xs, ys, title, "", ylabel)
	if err != nil {
		return err
	}
	// Every bar is named (the text names formats, the shaded one is the
	// chosen): where the names are wider than a band, the axis's own
	// labels, which would name every other bar, give way to two staggered
	// rows of them.
	tick := plot.TextStyle{Font: plot.FontRegular, Size: st.th.TickSize, Color: st.th.Foreground}
	// Neighbours need their half widths and the axis's 8-pixel gap
	// between them (plot's labelSpacing) within a band's step.
	staggered := false
	for i := 1; i < len(labels); i++ {
		pair := float64(plot.MeasureText(labels[i-1], tick).Width+plot.MeasureText(labels[i], tick).Width)/2 + 8
		staggered = staggered || pair > ax.Map(1, 0).X-ax.Map(0, 0).X
	}
	rowH := plot.MeasureText("Xg", tick).Height()
	th := st.th
	opts, box := plot.AxesOptions{Title: title, YLabel: ylabel, Theme: &th}, r
	if staggered {
		opts.SharedX, box = true, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Max.Y-2*rowH-st.px(8))
		if ax, err = plot.NewAxes(box, xs, ys, opts); err != nil {
			return err
		}
	}
	// The bars' labels need their height above the tallest bar and below
	// the deepest one, inside the plot area (a short picture, the desktop
	// app's, has less than the 30% pad gives).
	ts := st.text(14, plot.FontBold, st.th.Foreground)
	if frac := (float64(plot.MeasureText("Xg", ts).Height()) + st.pxf(6)) / float64(max(ax.Plot.Dy(), 1)); frac < 0.4 {
		span := math.Max(hi-lo, 1) / (1 - 2*frac)
		if y0, y1 := ys.Domain(); lo-frac*span < y0 || hi+frac*span > y1 {
			if ys, err = plot.NewLinear(math.Floor(math.Min(y0, lo-frac*span)), math.Ceil(math.Max(y1, hi+frac*span))); err != nil {
				return err
			}
			if ax, err = plot.NewAxes(box, xs, ys, opts); err != nil {
				return err
			}
		}
	}
	ax.Draw(dst)
	s.gainAx = ax
	if staggered {
		tick.Align, tick.VAlign = plot.AlignCenter, plot.AlignTop
		for i, l := range labels {
			plot.DrawText(dst, l, ax.Map(float64(i), 0).X, float64(ax.Plot.Max.Y+st.px(8)+i%2*rowH), tick)
		}
	}
	for i, g := range s.gains {
		if g.name == s.format.Name() {
			ax.VBand(dst, float64(i)-0.5, float64(i)+0.5, plot.WithAlpha(plot.SkyBlue, 0x40), "")
		}
	}
	ax.HMarker(dst, 0, "", plot.LineStyle{Color: st.th.Foreground, Width: st.pxf(1)})
	ts.Align = plot.AlignCenter
	// A bar's label stays within its band, so neighbours never touch and
	// the first one keeps off the y ticks: without its unit (the axis
	// says dB) where the band is narrower (a phone), left out where even
	// the number is.
	step := ax.Map(1, 0).X - ax.Map(0, 0).X
	form := fitting(d, ts, step-st.pxf(6), func(v float64) string { return fmt.Sprintf("%+.1f dB", v) }, func(v float64) string { return fmt.Sprintf("%+.1f", v) })
	for i, v := range d {
		c := plot.Blue
		if v < 0 {
			c = plot.Vermillion
		}
		if err := ax.Bars(dst, []float64{float64(i)}, []float64{v}, 0.6, plot.BarStyle{Fill: c}); err != nil {
			return err
		}
		if form == nil {
			continue
		}
		p := ax.Map(float64(i), v)
		t, y := form(v), p.Y-st.pxf(4)
		ts.VAlign = plot.AlignBottom
		if v < 0 {
			ts.VAlign, y = plot.AlignTop, p.Y+st.pxf(4)
		}
		ax.DrawText(dst, t, p.X, y, ts)
	}
	return nil
}

// drawHist draws a signed histogram with a log count axis, so that single
// outliers stay visible beside thousands of ordinary values.
func (s *hadamardScene) drawHist(dst *image.RGBA, st style, r image.Rectangle, h hist1D, title, note string) error {
	lim := h.edges[len(h.edges)-1]
	xs, err := plot.NewLinear(-lim, lim)
	if err != nil {
		return err
	}
	top := 1.0
	for _, c := range h.counts {
		top = math.Max(top, c)
	}
	ys, err := plot.NewLog10(0.7, math.Pow(10, math.Ceil(math.Log10(top*3))))
	if err != nil {
		return err
	}
	ax, err := st.axes(r, xs, ys, title, "value", "count")
	if err != nil {
		return err
	}
	if note != "" {
		// The count axis reaches high enough for a free strip above the
		// tallest bar, where the note goes.
		lo, hi := ys.Domain()
		l1 := noteDecades(math.Log10(lo), math.Log10(hi), math.Log10(top), ax.Plot.Dy(), noteRoom(st, st.body()), false)
		if l1 != math.Log10(hi) {
			if ys, err = plot.NewLog10(lo, math.Pow(10, l1)); err != nil {
				return err
			}
			if ax, err = st.axes(r, xs, ys, title, "value", "count"); err != nil {
				return err
			}
		}
	}
	ax.Draw(dst)
	if err := ax.Histogram(dst, h.edges, h.counts, plot.BarStyle{Fill: plot.Blue}); err != nil {
		return err
	}
	mk := plot.LineStyle{Color: plot.ReddishPurple, Width: st.pxf(1.5), Dash: []float64{st.pxf(5), st.pxf(4)}}
	ax.VMarker(dst, -h.amax, "", mk)
	ax.VMarker(dst, h.amax, "", mk)
	if note != "" {
		// Placed like a label, off the bars (left out where they leave no
		// room), before amax's label, which keeps off it.
		ax.Note(dst, note, plot.TopLeft, st.body())
	}
	ax.VMarkerLabel(dst, h.amax, "amax "+short(h.amax), mk)
	return nil
}

// drawSQNR compares the SQNR with and without rotation, over all elements
// and over the bulk (the elements outside the outlier columns).
func (s *hadamardScene) drawSQNR(dst *image.RGBA, st style, r image.Rectangle) error {
	groups := []string{"all elements", "without the outliers"}
	plain := []float64{s.rep.Plain.SQNR, s.bulkPlain.SQNR}
	rot := []float64{s.rep.Rotated.SQNR, s.bulkRot.SQNR}
	top := 10.0
	for _, v := range append(append([]float64{}, plain...), rot...) {
		if !math.IsInf(v, 0) && !math.IsNaN(v) {
			top = math.Max(top, v)
		}
	}
	xs, err := plot.NewBand(groups)
	if err != nil {
		return err
	}
	ys, err := plot.NewLinear(0, math.Ceil(top*1.25/10)*10)
	if err != nil {
		return err
	}
	legend := []plot.LegendEntry{
		{Label: "quantized directly", Color: plot.Vermillion, Kind: plot.LegendSwatch},
		{Label: "rotate, quantize, rotate back", Color: plot.Blue, Kind: plot.LegendSwatch},
	}
	title := fmt.Sprintf("Quantization SQNR (%s, per %s)", s.format.Name(), s.ps.str("granularity"))
	ax, err := st.axes(r, xs, ys, title, "", "SQNR (dB)", legend...)
	if err != nil {
		return err
	}
	ts := st.text(15, plot.FontBold, st.th.Foreground)
	ts.Align, ts.VAlign = plot.AlignCenter, plot.AlignBottom
	// The tallest bar's label stays inside the plot area, below the
	// legend above it (a short plot, the desktop app's 980×448 picture):
	// the axis reaches as high as the label needs.
	if room := float64(plot.MeasureText("Xg", ts).Height()) + st.pxf(6); float64(ax.Plot.Dy()) > 2*room {
		if _, yMax := ys.Domain(); top/(1-room/float64(ax.Plot.Dy())) > yMax {
			hi := top / (1 - room/float64(ax.Plot.Dy()))
			if ys, err = plot.NewLinear(0, math.Ceil(hi/10)*10); err != nil {
				return err
			}
			if ax, err = st.axes(r, xs, ys, title, "", "SQNR (dB)", legend...); err != nil {
				return err
			}
		}
	}
	ax.Draw(dst)
	clampTop := func(v []float64) []float64 {
		out := make([]float64, len(v))
		for i, x := range v {
			out[i] = math.Max(0, math.Min(x, top*1.2))
		}
		return out
	}
	if err := ax.Bars(dst, []float64{-0.19, 0.81}, clampTop(plain), 0.36, plot.BarStyle{Fill: plot.Vermillion}); err != nil {
		return err
	}
	if err := ax.Bars(dst, []float64{0.19, 1.19}, clampTop(rot), 0.36, plot.BarStyle{Fill: plot.Blue}); err != nil {
		return err
	}
	// The two bars of a group are 0.38 of a band apart: their labels
	// drop the unit (the axis says dB) where they are wider than that.
	pair := ax.Map(0.38, 0).X - ax.Map(0, 0).X
	noUnit := func(v float64) string { return strings.TrimSuffix(dB(v), " dB") }
	form := fitting(append(append([]float64{}, plain...), rot...), ts, pair-st.pxf(6), dB, noUnit)
	for i := range groups {
		for k, v := range []float64{plain[i], rot[i]} {
			if form == nil {
				break
			}
			x := float64(i) - 0.19 + 0.38*float64(k)
			y := math.Max(0, math.Min(v, top*1.2))
			p := ax.Map(x, y)
			ax.DrawText(dst, form(v), p.X, p.Y-st.pxf(4), ts)
		}
	}
	_, err = ax.Legend(dst, plot.TopRight, legend)
	return err
}

// drawErrors plots |x - x̂| along the first row, with and without rotation.
func (s *hadamardScene) drawErrors(dst *image.RGBA, st style, r image.Rectangle) error {
	n := min(s.t.Cols, 256)
	xsd := make([]float64, n)
	pe, re := make([]float64, n), make([]float64, n)
	lo, hi := math.Inf(1), math.Inf(-1)
	for j := 0; j < n; j++ {
		xsd[j] = float64(j)
		pe[j], re[j] = s.plainErr[j], s.rotErr[j]
		for _, v := range []float64{pe[j], re[j]} {
			if v > 0 {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if math.IsInf(lo, 0) {
		lo, hi = 1e-3, 1
	}
	lo = math.Max(lo, hi*1e-6)
	xs, err := plot.NewLinear(0, float64(n-1))
	if err != nil {
		return err
	}
	l0, l1 := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi)+1.2)
	ys, err := plot.NewLog10(math.Pow(10, l0), math.Pow(10, l1))
	if err != nil {
		return err
	}
	legend := []plot.LegendEntry{
		{Label: "quantized directly", Color: plot.Vermillion, Width: st.pxf(2)},
		{Label: "with rotation", Color: plot.Blue, Width: st.pxf(2)},
	}
	title := fmt.Sprintf("Error of each element (row 0, first %d)", n)
	ax, err := st.axes(r, xs, ys, title, "element", "|error|", legend...)
	if err != nil {
		return err
	}
	// The error axis reaches low enough for a free strip below the
	// deepest dip, where the note goes.
	if b := noteDecades(l1, l0, math.Log10(lo), ax.Plot.Dy(), noteRoom(st, st.muted()), true); b != l0 {
		if ys, err = plot.NewLog10(math.Pow(10, b), math.Pow(10, l1)); err != nil {
			return err
		}
		if ax, err = st.axes(r, xs, ys, title, "element", "|error|", legend...); err != nil {
			return err
		}
	}
	ax.Draw(dst)
	if err := ax.Line(dst, xsd, pe, plot.LineStyle{Color: plot.Vermillion, Width: st.pxf(1.2)}); err != nil {
		return err
	}
	if err := ax.Line(dst, xsd, re, plot.LineStyle{Color: plot.Blue, Width: st.pxf(1.2)}); err != nil {
		return err
	}
	ax.Note(dst, "zero error is not drawn on the log axis", plot.BottomLeft, st.muted())
	_, err = ax.Legend(dst, plot.TopRight, legend)
	return err
}

// noteRoom is the height of the strip a note in text style ts needs
// inside a plot: its line, the margin Axes.Note keeps from the plot's edge
// and the free border of a label.
func noteRoom(st style, ts plot.TextStyle) int {
	return plot.MeasureText("Xg", ts).Height() + st.px(8) + 4
}

// noteDecades returns the end of a log axis (log10) widened, if need be,
// so that data reaching d (log10) from the other end leaves a strip of
// room pixels of the plot's h free for a note: far is the other end (as
// log10), near the end to widen, d the data's extreme towards it. The end
// moves by whole decades, for its ticks; a plot less than twice as tall as
// the strip keeps its axis. bottom says the end is the axis's low one.
func noteDecades(far, near, d float64, h, room int, bottom bool) float64 {
	if h < 2*room {
		return near
	}
	f := float64(room) / float64(h)
	// The data take the fraction 1-f of the span from far: far + (d-far)/(1-f).
	need := far + (d-far)/(1-f)
	if bottom {
		return math.Min(near, math.Floor(need))
	}
	return math.Max(near, math.Ceil(need))
}

// fitting returns the first of forms in which every value of vs is at
// most width pixels wide in style ts, or nil when none is.
func fitting(vs []float64, ts plot.TextStyle, width float64, forms ...func(float64) string) func(float64) string {
	for _, f := range forms {
		fits := true
		for _, v := range vs {
			if float64(plot.MeasureText(f(v), ts).Width) > width {
				fits = false
				break
			}
		}
		if fits {
			return f
		}
	}
	return nil
}
