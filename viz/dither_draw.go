package viz

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"

	"github.com/fp8lab/fp8lab/dither"
	"github.com/fp8lab/fp8lab/dither/quality"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// Render implements Scene.
func (s *ditherScene) render(dst *image.RGBA, d Display) error {
	grid := fmt.Sprintf("%d grey levels", s.ps.int("levels"))
	if g := s.ps.str("grid"); g != "levels" {
		grid = g + " values as grey levels"
	}
	sub := "the mystery image quantized to " + grid + " · " + plural(s.ps.int("bits"), "random bit", "random bits")
	if s.ps.str("view") == "blurred" {
		sub += " · shown blurred, σ = " + s.ps.str("blur") + " px"
	}
	st, body, err := begin(dst, d, "Dithering and stochastic rounding", sub)
	if err != nil {
		return err
	}
	// A short, wide picture (the desktop app's) puts the two charts side
	// by side right of the pictures: one above the other they would be
	// too flat to read.
	wide := []float64{1.6, 1}
	sideBySide := !st.stacked && body.Dx() > 12*body.Dy()/5
	if sideBySide {
		wide = []float64{1.85, 0.8, 0.8}
	}
	cols, err := st.split(body, st.px(24), wide, []float64{1.2, 1})
	if err != nil {
		return err
	}
	// The table takes 1 part in 3.3 of the column, or more where its rows
	// (the columns' titles and a row per picture) need more to stay a
	// line apart (the desktop app's 980×444 picture).
	avail := float64(cols[0].Dy() - st.px(12))
	tableH := math.Max(avail/3.3, float64((1+ditherScored)*plot.MeasureText("Xg", st.text(15, plot.FontBold, color.RGBA{})).Height()))
	left, err := plot.SplitRows(cols[0], st.px(12), math.Max(avail-tableH, 1), tableH)
	if err != nil {
		return err
	}
	if st.stacked {
		// A phone: the pictures and the table take what they need, the
		// two charts share the rest of the height.
		if c, l, ok := s.stackedParts(st, d, body); ok {
			cols, left = c, l
		}
	}
	cells, err := st.grid(left[0], 2, 3, st.px(10))
	if err != nil {
		return err
	}
	if err := s.compute(); err != nil {
		errorPanel(dst, body, st, err.Error())
		return nil
	}
	if err := s.drawImages(dst, st, cells); err != nil {
		return err
	}
	s.drawScores(dst, st, left[1])
	right := cols[1:]
	if !sideBySide {
		// One above the other where both fit with plots tall enough for
		// three tick labels and their keys above them; else (the
		// smallest pictures) the PSNR
		// chart, which the images' lesson rests on, takes the column and
		// the tiny-update experiment gives way.
		// The tiny-update chart's title and legend take more lines.
		if right, err = plot.SplitRows(cols[1], st.px(14), 1, 1.15); err != nil {
			return err
		}
		least := 3*plot.MeasureText("0", plot.TextStyle{Size: st.th.TickSize}).Height() + st.px(6)
		lin, err := plot.NewLinear(0, 1)
		if err != nil {
			return err
		}
		a, _, err := psnrAxes(st, right[0], lin, lin)
		if err != nil {
			return err
		}
		b, _, err := s.tinyAxes(st, right[1], lin, lin)
		if err != nil {
			return err
		}
		if min(a.Plot.Dy(), b.Plot.Dy()) < least || !a.HasLegendStrip() || !b.HasLegendStrip() {
			return s.drawPSNR(dst, st, cols[1])
		}
	}
	if err := s.drawPSNR(dst, st, right[0]); err != nil {
		return err
	}
	return s.drawTiny(dst, st, right[1])
}

