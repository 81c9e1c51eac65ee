package viz

import (
	"fmt"
	"image"
	"math"
	"strconv"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/parallel"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// The matrix of the granularity scene: 256×256, so that 128×128 blocks
// form a 2×2 grid and 1×128 tiles two per row.
const (
	granSide  = 256
	granPatch = 8 // side of the patches whose SQNR the error maps show
)

// granularityCase is one way of scaling the matrix.
type granularityCase struct {
	name  string
	g     scaling.Granularity
	fmt   *fp8.Format
	q     *scaling.Quantized
	m     scaling.Metrics
	scale [][]float64 // log2 of each block's decode scale, in the block grid
	patch [][]float64 // SQNR (dB) of each granSide/granPatch patch
}

// granularityScene quantizes one matrix with outlier rows and columns six
// ways, showing the scales each way chooses and where the error lands.
type granularityScene struct {
	ps    *paramSet
	key   string
	t     *scaling.Tensor
	logx  [][]float64
	cases []*granularityCase
}

func newGranularity() Scene {
	return &granularityScene{ps: newParamSet(
		Param{Name: "format", Label: "Format", Kind: ParamChoice, Options: []string{"E4M3FN", "E5M2", "E3M2", "E2M3", "E2M1"}, Default: "E4M3FN",
			Help: "element format of every case but NVFP4, which is always E2M1 with E4M3 block scales"},
		Param{Name: "outlier_rows", Label: "Outlier rows", Kind: ParamInt, Min: 0, Max: 16, Step: 1, Default: "3",
			Help: "rows (tokens) multiplied by the outlier factor"},
		Param{Name: "outlier_cols", Label: "Outlier columns", Kind: ParamInt, Min: 0, Max: 16, Step: 1, Default: "0",
			Help: "columns (channels) multiplied by the outlier factor"},
		Param{Name: "factor", Label: "Outlier factor (log₂)", Kind: ParamInt, Min: 0, Max: 24, Step: 1, Default: "16",
			Help: "how much larger the outlier rows and columns are, as a power of two"},
		Param{Name: "seed", Label: "Seed", Kind: ParamInt, Min: 0, Max: 1 << 20, Step: 1, Default: "7",
			Help: "seed of the random matrix and of where the outliers go"},
	)}
}

// Name implements Scene.
func (s *granularityScene) Name() string { return "granularity" }

// Title implements Scene.
func (s *granularityScene) Title() string { return "Scaling granularity" }

// Params implements Scene.
func (s *granularityScene) Params() []Param { return s.ps.Params() }

// Get implements Scene.
func (s *granularityScene) Get(name string) (string, error) { return s.ps.Get(name) }

// Click implements Scene.
func (s *granularityScene) Click(x, y, w, h int) bool { return false }

// Set implements Scene.
func (s *granularityScene) Set(name, value string) error {
	_, err := s.ps.set(name, value)
	return err
}

// outlierIndices spreads n indices over 0..granSide-1, shifted by seed.
func outlierIndices(n int, seed uint64, salt int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = (int(seed%97)*(salt+3) + 37 + i*granSide/max(n, 1) + salt*11) % granSide
	}
	return out
}

// matrix builds the input: N(0,1) with outlier rows (scaling's
// MakeOutlierTensor) and outlier columns multiplied by the same factor.
func (s *granularityScene) matrix() (*scaling.Tensor, error) {
	seed := uint64(s.ps.int("seed"))
	factor := math.Exp2(float64(s.ps.int("factor")))
	t, err := scaling.MakeOutlierTensor(scaling.OutlierSpec{
		Rows: granSide, Cols: granSide, Seed: seed,
		OutlierRows: outlierIndices(s.ps.int("outlier_rows"), seed, 0), RowFactor: factor,
	})
	if err != nil {
		return nil, err
	}
	// Columns are multiplied outside the outlier rows only, so that no
	// element gets the factor twice.
	isRow := map[int]bool{}
	for _, i := range outlierIndices(s.ps.int("outlier_rows"), seed, 0) {
		isRow[i] = true
	}
	for _, j := range outlierIndices(s.ps.int("outlier_cols"), seed, 1) {
		for i := 0; i < granSide; i++ {
			if !isRow[i] {
				t.Set(i, j, float32(float64(t.At(i, j))*factor))
			}
		}
	}
	return t, nil
}

