package viz

import (
	"fmt"
	"image"
	"math"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// Render implements Scene. Wide pictures put the input beside the six
// cases; tall ones put it above them, in two rows of three, or on phones
// (stacked) in rows of two with their numbers in readable type. A bar
// chart of whole-tensor and worst-row SQNR fills the height the maps leave.
func (s *granularityScene) render(dst *image.RGBA, d Display) error {
	sub := fmt.Sprintf("one %d×%d matrix with %s and %s (×2%s), quantized six ways", granSide, granSide,
		plural(s.ps.int("outlier_rows"), "outlier row", "outlier rows"), plural(s.ps.int("outlier_cols"), "outlier column", "outlier columns"), plot.Superscript(s.ps.int("factor")))
	if s.loadedMatrix() {
		sub = s.loadedFrom + ", quantized six ways"
	}
	st, body, err := begin(dst, d, "Scaling granularity", sub)
	if err != nil {
		return err
	}
	s.size, s.maps, s.cols = dst.Bounds().Size(), nil, nil
	if err := s.compute(); err != nil {
		errorPanel(dst, body, st, err.Error())
		return nil
	}
	if body.Dy() > body.Dx() {
		top := image.Rect(body.Min.X, body.Min.Y, body.Max.X, body.Min.Y+min(body.Dx()*9/20, body.Dy()/4))
		parts, err := plot.SplitColumns(top, st.px(16), 1, 1.3)
		if err != nil {
			return err
		}
		if err := s.drawInput(dst, st, parts[0], false); err != nil {
			return err
		}
		s.drawNotes(dst, st, parts[1])
		cases := image.Rect(body.Min.X, top.Max.Y+st.px(14), body.Max.X, body.Max.Y)
		if st.stacked {
			return s.drawBands(dst, st, cases)
		}
		return s.drawCases(dst, st, cases, 3)
	}
	cols, err := plot.SplitColumns(body, st.px(22), 1, 4.2)
	if err != nil {
		return err
	}
	if err := s.drawInput(dst, st, cols[0], true); err != nil {
		return err
	}
	return s.drawCases(dst, st, cols[1], len(s.cases))
}

// drawInput shows log2|x| of the matrix with its colour bar, and below it
// (when notes is set) what the picture shows and the case in focus.
func (s *granularityScene) drawInput(dst *image.RGBA, st style, r image.Rectangle, notes bool) error {
	head := st.heading()
	head.VAlign = plot.AlignTop
	hb := plot.DrawText(dst, "Input: log₂|x|", float64(r.Min.X), float64(r.Min.Y), head)
	cbH := st.px(18)
	side := min(r.Dx(), r.Dy()-hb.Dy()-st.px(10)-cbH-st.px(34))
	if notes {
		side = min(r.Dx(), (r.Dy()-hb.Dy())/2)
	}
	hm := image.Rect(r.Min.X, hb.Max.Y+st.px(10), r.Min.X+side, hb.Max.Y+st.px(10)+side)
	lo, hi, err := plot.ValueRange(s.logx)
	if err != nil {
		return err
	}
	vs, err := plot.NewLinear(math.Floor(lo), math.Ceil(hi))
	if err != nil {
		return err
	}
	if err := plot.DrawHeatmap(dst, hm, s.logx, plot.HeatmapStyle{Map: plot.Viridis, Value: vs, Pool: plot.PoolMax}); err != nil {
		return err
	}
	s.maps = append(s.maps, granMap{key: "input", kind: "input", r: hm, rows: len(s.logx), v: vs})
	plot.StrokeRect(dst, plot.Inset(hm, -1), 1, st.th.Frame)
	cb := image.Rect(r.Min.X, hm.Max.Y+st.px(10), r.Min.X+side, hm.Max.Y+st.px(10)+cbH)
	if err := hColorBar(dst, st, cb, plot.Viridis, vs, ""); err != nil {
		return err
	}
	if notes {
		s.drawNotes(dst, st, image.Rect(r.Min.X, cb.Max.Y+st.px(34), r.Max.X, r.Max.Y))
	}
	return nil
}

// drawNotes writes what the input holds and the numbers of the case in
// focus, wrapped to r's width.
func (s *granularityScene) drawNotes(dst *image.RGBA, st style, r image.Rectangle) {
	muted := st.muted()
	var intro string
	switch {
	case s.loadedMatrix():
		intro = "The " + s.loadedFrom + "."
	case len(s.outlierRows()) > 0 || (s.ps.int("outlier_cols") > 0 && s.ps.int("factor") > 0):
		intro = "Outlier rows and columns are 2" + plot.Superscript(s.ps.int("factor")) + " times larger: small values that share a scale with them lose their precision."
	default:
		intro = "No outliers: " + granKinds[s.ps.str("tensor")] + "."
	}
	for _, c := range s.cases {
		if hasNaN(c.scale) {
			intro += " Grey: a block whose scale rounded to zero, so the whole block is lost."
			break
		}
	}
	// A paragraph that would not fit whole is left out, with those after it.
	y := r.Min.Y
	write := func(text string, ts plot.TextStyle, gap int) {
		lines := plot.WrapText(text, r.Dx(), ts)
		h := len(lines) * (plot.MeasureText("Xg", ts).Height() + st.px(3))
		if y+gap+h > r.Max.Y {
			y = r.Max.Y
			return
		}
		y = textLines(dst, r.Min.X, y+gap, lines, ts, st.px(3))
	}
	write(intro, muted, 0)
	c := s.focus()
	write("In focus: "+c.name, st.text(16, plot.FontBold, st.th.Foreground), st.px(14))
	for _, p := range focusLines(c, s.ps.str("mx_rounding")) {
		write(p, st.text(15, plot.FontRegular, st.th.Foreground), st.px(4))
	}
}

// focusLines are the sentences about case c beside the maps.
func focusLines(c *granularityCase, mxRounding string) []string {
	q := c.q
	scales := fmt.Sprintf("%s, one per %d×%d block", plural(len(q.Scales), "scale", "scales"), q.BlockRows, q.BlockCols)
	if q.ScaleFormat != nil {
		name := q.ScaleFormat.Name()
		scales = fmt.Sprintf("%s, one per %d×%d block", plural(len(q.Scales), name+" scale", name+" scales"), q.BlockRows, q.BlockCols)
	}
	out := []string{scales + "."}
	if c.g.Scales() == scaling.ScaleE8M0 {
		mx := exact(c.fmt.Max())
		if c.m.Overflow > 0 {
			out = append(out, fmt.Sprintf("%s rule: %s saturate, their |x/X| rounding above %s and clamped to it.",
				mxRounding, plural(c.m.Overflow, "value", "values"), mx))
		} else {
			out = append(out, fmt.Sprintf("%s rule: no value saturates (none has |x/X| rounding above %s).", mxRounding, mx))
		}
	} else if c.m.Overflow > 0 {
		out = append(out, plural(c.m.Overflow, "value", "values")+" clipped at "+exact(c.fmt.Max())+".")
	}
	out = append(out, fmt.Sprintf("%s of %d become zero; worst row %s.", plural(c.m.Underflow, "value", "values"), c.m.Elements, dB(c.m.Rows.Worst)))
	return out
}

// granLayout sizes the parts of one row of cases.
type granLayout struct {
	headH, labH, statsH, gap int
}

// casesPlan is where drawCases puts the maps of the cases, their columns
// and the chart, and how tall each map is.
type casesPlan struct {
	maps, chart image.Rectangle
	cols        []image.Rectangle
	mapH        int
	lay         granLayout
}

// planCases lays the cases out in r, ncols to a row, with the chart of
// whole-tensor against worst-row SQNR below them or, where that leaves
// taller maps (a short, wide picture such as the desktop app's), beside
// them. It fails when neither leaves maps at least 16 px tall.
func (s *granularityScene) planCases(st style, r image.Rectangle, ncols int) (casesPlan, error) {
	head := st.text(15, plot.FontBold, st.th.Foreground)
	label := st.muted()
	base := granLayout{
		headH: 2*plot.MeasureText("Xg", head).Height() + st.px(4),
		labH:  plot.MeasureText("Xg", label).Height() + st.px(4),
		statsH: plot.MeasureText("Xg", st.text(16, plot.FontBold, st.th.Foreground)).Height() + st.px(4) +
			3*(plot.MeasureText("Xg", st.text(15, plot.FontRegular, st.th.Foreground)).Height()+st.px(3)) + st.px(6),
		gap: st.px(8),
	}
	nrows := (len(s.cases) + ncols - 1) / ncols
	barH := st.px(8) + st.px(18) + plot.MeasureText("0", st.muted()).Height() + st.px(16)
	// fit sizes the maps in m, chartH of which the chart below takes.
	fit := func(m image.Rectangle, chartH int) (casesPlan, bool) {
		barsH := barH
		if !colourBarsAbreast(st, m.Dx()) {
			barsH = 2 * barH
		}
		cols, err := plot.SplitColumns(m, st.px(14), repeatWeights(ncols)...)
		if err != nil {
			return casesPlan{}, false
		}
		p := casesPlan{maps: m, cols: cols, lay: base}
		colW := cols[0].Dx()
		if !s.statsFit(st, colW) {
			// Columns too narrow for their numbers (a projector's
			// canvas beside the controls): the chart shows the two SQNRs
			// of every case, the notes the numbers of the case in focus.
			p.lay.statsH = 0
		}
		rowFixed := p.lay.headH + 2*p.lay.labH + p.lay.statsH + 2*p.lay.gap
		avail := m.Dy() - nrows*rowFixed - barsH - chartH
		p.mapH = min(avail/(2*nrows), colW*3/2)
		return p, p.mapH >= st.px(16)
	}
	// Below: the chart is what the scene teaches, so it gets at least
	// chartMin, and whatever maps as tall as wide leave, up to two fifths
	// of the height.
	chartMin := st.px(175)
	below, okBelow := fit(r, chartMin)
	if okBelow {
		extra := below.mapH - below.cols[0].Dx()
		chartH := min(chartMin+max(extra, 0)*2*nrows, max(r.Dy()*2/5, chartMin))
		below, okBelow = fit(r, chartH)
		below.chart = image.Rect(r.Min.X, r.Max.Y-chartH, r.Max.X, r.Max.Y)
	}
	// Beside: the chart takes a third of the width, at least chartMin×1.7.
	chartW := max(r.Dx()/3, st.px(255))
	beside, okBeside := fit(image.Rect(r.Min.X, r.Min.Y, r.Max.X-chartW-st.px(22), r.Max.Y), 0)
	beside.chart = image.Rect(r.Max.X-chartW, r.Min.Y, r.Max.X, r.Max.Y)
	switch {
	case okBelow && (!okBeside || below.mapH >= st.px(48) || beside.mapH < below.mapH*3/2):
		return below, nil
	case okBeside:
		return beside, nil
	}
	return casesPlan{}, fmt.Errorf("viz: granularity: %v is too small for %d rows of maps and the chart", r, nrows)
}

// drawCases draws, for each granularity, its scales and the SQNR of every
// 8×8 patch in ncols columns, with shared colour scales, and the chart of
// whole-tensor and worst-row SQNR (planCases).
func (s *granularityScene) drawCases(dst *image.RGBA, st style, r image.Rectangle, ncols int) error {
	plan, err := s.planCases(st, r, ncols)
	if err != nil {
		return err
	}
	n, cols, mapH, lay := len(s.cases), plan.cols, plan.mapH, plan.lay
	nrows := (n + ncols - 1) / ncols
	label := st.muted()
	label.VAlign = plot.AlignTop
	scaleV, sqV, err := s.caseScales()
	if err != nil {
		return err
	}
	rowFixed := lay.headH + 2*lay.labH + lay.statsH + 2*lay.gap
	m := plan.maps
	y := m.Min.Y
	for row := 0; row < nrows; row++ {
		for k := 0; k < ncols && row*ncols+k < n; k++ {
			i := row*ncols + k
			if err := s.drawCase(dst, st, s.cases[i], image.Rect(cols[k].Min.X, y, cols[k].Max.X, y), mapH, lay, scaleV, sqV); err != nil {
				return err
			}
		}
		// Row labels above the first column's maps, spanning the row.
		plot.DrawText(dst, "Decode scale of each block (log₂)", float64(m.Min.X), float64(y+lay.headH), fitText("Decode scale of each block (log₂)", label, m.Dx()))
		patch := fmt.Sprintf("SQNR of each %d×%d patch — dark = information lost", granPatch, granPatch)
		plot.DrawText(dst, patch, float64(m.Min.X), float64(y+lay.headH+lay.labH+mapH+lay.gap), fitText(patch, label, m.Dx()))
		y += rowFixed + 2*mapH
	}
	// Two colour bars side by side, each followed by its label, or one
	// above the other where the maps are narrow (beside the chart).
	y += st.px(8)
	cbH := st.px(18)
	abreast := colourBarsAbreast(st, m.Dx())
	w := (m.Dx() - st.px(24)) / 2
	if !abreast {
		w = m.Dx()
	}
	for i, b := range colourBars(scaleV, sqV) {
		x0 := m.Min.X + i*(w+st.px(24))
		if !abreast {
			x0 = m.Min.X
		}
		lw := plot.MeasureText(b.label, plot.TextStyle{Size: st.th.LabelSize}).Width + st.px(24)
		if err := hColorBar(dst, st, image.Rect(x0, y, x0+w-lw, y+cbH), plot.Viridis, b.v, b.label); err != nil {
			return err
		}
		if !abreast {
			y += st.px(8) + cbH + plot.MeasureText("0", st.muted()).Height() + st.px(16)
		}
	}
	return s.drawSQNRChart(dst, st, plan.chart)
}

// colourBar is one of the maps' colour scales and its label.
type colourBar struct {
	v     plot.Scale
	label string
}

// colourBars lists the maps' two colour scales: decode scales, patch SQNR.
func colourBars(scaleV, sqV plot.Scale) []colourBar {
	return []colourBar{{scaleV, "log₂ decode scale"}, {sqV, "patch SQNR (dB)"}}
}

// colourBarsAbreast reports whether both colour bars, each at least half
// as long as its label is wide, stand side by side in width w.
func colourBarsAbreast(st style, w int) bool {
	half := (w - st.px(24)) / 2
	for _, b := range colourBars(nil, nil) {
		lw := plot.MeasureText(b.label, plot.TextStyle{Size: st.th.LabelSize}).Width + st.px(24)
		if half-lw < lw/2 {
			return false
		}
	}
	return true
}

// statsFit reports whether every case's numbers (caseLines) fit a column
// of width w at their type, shrunk no further than fitText shrinks them.
func (s *granularityScene) statsFit(st style, w int) bool {
	for _, c := range s.cases {
		for i, l := range caseLines(c) {
			ts := st.text(15, plot.FontRegular, st.th.Foreground)
			if i == 0 {
				ts = st.text(16, plot.FontBold, st.th.Foreground)
			}
			if plot.MeasureText(l, fitText(l, ts, w)).Width > w {
				return false
			}
		}
	}
	return true
}

// caseScales returns the shared colour scales of the maps: decode scales
// over all cases, SQNR 0..50 dB.
func (s *granularityScene) caseScales() (scaleV, sqV plot.Scale, err error) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range s.cases {
		if a, b, err := plot.ValueRange(c.scale); err == nil {
			lo, hi = math.Min(lo, a), math.Max(hi, b)
		}
	}
	if lo == hi || math.IsInf(lo, 0) {
		lo, hi = lo-1, lo+1
	}
	if scaleV, err = plot.NewLinear(math.Floor(lo), math.Ceil(hi)); err != nil {
		return nil, nil, err
	}
	sqV, err = plot.NewLinear(0, 50)
	return scaleV, sqV, err
}