// stackedParts lays out a stacked (phone) picture: the two charts at the
// bottom with plot areas of ditherStackedPlot of the width (the charts'
// titles and legends, wrapped to the width, take their own room above
// them), the pictures and the table above in what is left. The plot areas
// give up height, down to half as much, where the pictures would get less
// than their smallest size (a crop ditherStackedCrop image pixels tall at
// drawImages' least zoom, captions of two lines); it reports false when
// even that leaves too little.
func (s *ditherScene) stackedParts(st style, d Display, body image.Rectangle) (cols, left []image.Rectangle, ok bool) {
	head := st.text(15, plot.FontBold, color.RGBA{})
	title := plot.WrapText("Pixel by pixel, and as the eye sees it from farther away (blur σ = "+s.ps.str("blur")+" px)", body.Dx(), head)
	scoresH := (len(title) + 1 + ditherScored) * (plot.MeasureText("Xg", head).Height() + st.px(4))
	lineH := plot.MeasureText("Xg", plot.TextStyle{Size: 14 * st.s}).Height() + st.px(4)
	least, _, _ := ditherZoom(st, d, 0, 0)
	imagesMin := 3*(ditherStackedCrop*least+2+st.px(4)+2*lineH) + 2*st.px(10)
	room := body.Dy() - imagesMin - st.px(12) - scoresH - st.px(24) // for the charts
	chartsH := 0
	for frac := ditherStackedPlot; chartsH == 0; frac -= 0.05 {
		if frac < ditherStackedPlot/2 {
			return nil, nil, false
		}
		h, err := s.chartsHeight(st, body.Dx(), int(float64(body.Dx())*frac))
		if err != nil {
			return nil, nil, false
		}
		if h <= room {
			chartsH = h
		}
	}
	charts := image.Rect(body.Min.X, body.Max.Y-chartsH, body.Max.X, body.Max.Y)
	top := image.Rect(body.Min.X, body.Min.Y, body.Max.X, charts.Min.Y-st.px(24))
	l, err := plot.SplitRows(top, st.px(12), float64(top.Dy()-scoresH-st.px(12)), float64(scoresH))
	if err != nil {
		return nil, nil, false
	}
	return []image.Rectangle{top, charts}, l, true
}

// ditherStackedCrop is the height, in image pixels, of the crop a stacked
// picture shows of each image at least.
const ditherStackedCrop = 40

// ditherStackedPlot is the height of a stacked picture's chart plot areas,
// as a fraction of their width.
const ditherStackedPlot = 0.45

// drawImages shows the original and the five quantizations, as quantized
// or, with view=blurred, after the eye blur: all at one zoom, the largest
// whole number of device pixels per image pixel at which every panel fits
// its cell with its caption. Where that zoom would leave an image pixel
// smaller than a CSS pixel (two on a phone), too small to show a dither
// pattern, each panel shows the same centred crop of its image at that
// many pixels per pixel instead, and the original's caption says so.
func (s *ditherScene) drawImages(dst *image.RGBA, st style, cells []image.Rectangle) error {
	n := s.ps.int("frames")
	panels := []struct {
		g          *dither.Gray
		name, psnr string
	}{
		{s.img, "original", ""},
		{s.nearest, "round to nearest", dB(s.pNearest)},
		{s.frame0, "one stochastic frame", dB(s.psnr[0])},
		{s.avg, "mean of " + plural(n, "frame", "frames"), dB(s.psnr[n-1])},
		{s.bayer, fmt.Sprintf("Bayer %s×%s", s.ps.str("bayer"), s.ps.str("bayer")), dB(s.pBayer)},
		{s.floyd, "Floyd–Steinberg", dB(s.pFS)},
	}
	th := st.th
	th.TickSize = 14 * st.s
	th.MutedText = th.Foreground
	cs := plot.TextStyle{Size: th.TickSize, Color: th.Foreground, Align: plot.AlignCenter, VAlign: plot.AlignTop}
	lineH := plot.MeasureText("Xg", cs).Height() + st.px(4)
	cellW, cellH := cells[0].Dx(), cells[0].Dy()
	for _, c := range cells {
		cellW, cellH = min(cellW, c.Dx()), min(cellH, c.Dy())
	}
	// captionOf returns the caption lines of panel i: "name · PSNR" on one
	// line when it fits the cell, else the name (wrapped) over the PSNR.
	// A stacked picture leaves the PSNR to the table below, to give its
	// charts the height, and so does a picture whose captions would
	// otherwise leave the images too little room to show whole.
	withPSNR := !st.stacked
	captionOf := func(i int, name string) []string {
		psnr := panels[i].psnr
		if !withPSNR {
			psnr = ""
		}
		lines := []string{name}
		if psnr != "" {
			lines[0] += " · " + psnr
		}
		if plot.MeasureText(lines[0], cs).Width > cellW {
			lines = plot.WrapText(name, cellW, cs)
			if psnr != "" {
				lines = append(lines, psnr)
			}
		}
		return lines
	}
	fit := func() (zoom, cw, ch int) {
		capLines := 2 // the original's caption when cropped
		for i, p := range panels {
			capLines = max(capLines, len(captionOf(i, p.name)))
		}
		return ditherZoom(st, st.d, cellW-2, cellH-2-st.px(4)-capLines*lineH)
	}
	zoom, cw, ch := fit()
	if withPSNR && (cw < ditherImgW || ch < ditherImgH) {
		withPSNR = false
		if z, w, h := fit(); w == ditherImgW && h == ditherImgH {
			zoom, cw, ch = z, w, h
		} else {
			withPSNR = true
		}
	}
	cropped := cw < ditherImgW || ch < ditherImgH
	x0, y0 := (ditherImgW-cw)/2, (ditherImgH-ch)/2
	for i, p := range panels {
		g := p.g
		if s.ps.str("view") == "blurred" {
			var err error
			if g, err = quality.Blur(g, s.ps.float("blur")); err != nil {
				return err
			}
		}
		if i == 0 && cropped {
			p.name = fmt.Sprintf("original: centre %d×%d of %d×%d", cw, ch, ditherImgW, ditherImgH)
		}
		lines := captionOf(i, p.name)
		c := cells[i]
		w, h := cw*zoom+2, ch*zoom+2
		r := image.Rect(c.Min.X+(c.Dx()-w)/2, c.Min.Y, c.Min.X+(c.Dx()-w)/2+w, c.Min.Y+h)
		img, err := plot.DrawImagePanel(dst, r, cropGray(g, x0, y0, cw, ch), cw, ch, plot.ImageStyle{Theme: &th})
		if err != nil {
			return err
		}
		y := img.Max.Y + 1 + st.px(4)
		for _, l := range lines {
			plot.DrawText(dst, l, float64(img.Min.X+img.Max.X)/2, float64(y), cs)
			y += lineH
		}
	}
	return nil
}

