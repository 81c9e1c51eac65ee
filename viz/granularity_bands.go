package viz

import (
	"fmt"
	"image"

	"github.com/fp8lab/fp8lab/viz/plot"
)

// drawBands lays the six cases out for a tall, narrow picture (a phone):
// a key saying what the two maps are, with their colour bars, then the
// cases two a row (one where their numbers would not fit half the width),
// each its name and scale grid over its two maps side by side over its
// numbers, so that every label keeps the readable size inside its cell. A chart of whole-tensor and worst-row SQNR fills any height left.
func (s *granularityScene) drawBands(dst *image.RGBA, st style, r image.Rectangle) error {
	key := st.muted()
	key.VAlign = plot.AlignTop
	y := textLines(dst, r.Min.X, r.Min.Y, plot.WrapText(fmt.Sprintf("Left map: decode scale of each block (log₂). Right map: SQNR of each %d×%d patch — dark = information lost.",
		granPatch, granPatch), r.Dx(), key), key, st.px(3))
	scaleV, sqV, err := s.caseScales()
	if err != nil {
		return err
	}
	// The colour bars, one per line and equally long, each followed by its
	// label.
	cbH := st.px(18)
	y += st.px(6)
	bars := []struct {
		v     plot.Scale
		label string
	}{{scaleV, "log₂ decode scale"}, {sqV, "patch SQNR (dB)"}}
	lw := 0
	for _, b := range bars {
		lw = max(lw, plot.MeasureText(b.label, plot.TextStyle{Size: st.th.LabelSize}).Width+st.px(24))
	}
	for _, b := range bars {
		if err := hColorBar(dst, st, image.Rect(r.Min.X, y, r.Max.X-lw, y+cbH), plot.Viridis, b.v, b.label); err != nil {
			return err
		}
		y += cbH + plot.MeasureText("0", st.muted()).Height() + st.px(14)
	}

	name := st.text(15, plot.FontBold, st.th.Foreground)
	name.VAlign = plot.AlignTop
	detail := st.muted()
	detail.VAlign = plot.AlignTop
	first := st.text(16, plot.FontBold, st.th.Foreground)
	rest := st.text(15, plot.FontRegular, st.th.Foreground)
	nameH := plot.MeasureText("Xg", name).Height() + st.px(6)
	statsH := plot.MeasureText("Xg", first).Height() + st.px(4) + 3*(plot.MeasureText("Xg", rest).Height()+st.px(3))
	statsW := 0
	for _, c := range s.cases {
		for i, l := range caseLines(c) {
			ts := rest
			if i == 0 {
				ts = first
			}
			statsW = max(statsW, plot.MeasureText(l, ts).Width)
		}
	}
	// Two cases a row when their numbers fit half the width, else one.
	gap, cellGap, rowGap := st.px(8), st.px(16), st.px(16)
	ncols := 2
	if (r.Dx()-cellGap)/2 < statsW {
		ncols = 1
	}
	cells, err := plot.SplitColumns(r, cellGap, repeatWeights(ncols)...)
	if err != nil {
		return err
	}
	cellW := cells[0].Dx()
	n := len(s.cases)
	nrows := (n + ncols - 1) / ncols
	fixed := 2*nameH + gap + statsH + rowGap
	m := min((cellW-gap)/2, (r.Max.Y-y)/nrows-fixed)
	if m < st.px(24) {
		return fmt.Errorf("viz: granularity: %v is too small for %d rows of maps", r, nrows)
	}
	for i, c := range s.cases {
		x0 := cells[i%ncols].Min.X
		cy := y + (i/ncols)*(fixed+m)
		whole := image.Rect(x0-st.px(5), cy-st.px(3), x0+cellW+st.px(5), cy+fixed+m-rowGap+st.px(3))
		s.cols = append(s.cols, whole)
		if c.key == s.ps.str("focus") {
			plot.FillRect(dst, whole, plot.WithAlpha(plot.SkyBlue, 0x38))
			plot.StrokeRect(dst, whole, max(1, st.px(2)), plot.Blue)
		}
		plot.DrawText(dst, c.name, float64(x0), float64(cy), fitText(c.name, name, cellW))
		d := fmt.Sprintf("%d×%d scales", c.q.ScaleRows, c.q.ScaleCols)
		if c.q.ScaleFormat != nil {
			d = fmt.Sprintf("%d×%d %s", c.q.ScaleRows, c.q.ScaleCols, c.q.ScaleFormat.Name())
		}
		plot.DrawText(dst, d, float64(x0), float64(cy+nameH), fitText(d, detail, cellW))
		my := cy + 2*nameH
		sr := image.Rect(x0, my, x0+m, my+m)
		if err := plot.DrawHeatmap(dst, sr, c.scale, plot.HeatmapStyle{Map: plot.Viridis, Value: scaleV, Pool: plot.PoolMax}); err != nil {
			return err
		}
		s.maps = append(s.maps, granMap{key: c.key, kind: "scale", r: sr, rows: len(c.scale), v: scaleV})
		plot.StrokeRect(dst, plot.Inset(sr, -1), 1, st.th.Frame)
		er := image.Rect(sr.Max.X+gap, my, sr.Max.X+gap+m, my+m)
		if err := plot.DrawHeatmap(dst, er, clampInf(c.patch, 50), plot.HeatmapStyle{Map: plot.Viridis, Value: sqV, Pool: plot.PoolMin}); err != nil {
			return err
		}
		s.maps = append(s.maps, granMap{key: c.key, kind: "sqnr", r: er, rows: len(c.patch), v: sqV})
		plot.StrokeRect(dst, plot.Inset(er, -1), 1, st.th.Frame)
		lines := caseLines(c)
		yy := textLines(dst, x0, sr.Max.Y+gap, lines[:1], first, st.px(4))
		textLines(dst, x0, yy, lines[1:], rest, st.px(3))
	}
	y += nrows * (fixed + m)
	if left := r.Max.Y - y; left >= st.px(150) {
		return s.drawSQNRChart(dst, st, image.Rect(r.Min.X, y+st.px(10), r.Max.X, r.Max.Y))
	}
	return nil
}