// drawCase draws case c in the column [col.Min.X, col.Max.X) from col.Min.Y
// down: its name, its two maps and its numbers.
func (s *granularityScene) drawCase(dst *image.RGBA, st style, c *granularityCase, col image.Rectangle, mapH int, lay granLayout, scaleV, sqV plot.Scale) error {
	side := col.Dx()
	y := col.Min.Y
	whole := image.Rect(col.Min.X-st.px(5), y-st.px(2), col.Max.X+st.px(5), y+lay.headH+2*lay.labH+2*mapH+2*lay.gap+lay.statsH)
	s.cols = append(s.cols, whole)
	if c.key == s.ps.str("focus") {
		plot.FillRect(dst, whole, plot.WithAlpha(plot.SkyBlue, 0x38))
		plot.StrokeRect(dst, whole, max(1, st.px(2)), plot.Blue)
	}
	head := st.text(15, plot.FontBold, st.th.Foreground)
	head.Align, head.VAlign = plot.AlignCenter, plot.AlignTop
	cx := float64(col.Min.X) + float64(side)/2
	name := shortened(c.name, head, side-st.px(6))
	plot.DrawText(dst, name, cx, float64(y), fitText(name, head, side-st.px(6)))
	sub := st.muted()
	sub.Align, sub.VAlign = plot.AlignCenter, plot.AlignTop
	detail := fmt.Sprintf("%d×%d scales", c.q.ScaleRows, c.q.ScaleCols)
	if c.q.ScaleFormat != nil {
		detail = fmt.Sprintf("%d×%d %s", c.q.ScaleRows, c.q.ScaleCols, c.q.ScaleFormat.Name())
	}
	detail = shortened(detail, sub, side-st.px(6))
	plot.DrawText(dst, detail, cx, float64(y)+float64(lay.headH)/2+st.pxf(2), fitText(detail, sub, side-st.px(6)))
	sr := image.Rect(col.Min.X, y+lay.headH+lay.labH, col.Max.X, y+lay.headH+lay.labH+mapH)
	if err := plot.DrawHeatmap(dst, sr, c.scale, plot.HeatmapStyle{Map: plot.Viridis, Value: scaleV, Pool: plot.PoolMax}); err != nil {
		return err
	}
	s.maps = append(s.maps, granMap{key: c.key, kind: "scale", r: sr, rows: len(c.scale), v: scaleV})
	plot.StrokeRect(dst, plot.Inset(sr, -1), 1, st.th.Frame)
	er := image.Rect(col.Min.X, sr.Max.Y+lay.gap+lay.labH, col.Max.X, sr.Max.Y+lay.gap+lay.labH+mapH)
	if err := plot.DrawHeatmap(dst, er, clampInf(c.patch, 50), plot.HeatmapStyle{Map: plot.Viridis, Value: sqV, Pool: plot.PoolMin}); err != nil {
		return err
	}
	s.maps = append(s.maps, granMap{key: c.key, kind: "sqnr", r: er, rows: len(c.patch), v: sqV})
	plot.StrokeRect(dst, plot.Inset(er, -1), 1, st.th.Frame)
	if lay.statsH == 0 {
		return nil
	}
	lines := caseLines(c)
	ts := fitText(lines[1], st.text(15, plot.FontRegular, st.th.Foreground), side)
	yy := textLines(dst, col.Min.X, er.Max.Y+lay.gap, lines[:1], fitText(lines[0], st.text(16, plot.FontBold, st.th.Foreground), side), st.px(4))
	textLines(dst, col.Min.X, yy, lines[1:], ts, st.px(3))
	return nil
}