func (s *granularityScene) compute() error {
	key := s.ps.key("format", "outlier_rows", "outlier_cols", "factor", "seed")
	if key == s.key {
		return nil
	}
	t, err := s.matrix()
	if err != nil {
		return err
	}
	f, err := fp8.Lookup(s.ps.str("format"))
	if err != nil {
		return err
	}
	logx := make([][]float64, granSide)
	for i := range logx {
		logx[i] = make([]float64, granSide)
		for j := range logx[i] {
			a := math.Abs(float64(t.At(i, j)))
			logx[i][j] = math.NaN()
			if a > 0 {
				logx[i][j] = math.Log2(a)
			}
		}
	}
	// Every standard granularity whose blocks lie along the rows (the scene
	// has six panels): those one column wide (col, tile128x1) are left out,
	// whatever their kind. Named and formatted as scaling's table says:
	// NVFP4 brings its own E2M1.
	var cases []*granularityCase
	for _, g := range scaling.Granularities() {
		if _, bc, err := g.BlockShape(granSide, granSide); err != nil || bc == 1 {
			continue
		}
		c := &granularityCase{name: g.Label(), g: g, fmt: f}
		if e := g.ElementFormat(); e != nil {
			c.fmt = e
		}
		cases = append(cases, c)
	}
	// The cases are independent: run them side by side, each costing a
	// whole matrix of work.
	err = parallel.Chunks(len(cases), 1, len(cases)*t.Len(), func(lo, hi int) error {
		for _, c := range cases[lo:hi] {
			if err := c.run(t); err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.t, s.logx, s.cases, s.key = t, logx, cases, key
	return nil
}

// run quantizes t, measures it and fills the two maps.
func (c *granularityCase) run(t *scaling.Tensor) error {
	q, err := scaling.Quantize(t, c.fmt, c.g, scaling.Options{})
	if err != nil {
		return err
	}
	m, err := scaling.Measure(t, q)
	if err != nil {
		return err
	}
	deq, err := q.Dequantize()
	if err != nil {
		return err
	}
	patches, err := scaling.SQNRByBlock(t, deq, scaling.Block(granPatch, granPatch))
	if err != nil {
		return err
	}
	n := granSide / granPatch
	c.patch = make([][]float64, n)
	for i := range c.patch {
		c.patch[i] = patches[i*n : (i+1)*n]
	}
	c.scale = make([][]float64, q.ScaleRows)
	for i := range c.scale {
		c.scale[i] = make([]float64, q.ScaleCols)
		for j := range c.scale[i] {
			d := q.BlockDecodeScale(i*q.ScaleCols + j)
			c.scale[i][j] = math.NaN()
			if d > 0 && !math.IsInf(d, 0) {
				c.scale[i][j] = math.Log2(d)
			}
		}
	}
	c.q, c.m = q, m
	return nil
}

// Facts implements Scene.
func (s *granularityScene) Facts() map[string]string {
	if err := s.compute(); err != nil {
		return map[string]string{"error": err.Error()}
	}
	out := map[string]string{"format": s.ps.str("format"), "rows": strconv.Itoa(granSide), "cols": strconv.Itoa(granSide),
		"outlier_rows": s.ps.str("outlier_rows"), "outlier_cols": s.ps.str("outlier_cols"), "factor_log2": s.ps.str("factor")}
	for _, c := range s.cases {
		k := c.g.String()
		out[k+".sqnr_db"] = fact(c.m.SQNR)
		out[k+".worst_row_db"] = fact(c.m.Rows.Worst)
		out[k+".mean_block_db"] = fact(c.m.Blocks.Mean)
		out[k+".underflow"] = strconv.Itoa(c.m.Underflow)
		out[k+".overflow"] = strconv.Itoa(c.m.Overflow)
		out[k+".scales"] = strconv.Itoa(len(c.q.Scales))
		out[k+".format"] = c.fmt.Name()
	}
	return out
}

// Render implements Scene.
func (s *granularityScene) Render(dst *image.RGBA) error {
	st, body, err := begin(dst, "Scaling granularity",
		fmt.Sprintf("one %d×%d matrix with %s outlier rows and %s outlier columns (×2%s), quantized six ways", granSide, granSide,
			s.ps.str("outlier_rows"), s.ps.str("outlier_cols"), plot.Superscript(s.ps.int("factor"))))
	if err != nil {
		return err
	}
	if err := s.compute(); err != nil {
		errorPanel(dst, body, st, err.Error())
		return nil
	}
	cols, err := st.columns(body, st.px(22), 1, 4.2)
	if err != nil {
		return err
	}
	if err := s.drawInput(dst, st, cols[0]); err != nil {
		return err
	}
	return s.drawCases(dst, st, cols[1])
}

// drawInput shows log2|x| of the matrix with its colour bar.
func (s *granularityScene) drawInput(dst *image.RGBA, st style, r image.Rectangle) error {
	head := st.heading()
	head.VAlign = plot.AlignTop
	hb := plot.DrawText(dst, "Input: log₂|x|", float64(r.Min.X), float64(r.Min.Y), head)
	side := min(r.Dx(), (r.Dy()-hb.Dy())/2)
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
	plot.StrokeRect(dst, plot.Inset(hm, -1), 1, st.th.Frame)
	cb := image.Rect(r.Min.X, hm.Max.Y+st.px(14), r.Max.X, hm.Max.Y+st.px(14)+st.px(18))
	if err := hColorBar(dst, st, cb, plot.Viridis, vs, ""); err != nil {
		return err
	}
	lines := []string{
		"Outlier rows and columns",
		"are 2" + plot.Superscript(s.ps.int("factor")) + " times larger.",
		"Small values that share",
		"a scale with an outlier",
		"are rounded to zero.",
	}
	textLines(dst, r.Min.X, cb.Max.Y+st.px(40), lines, st.muted(), st.px(4))
	return nil
}

// drawCases draws, for each granularity, its scales and the SQNR of every
// 8×8 patch, with shared colour scales.
func (s *granularityScene) drawCases(dst *image.RGBA, st style, r image.Rectangle) error {
	n := len(s.cases)
	cols, err := plot.SplitColumns(r, st.px(14), repeatWeights(n)...)
	if err != nil {
		return err
	}
	side := cols[0].Dx()
	head := st.text(15, plot.FontBold, st.th.Foreground)
	head.Align, head.VAlign = plot.AlignCenter, plot.AlignTop
	headH := 2*plot.MeasureText("Xg", head).Height() + st.px(4)
	cbH := st.px(18)
	statsH := 3*plot.MeasureText("Xg", st.muted()).Height() + st.px(10)
	label := st.muted()
	label.VAlign = plot.AlignTop
	labH := plot.MeasureText("Xg", label).Height() + st.px(4)
	avail := r.Dy() - headH - 2*labH - 2*cbH - st.px(60) - statsH
	side = min(side, avail/2)
	y0 := r.Min.Y + headH + labH
	scaleR := func(c image.Rectangle) image.Rectangle {
		return image.Rect(c.Min.X, y0, c.Min.X+side, y0+side)
	}
	y1 := y0 + side + cbH + st.px(30) + labH
	errR := func(c image.Rectangle) image.Rectangle {
		return image.Rect(c.Min.X, y1, c.Min.X+side, y1+side)
	}
	// Shared colour scales: decode scales over all cases, SQNR 0..50 dB.
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range s.cases {
		if a, b, err := plot.ValueRange(c.scale); err == nil {
			lo, hi = math.Min(lo, a), math.Max(hi, b)
		}
	}
	if lo == hi || math.IsInf(lo, 0) {
		lo, hi = lo-1, lo+1
	}
	scaleV, err := plot.NewLinear(math.Floor(lo), math.Ceil(hi))
	if err != nil {
		return err
	}
	sqV, err := plot.NewLinear(0, 50)
	if err != nil {
		return err
	}
	for i, c := range s.cases {
		col := cols[i]
		cx := float64(col.Min.X) + float64(side)/2
		plot.DrawText(dst, c.name, cx, float64(r.Min.Y), fitText(c.name, head, side))
		sub := st.muted()
		sub.Align, sub.VAlign = plot.AlignCenter, plot.AlignTop
		detail := fmt.Sprintf("%d×%d scales", c.q.ScaleRows, c.q.ScaleCols)
		if c.q.ScaleFormat != nil {
			detail = fmt.Sprintf("%d×%d %s", c.q.ScaleRows, c.q.ScaleCols, c.q.ScaleFormat.Name())
		}
		plot.DrawText(dst, detail, cx, float64(r.Min.Y)+float64(headH)/2+st.pxf(2), fitText(detail, sub, side))
		sr := scaleR(col)
		if err := plot.DrawHeatmap(dst, sr, c.scale, plot.HeatmapStyle{Map: plot.Viridis, Value: scaleV, Pool: plot.PoolMax}); err != nil {
			return err
		}
		plot.StrokeRect(dst, plot.Inset(sr, -1), 1, st.th.Frame)
		er := errR(col)
		patch := clampInf(c.patch, 50)
		if err := plot.DrawHeatmap(dst, er, patch, plot.HeatmapStyle{Map: plot.Viridis, Value: sqV, Pool: plot.PoolMin}); err != nil {
			return err
		}
		plot.StrokeRect(dst, plot.Inset(er, -1), 1, st.th.Frame)
		lines := []string{
			"SQNR " + dB(c.m.SQNR),
			"worst row " + dB(c.m.Rows.Worst),
			fmt.Sprintf("zeroed %s", percent(float64(c.m.Underflow)/float64(c.m.Elements))),
		}
		ts := fitText(lines[1], st.text(15, plot.FontRegular, st.th.Foreground), side)
		y := textLines(dst, col.Min.X, er.Max.Y+st.px(10), lines[:1], fitText(lines[0], st.text(16, plot.FontBold, st.th.Foreground), side), st.px(4))
		textLines(dst, col.Min.X, y, lines[1:], ts, st.px(3))
	}
	// Row labels and colour bars under the first row of maps.
	sr0, er0 := scaleR(cols[0]), errR(cols[0])
	plot.DrawText(dst, "Decode scale of each block (log₂)", float64(sr0.Min.X), float64(sr0.Min.Y-labH), label)
	plot.DrawText(dst, fmt.Sprintf("SQNR of each %d×%d patch — dark = information lost", granPatch, granPatch), float64(er0.Min.X), float64(er0.Min.Y-labH), label)
	w := min(r.Dx(), st.px(520))
	if err := hColorBar(dst, st, image.Rect(r.Min.X, sr0.Max.Y+st.px(8), r.Min.X+w, sr0.Max.Y+st.px(8)+cbH), plot.Viridis, scaleV, "log₂ decode scale"); err != nil {
		return err
	}
	cb := image.Rect(r.Min.X, er0.Max.Y+statsH+st.px(16), r.Min.X+w, er0.Max.Y+statsH+st.px(16)+cbH)
	if err := hColorBar(dst, st, cb, plot.Viridis, sqV, "patch SQNR (dB)"); err != nil {
		return err
	}
	note := st.body()
	note.VAlign = plot.AlignTop
	y := cb.Max.Y + st.px(34)
	lines := []string{"Whole-tensor SQNR averages over every value: compare the worst row."}
	if (s.ps.int("outlier_rows") > 0 || s.ps.int("outlier_cols") > 0) && s.ps.int("factor") > 0 {
		lines[0] = "Whole-tensor SQNR is dominated by the outliers: compare the worst row."
	}
	for _, c := range s.cases {
		if _, _, err := plot.ValueRange(c.scale); err == nil && hasNaN(c.scale) {
			lines = append(lines, "Grey: a block scale rounded to zero (NVFP4's E4M3 scale underflowed), so the whole block is lost.")
			break
		}
	}
	if y+2*plot.MeasureText("Xg", note).Height() < r.Max.Y {
		textLines(dst, r.Min.X, y, lines, note, st.px(4))
	}
	return nil
}

// fitText shrinks ts until s fits in width, never below the smallest base
// size (smallestBase for a 14 px text), so that no label drops under
// MinTextCSS on a readable picture.
func fitText(s string, ts plot.TextStyle, width int) plot.TextStyle {
	lo := ts.Size * smallestBase / 14
	for ts.Size > lo && plot.MeasureText(s, ts).Width > width {
		ts.Size = math.Max(ts.Size*0.94, lo)
	}
	return ts
}

// hasNaN reports whether any cell of g is NaN.
func hasNaN(g [][]float64) bool {
	for _, row := range g {
		for _, v := range row {
			if math.IsNaN(v) {
				return true
			}
		}
	}
	return false
}

// repeatWeights returns n equal weights.
func repeatWeights(n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = 1
	}
	return w
}

// clampInf replaces +Inf (exact patches) by top, keeping NaN (no signal).
func clampInf(g [][]float64, top float64) [][]float64 {
	out := make([][]float64, len(g))
	for i, row := range g {
		out[i] = make([]float64, len(row))
		for j, v := range row {
			if math.IsInf(v, 1) || v > top {
				v = top
			}
			out[i][j] = v
		}
	}
	return out
}

// hColorBar draws a horizontal colour bar with the style's theme.
func hColorBar(dst *image.RGBA, st style, r image.Rectangle, cm *plot.ColorMap, v plot.Scale, label string) error {
	th := st.th
	return plot.DrawColorBar(dst, r, plot.ColorBarStyle{Map: cm, Value: v, Label: label, Horizontal: true}, &th)
}