// ditherZoom returns the zoom (device pixels per image pixel) and the part
// of the image (cw×ch, centred) that drawImages shows in w×h device pixels:
// the whole image at the largest zoom that fits, unless that zoom is below
// the least one (d's pixel ratio, twice that in a stacked picture), where a
// crop of the image at the least zoom fills w×h.
func ditherZoom(st style, d Display, w, h int) (zoom, cw, ch int) {
	least := int(math.Ceil(d.ratio()))
	if st.stacked {
		least = int(math.Ceil(2 * d.ratio()))
	}
	if z := min(w/ditherImgW, h/ditherImgH); z >= least {
		return z, ditherImgW, ditherImgH
	}
	return least, min(max(w/least, 1), ditherImgW), min(max(h/least, 1), ditherImgH)
}

// cropGray returns the w×h pixels of g from (x0, y0), row by row.
func cropGray(g *dither.Gray, x0, y0, w, h int) []float32 {
	pix := g.Pix()
	if x0 == 0 && y0 == 0 && w == g.Width() && h == g.Height() {
		return pix
	}
	out := make([]float32, 0, w*h)
	for y := y0; y < y0+h; y++ {
		out = append(out, pix[y*g.Width()+x0:y*g.Width()+x0+w]...)
	}
	return out
}

// drawScores draws the table of raw PSNR, PSNR after the eye blur and
// SSIM of every image, each cell with a bar of its value against the
// column's largest and the best one-frame method of each column in bold.
func (s *ditherScene) drawScores(dst *image.RGBA, st style, r image.Rectangle) {
	head := st.text(15, plot.FontBold, color.RGBA{})
	cell := st.text(15, plot.FontRegular, color.RGBA{})
	title := plot.WrapText("Pixel by pixel, and as the eye sees it from farther away (blur σ = "+s.ps.str("blur")+" px)", r.Dx(), head)
	rows := len(s.scores) + 1 + len(title)
	lh := min(r.Dy()/rows, st.px(30))
	if need := plot.MeasureText("Xg", head).Height(); lh < need {
		// Rows closer than a line would overlap (the smallest picture):
		// the heading gives its room up, the columns' titles stay.
		rows -= len(title)
		title = nil
		lh = min(r.Dy()/rows, st.px(30))
	}
	if lh < 1 {
		return
	}
	head.VAlign, cell.VAlign = plot.AlignMiddle, plot.AlignMiddle
	for i, l := range title {
		plot.DrawText(dst, l, float64(r.Min.X), float64(r.Min.Y+i*lh+lh/2), head)
	}
	labelW := 0
	for _, sc := range s.scores {
		labelW = max(labelW, plot.MeasureText(sc.label, cell).Width)
	}
	labelW += st.px(12)
	colW := (r.Dx() - labelW) / 3
	type column struct {
		title string
		val   func(ditherScore) float64
		text  func(float64) string
		c     color.RGBA
	}
	columns := []column{
		{"raw PSNR", func(d ditherScore) float64 { return d.raw }, dB, plot.Vermillion},
		{"blurred PSNR", func(d ditherScore) float64 { return d.blur }, dB, plot.Blue},
		{"SSIM", func(d ditherScore) float64 { return d.ssim }, func(v float64) string { return fmt.Sprintf("%.3f", v) }, plot.BluishGreen},
	}
	// Too narrow a column (a phone) gets the unit in its title instead of
	// in every cell, and a shorter title.
	fits := func() bool {
		for _, c := range columns {
			if plot.MeasureText(c.title, cell).Width+st.px(8) > colW {
				return false
			}
			for _, sc := range s.scores {
				if plot.MeasureText(c.text(c.val(sc)), cell).Width+st.px(8) > colW {
					return false
				}
			}
		}
		return true
	}
	if !fits() {
		noUnit := func(v float64) string { return strings.TrimSuffix(dB(v), " dB") }
		columns[0].title, columns[0].text = "raw dB", noUnit
		columns[1].title, columns[1].text = "blur dB", noUnit
	}
	y0 := r.Min.Y + len(title)*lh
	for k, c := range columns {
		x := r.Min.X + labelW + k*colW
		ts := cell
		ts.Color = st.th.MutedText
		plot.DrawText(dst, c.title, float64(x+st.px(4)), float64(y0+lh/2), ts)
		top, best := 0.0, math.Inf(-1)
		for _, sc := range s.scores {
			if v := c.val(sc); !math.IsInf(v, 0) {
				top = math.Max(top, v)
			}
			if sc.oneFrame {
				best = math.Max(best, c.val(sc))
			}
		}
		for i, sc := range s.scores {
			y := y0 + (i+1)*lh
			v := c.val(sc)
			if top > 0 {
				bw := int(float64(colW-st.px(10)) * math.Max(0, math.Min(v/top, 1)))
				plot.FillRect(dst, image.Rect(x, y+lh/8, x+bw, y+lh-lh/8), plot.Mix(c.c, color.RGBA{255, 255, 255, 255}, 0.75))
			}
			ts := cell
			if sc.oneFrame && c.text(v) == c.text(best) {
				ts.Font = plot.FontBold
			}
			if !sc.oneFrame {
				ts.Color = st.th.MutedText
			}
			plot.DrawText(dst, c.text(v), float64(x+st.px(4)), float64(y+lh/2), ts)
		}
	}
	for i, sc := range s.scores {
		ts := cell
		if !sc.oneFrame {
			ts.Color = st.th.MutedText
		}
		plot.DrawText(dst, sc.label, float64(r.Min.X), float64(y0+(i+1)*lh+lh/2), ts)
	}
}