// caseLines are the numbers printed under (or beside) case c's maps: its
// SQNR first, then its worst row, zeroed share and saturated count.
func caseLines(c *granularityCase) []string {
	return []string{
		"SQNR " + dB(c.m.SQNR),
		"worst row " + dB(c.m.Rows.Worst),
		"zeroed " + percent(float64(c.m.Underflow)/float64(c.m.Elements)),
		"saturated " + strconv.Itoa(c.m.Overflow),
	}
}

// drawSQNRChart compares, per granularity, the whole-tensor SQNR with the
// SQNR of the worst row: the figure that tells the granularities apart.
// In a rectangle taller than wide (beside the maps) the bars lie down,
// one pair per line, the names beside them.
func (s *granularityScene) drawSQNRChart(dst *image.RGBA, st style, r image.Rectangle) error {
	n := len(s.cases)
	names := make([]string, n)
	top := 10.0
	for i, c := range s.cases {
		names[i] = c.name
		for _, v := range []float64{c.m.SQNR, c.m.Rows.Worst} {
			if !math.IsInf(v, 0) && !math.IsNaN(v) {
				top = math.Max(top, v)
			}
		}
	}
	top = math.Ceil(top*1.2/10) * 10
	lying := r.Dy() > r.Dx()
	// Where the names would not stand apart under their bars (a narrow
	// chart), each goes by its first word: "1×128" for "1×128 tile".
	step := float64(r.Dx()) / float64(n)
	for _, name := range names {
		if !lying && float64(plot.MeasureText(name, plot.TextStyle{Size: st.th.TickSize}).Width) > step-st.pxf(12) {
			for i, name := range names {
				names[i] = shortened(name, plot.TextStyle{Size: st.th.TickSize}, 0)
			}
			break
		}
	}
	// pos is where case i sits on the band axis: left to right, or top to
	// bottom when lying (a band scale counts upwards).
	pos := func(i int) float64 { return float64(i) }
	if lying {
		pos = func(i int) float64 { return float64(n - 1 - i) }
		for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
			names[i], names[j] = names[j], names[i]
		}
	}
	var at, whole, worst []float64
	for i, c := range s.cases {
		at = append(at, pos(i))
		whole, worst = append(whole, barDB(c.m.SQNR, top)), append(worst, barDB(c.m.Rows.Worst, top))
	}
	band, err := plot.NewBand(names)
	if err != nil {
		return err
	}
	db, err := plot.NewLinear(0, top)
	if err != nil {
		return err
	}
	legend := []plot.LegendEntry{
		{Label: "whole-tensor SQNR", Color: plot.SkyBlue, Kind: plot.LegendSwatch},
		{Label: "SQNR of the worst row", Color: plot.Vermillion, Kind: plot.LegendSwatch},
	}
	const title, half, width = "Whole tensor against worst row", 0.19, 0.36
	shift := func(d float64) []float64 {
		out := make([]float64, n)
		for i, v := range at {
			out[i] = v + d
		}
		return out
	}
	var ax *plot.Axes
	if lying {
		// The whole tensor's bar above the worst row's.
		if ax, err = st.axes(r, db, band, title, "SQNR (dB)", "", legend...); err != nil {
			return err
		}
		ax.Draw(dst)
		if err := ax.HBars(dst, shift(half), whole, width, plot.BarStyle{Fill: plot.SkyBlue}); err != nil {
			return err
		}
		if err := ax.HBars(dst, shift(-half), worst, width, plot.BarStyle{Fill: plot.Vermillion}); err != nil {
			return err
		}
	} else {
		if ax, err = st.axes(r, band, db, title, "", "SQNR (dB)", legend...); err != nil {
			return err
		}
		ax.Draw(dst)
		if err := ax.Bars(dst, shift(-half), whole, width, plot.BarStyle{Fill: plot.SkyBlue}); err != nil {
			return err
		}
		if err := ax.Bars(dst, shift(half), worst, width, plot.BarStyle{Fill: plot.Vermillion}); err != nil {
			return err
		}
	}
	// Each bar's value at its end, where it has room: above a standing
	// bar as wide as the number, beside a lying one inside the plot.
	ts := st.text(13, plot.FontBold, st.th.Foreground)
	for i, c := range s.cases {
		for _, b := range []struct {
			d, v, raw float64
		}{{-half, whole[i], c.m.SQNR}, {half, worst[i], c.m.Rows.Worst}} {
			t := strings.TrimSuffix(dB(b.raw), " dB")
			w := float64(plot.MeasureText(t, ts).Width)
			if lying {
				// Beside the bar's end, where the plot has room and the
				// number is no taller than the pair of bars is apart.
				p := ax.Map(b.v, at[i]-b.d)
				ts.Align, ts.VAlign = plot.AlignLeft, plot.AlignMiddle
				apart := math.Abs(ax.Y.Map(2*half) - ax.Y.Map(0))
				if p.X+st.pxf(3)+w <= float64(ax.Plot.Max.X) && float64(plot.MeasureText(t, ts).Height()) <= apart {
					ax.DrawText(dst, t, p.X+st.pxf(3), p.Y, ts)
				}
				continue
			}
			if w > ax.X.Map(width)-ax.X.Map(0)+st.pxf(6) {
				continue // no room above a thin bar: the numbers are under the maps
			}
			p := ax.Map(at[i]+b.d, b.v)
			ts.Align, ts.VAlign = plot.AlignCenter, plot.AlignBottom
			ax.DrawText(dst, t, p.X, p.Y-st.pxf(3), ts)
		}
	}
	_, err = ax.Legend(dst, plot.TopRight, legend)
	return err
}

// shortened returns s, or its first word where s does not fit width in
// ts even shrunk as fitText shrinks it ("1×128" for "1×128 tile" over a
// narrow column).
func shortened(s string, ts plot.TextStyle, width int) string {
	if plot.MeasureText(s, fitText(s, ts, width)).Width <= width {
		return s
	}
	return strings.Fields(s)[0]
}

// barDB is the height of an SQNR bar: negative levels and -Inf at 0, NaN
// (no signal) without a bar, +Inf (exact) at top, the top of the axis.
func barDB(v, top float64) float64 {
	if math.IsInf(v, 1) {
		return top
	}
	return math.Max(v, 0)
}