// drawPSNR plots the PSNR of the mean of n stochastic frames against n
// beside the flat lines of the deterministic methods.
func (s *ditherScene) drawPSNR(dst *image.RGBA, st style, r image.Rectangle) error {
	n := s.ps.int("frames")
	xs, err := plot.NewLog2(1, ditherMaxFrames)
	if err != nil {
		return err
	}
	hi := math.Max(math.Max(s.pBayer, s.pFS), s.pNearest)
	for _, p := range s.psnr {
		hi = math.Max(hi, p)
	}
	lo := math.Min(s.pNearest, s.psnr[0])
	ys, err := plot.NewLinear(math.Floor(lo/5)*5, math.Ceil((hi+2)/5)*5)
	if err != nil {
		return err
	}
	ax, legend, err := psnrAxes(st, r, xs, ys)
	if err != nil {
		return err
	}
	ax.Draw(dst)
	flat := func(v float64, c color.RGBA, dash []float64) error {
		return ax.Line(dst, []float64{1, ditherMaxFrames}, []float64{v, v}, plot.LineStyle{Color: c, Width: st.pxf(2), Dash: dash})
	}
	if err := flat(s.pNearest, plot.Vermillion, nil); err != nil {
		return err
	}
	if err := flat(s.pBayer, plot.BluishGreen, []float64{st.pxf(6), st.pxf(4)}); err != nil {
		return err
	}
	if err := flat(s.pFS, plot.ReddishPurple, []float64{st.pxf(2), st.pxf(3)}); err != nil {
		return err
	}
	k := min(n, len(s.psnr))
	xsd, ysd := make([]float64, k), make([]float64, k)
	for i := 0; i < k; i++ {
		xsd[i], ysd[i] = float64(i+1), s.psnr[i]
	}
	if err := ax.Line(dst, xsd, ysd, plot.LineStyle{Color: plot.Blue, Width: st.pxf(2.5)}); err != nil {
		return err
	}
	p := ax.Map(float64(n), s.psnr[n-1])
	plot.FillCircle(ax.Clip(dst), p.X, p.Y, st.pxf(5), plot.Blue)
	_, err = ax.Legend(dst, plot.TopLeft, legend)
	return err
}

// drawTiny plots a weight receiving the same tiny update 1000 times, with
// round to nearest (stalls) and stochastic rounding (tracks the sum).
func (s *ditherScene) drawTiny(dst *image.RGBA, st style, r image.Rectangle) error {
	t := s.tiny
	steps := make([]float64, len(t.Exact)+1)
	exact := append([]float64{t.Start}, t.Exact...)
	near := append([]float64{t.Start}, t.Nearest...)
	sto := append([]float64{t.Start}, t.Stochastic...)
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range steps {
		steps[i] = float64(i)
		for _, v := range []float64{exact[i], near[i], sto[i]} {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	pad := (hi - lo) * 0.08
	if pad == 0 {
		pad = 0.01
	}
	xs, err := plot.NewLinear(0, float64(len(steps)-1))
	if err != nil {
		return err
	}
	ys, err := plot.NewLinear(lo-pad, hi+pad)
	if err != nil {
		return err
	}
	ax, legend, err := s.tinyAxes(st, r, xs, ys)
	if err != nil {
		return err
	}
	ax.Draw(dst)
	if err := ax.Line(dst, steps, exact, plot.LineStyle{Color: st.th.Foreground, Width: st.pxf(1.5), Dash: []float64{st.pxf(6), st.pxf(4)}}); err != nil {
		return err
	}
	if err := ax.Step(dst, steps, near, plot.StepPost, plot.LineStyle{Color: plot.Vermillion, Width: st.pxf(2.5)}); err != nil {
		return err
	}
	if err := ax.Step(dst, steps, sto, plot.StepPost, plot.LineStyle{Color: plot.Blue, Width: st.pxf(2)}); err != nil {
		return err
	}
	_, err = ax.Legend(dst, plot.TopLeft, legend)
	return err
}

// psnrLegend lists the curves of the PSNR chart; short names the
// stochastic curve as the x axis does, for a small picture.
func psnrLegend(st style, short bool) []plot.LegendEntry {
	mean := "mean of N stochastic frames"
	if short {
		mean = "mean of N"
	}
	return []plot.LegendEntry{
		{Label: mean, Color: plot.Blue, Width: st.pxf(2.5)},
		{Label: "nearest", Color: plot.Vermillion, Width: st.pxf(2)},
		{Label: "Bayer", Color: plot.BluishGreen, Width: st.pxf(2), Dash: []float64{st.pxf(6), st.pxf(4)}},
		{Label: "Floyd–Steinberg", Color: plot.ReddishPurple, Width: st.pxf(2), Dash: []float64{st.pxf(2), st.pxf(3)}},
	}
}

// psnrAxes makes the axes of the PSNR chart in r and returns the legend
// they leave room for. Where the plot would be short, the title gives way
// first: the y label and the legend say what the chart shows.
func psnrAxes(st style, r image.Rectangle, xs, ys plot.Scale) (*plot.Axes, []plot.LegendEntry, error) {
	return keyedAxes(st, r, xs, ys, "PSNR against the original", "", "frames averaged, N", "PSNR (dB)", psnrLegend)
}

// ditherMinPlot is the least height of a chart's plot area, as a fraction
// of its width, that keyedAxes accepts before the chart's texts give way:
// lower, a plot has room for one y tick (the 1024×768 page's canvas).
const ditherMinPlot = 1.0 / 3

// keyedAxes makes axes whose legend and axis labels never go missing: a
// chart without its key or without the names of its axes cannot be read.
// It takes the first of these that leaves a strip for the legend and a
// plot area at least ditherMinPlot as tall as wide: the full legend, its
// short form, then the short form under the short title (which may be
// empty); where none is that tall, the one with the tallest plot. Where
// the legend finds no strip above the plot (the smallest pictures), the
// title gives its room up and the legend goes where Legend finds a free
// place.
func keyedAxes(st style, r image.Rectangle, xs, ys plot.Scale, title, shortTitle, xlabel, ylabel string, legend func(style, bool) []plot.LegendEntry) (*plot.Axes, []plot.LegendEntry, error) {
	type try struct {
		short bool
		title string
	}
	tries := []try{{false, title}, {true, title}, {true, shortTitle}}
	var best *plot.Axes
	var bestL []plot.LegendEntry
	for _, t := range tries {
		l := legend(st, t.short)
		ax, err := st.axes(r, xs, ys, t.title, xlabel, ylabel, l...)
		if err != nil {
			return nil, nil, err
		}
		if !ax.HasLegendStrip() {
			continue
		}
		if float64(ax.Plot.Dy()) >= ditherMinPlot*float64(ax.Plot.Dx()) {
			return ax, l, nil
		}
		if best == nil || ax.Plot.Dy() > best.Plot.Dy() {
			best, bestL = ax, l
		}
	}
	if best != nil {
		return best, bestL, nil
	}
	l := legend(st, true)
	ax, err := st.axes(r, xs, ys, "", xlabel, ylabel, l...)
	return ax, l, err
}

// tinyLegend lists the curves of the tiny-updates chart; short drops the
// words the title says, for a small picture.
func tinyLegend(st style, short bool) []plot.LegendEntry {
	near, sto := "round to nearest", "stochastic rounding"
	if short {
		near, sto = "nearest", "stochastic"
	}
	return []plot.LegendEntry{
		{Label: "exact sum", Width: st.pxf(1.5), Dash: []float64{st.pxf(6), st.pxf(4)}},
		{Label: near, Color: plot.Vermillion, Width: st.pxf(2.5)},
		{Label: sto, Color: plot.Blue, Width: st.pxf(2)},
	}
}

// tinyAxes makes the axes of the tiny-updates chart in r and returns the
// legend they leave room for.
func (s *ditherScene) tinyAxes(st style, r image.Rectangle, xs, ys plot.Scale) (*plot.Axes, []plot.LegendEntry, error) {
	update := fmt.Sprintf("w += 2%s in %s", plot.Superscript(s.ps.int("tiny_update")), s.ps.str("tiny_format"))
	return keyedAxes(st, r, xs, ys, "Tiny updates: "+update, update, "step", "w", tinyLegend)
}

// chartsHeight returns the height the two charts of a stacked picture need
// (with the gap between them) for plot areas of plotH pixels each at width
// w: their titles, legends, ticks and axis labels measured by laying
// their axes out.
func (s *ditherScene) chartsHeight(st style, w, plotH int) (int, error) {
	lin, err := plot.NewLinear(0, 1)
	if err != nil {
		return 0, err
	}
	const tall = 1 << 14 // room enough for any decoration
	r := image.Rect(0, 0, w, tall)
	total := st.px(14)
	for _, mk := range []func() (*plot.Axes, error){
		func() (*plot.Axes, error) { ax, _, err := psnrAxes(st, r, lin, lin); return ax, err },
		func() (*plot.Axes, error) { ax, _, err := s.tinyAxes(st, r, lin, lin); return ax, err },
	} {
		ax, err := mk()
		if err != nil {
			return 0, err
		}
		total += tall - ax.Plot.Dy() + plotH
	}
	return total, nil
}
