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
	key   string // scaling's name of the granularity ("mx")
	name  string // its display label ("MX")
	g     scaling.Granularity
	fmt   *fp8.Format
	q     *scaling.Quantized
	m     scaling.Metrics
	scale [][]float64 // log2 of each block's decode scale, in the block grid
	patch [][]float64 // SQNR (dB) of each granSide/granPatch patch
}

// granMap is a heatmap as last drawn: where, of which grid, so that clicks
// and tests find it.
type granMap struct {
	key  string // "input" or the case's key
	kind string // "input", "scale" or "sqnr"
	r    image.Rectangle
	rows int        // rows of the grid drawn
	v    plot.Scale // its colour scale
}

// granularityScene quantizes one matrix with outlier rows and columns six
// ways, showing the scales each way chooses and where the error lands.
type granularityScene struct {
	sceneBase
	key   string
	t     *scaling.Tensor
	logx  [][]float64
	cases []*granularityCase

	loaded     *scaling.Tensor // the 256×256 taken from a loaded tensor
	loadedFrom string          // how it was taken, for the subtitle
	loads      int             // counts loads, so that each recomputes

	size image.Point // the last picture's size, for Click
	maps []granMap   // the heatmaps of the last picture
	cols []image.Rectangle
}

// granGranularities returns the granularities the scene shows: every
// standard one of scaling's table whose blocks lie along the rows (six
// panels); those one column wide (col, tile128x1) are left out.
func granGranularities() []scaling.Granularity {
	var out []scaling.Granularity
	for _, g := range scaling.Granularities() {
		if _, bc, err := g.BlockShape(granSide, granSide); err == nil && bc > 1 {
			out = append(out, g)
		}
	}
	return out
}

// scaleRoundingNames lists by name the E8M0 rounding rules that scaling's
// MX quantizer accepts.
func scaleRoundingNames() []string {
	var out []string
	for _, r := range scaling.MXRoundings() {
		out = append(out, r.String())
	}
	return out
}

// mxElementNames lists the element formats MX scaling takes (OCP MX v1.0's
// FP8, FP6 and FP4 types), in fp8.Presets() order: the menus of the scenes
// that compare them.
func mxElementNames() []string {
	var out []string
	for _, f := range scaling.MX.ElementFormats() {
		out = append(out, f.Name())
	}
	return out
}

func newGranularity() Scene {
	var keys []string
	for _, g := range granGranularities() {
		keys = append(keys, g.String())
	}
	return newScene(&granularityScene{sceneBase: sceneBase{name: "granularity", title: "Scaling granularity", ps: newParamSet(
		Param{Name: "format", Label: "Format", Kind: ParamChoice, Options: mxElementNames(), Default: "E4M3FN",
			Help: "element format of every case but NVFP4, which brings its own: E2M1 elements with E4M3 block scales"},
		Param{Name: "focus", Label: "Granularity in focus", Kind: ParamChoice, Options: keys, Default: "mx",
			Help: "the granularity whose numbers are detailed (MX: how many values saturate); click a column to pick it"},
		Param{Name: "mx_rounding", Label: "MX scale rounding", Kind: ParamChoice, Options: scaleRoundingNames(), Default: fp8.ScaleFloor.String(),
			Help: "how MX rounds amax ÷ max to its power-of-two E8M0 scale: floor (OCP MX), ceil (Transformer Engine: rounds up), nearest-even (to the nearest power of two, ties to even)"},
		Param{Name: "tensor", Label: "Tensor", Kind: ParamChoice, Options: tensorKinds, Default: "normal",
			Help: "normal N(0,1), lognormal spread over many binades, gradients heavy-tailed and tiny (around 2⁻¹²), each with the outliers below; loaded: 256×256 of a tensor from a .npy or CSV file"},
		Param{Name: "outlier_rows", Label: "Outlier rows", Kind: ParamInt, Min: 0, Max: 16, Step: 1, Default: "3",
			Help: "rows (tokens) multiplied by the outlier factor"},
		Param{Name: "outlier_cols", Label: "Outlier columns", Kind: ParamInt, Min: 0, Max: 16, Step: 1, Default: "0",
			Help: "columns (channels) multiplied by the outlier factor"},
		Param{Name: "factor", Label: "Outlier factor (log₂)", Kind: ParamInt, Min: 0, Max: 24, Step: 1, Default: "16",
			Help: "how much larger the outlier rows and columns are, as a power of two"},
		Param{Name: "seed", Label: "Seed", Kind: ParamInt, Min: 0, Max: 1 << 20, Step: 1, Default: "7",
			Help: "seed of the random matrix and of where the outliers go"},
	)}})
}

// Set implements Scene.
func (s *granularityScene) Set(name, value string) error {
	old := s.ps.str(name)
	if _, err := s.ps.set(name, value); err != nil {
		return err
	}
	if name == "tensor" && s.loadedMatrix() && s.loaded == nil {
		s.ps.values[name] = old
		return fmt.Errorf("%w: %s=%q: no tensor loaded: load a .npy or CSV file first", ErrParam, name, value)
	}
	return nil
}

// Click implements Scene: a click on a column of maps puts its granularity
// in focus.
func (s *granularityScene) Click(x, y, w, h int) bool {
	if s.size != image.Pt(w, h) || s.cols == nil {
		if s.Render(canvas(w, h)) != nil {
			return false
		}
	}
	for i, r := range s.cols {
		if image.Pt(x, y).In(r) && i < len(s.cases) {
			k := s.cases[i].key
			if k == s.ps.str("focus") {
				return false
			}
			return s.Set("focus", k) == nil
		}
	}
	return false
}

// LoadTensor implements TensorLoader: the scene shows a granSide×granSide
// matrix, so it takes the top-left granSide×granSide of a larger tensor, or
// the first granSide² values row by row of one with fewer rows or columns
// (a vector, say), and says which; smaller tensors are refused.
func (s *granularityScene) LoadTensor(t *scaling.Tensor) error {
	if err := t.Check(); err != nil {
		return err
	}
	if !t.AllFinite() {
		return fmt.Errorf("the tensor holds NaN or ±Inf")
	}
	n := granSide * granSide
	out, err := scaling.NewTensor(granSide, granSide)
	if err != nil {
		return err
	}
	var from string
	switch {
	case t.Rows >= granSide && t.Cols >= granSide:
		for i := 0; i < granSide; i++ {
			copy(out.Data[i*granSide:(i+1)*granSide], t.Data[i*t.Cols:i*t.Cols+granSide])
		}
		from = fmt.Sprintf("first %d×%d of a loaded %d×%d tensor", granSide, granSide, t.Rows, t.Cols)
		if t.Rows == granSide && t.Cols == granSide {
			from = fmt.Sprintf("a loaded %d×%d tensor", granSide, granSide)
		}
	case len(t.Data) >= n:
		copy(out.Data, t.Data[:n])
		from = fmt.Sprintf("first %d values of a loaded %d×%d tensor, as %d rows of %d", n, t.Rows, t.Cols, granSide, granSide)
	default:
		return fmt.Errorf("the granularity scene needs a %d×%d matrix (or %d values, read row by row): a %d×%d tensor has %d",
			granSide, granSide, n, t.Rows, t.Cols, len(t.Data))
	}
	s.loaded, s.loadedFrom = out, from
	s.loads++
	s.ps.values["tensor"] = "loaded"
	return nil
}

// outlierIndices spreads n indices over 0..granSide-1, shifted by seed.
func outlierIndices(n int, seed uint64, salt int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = (int(seed%97)*(salt+3) + 37 + i*granSide/max(n, 1) + salt*11) % granSide
	}
	return out
}

// outlierRows returns the rows the synthetic matrix multiplies by the
// factor (none for a loaded matrix or a factor of 1).
func (s *granularityScene) outlierRows() []int {
	if s.loadedMatrix() || s.ps.int("factor") == 0 {
		return nil
	}
	return outlierIndices(s.ps.int("outlier_rows"), uint64(s.ps.int("seed")), 0)
}

// loadedMatrix reports whether the scene shows a loaded tensor.
func (s *granularityScene) loadedMatrix() bool { return s.ps.str("tensor") == "loaded" }

// matrix builds the input: N(0,1) with outlier rows (scaling's
// MakeOutlierTensor), or one of the other synthetic tensors laid out
// granSide×granSide with its outlier rows multiplied, and outlier columns
// multiplied by the same factor; or the loaded matrix.
func (s *granularityScene) matrix() (*scaling.Tensor, error) {
	if s.loadedMatrix() {
		if s.loaded == nil {
			return nil, fmt.Errorf("no tensor loaded")
		}
		return s.loaded, nil
	}
	seed := uint64(s.ps.int("seed"))
	factor := math.Exp2(float64(s.ps.int("factor")))
	rows := outlierIndices(s.ps.int("outlier_rows"), seed, 0)
	var t *scaling.Tensor
	var err error
	if kind := s.ps.str("tensor"); kind == "normal" {
		t, err = scaling.MakeOutlierTensor(scaling.OutlierSpec{Rows: granSide, Cols: granSide, Seed: seed, OutlierRows: rows, RowFactor: factor})
	} else if t, err = makeTensor(kind, 0, seed); err == nil {
		if len(t.Data) < granSide*granSide {
			return nil, fmt.Errorf("a %s tensor of %d values cannot fill %d×%d", kind, len(t.Data), granSide, granSide)
		}
		// tensorRows×tensorCols holds granSide² values: read row by row.
		t = &scaling.Tensor{Rows: granSide, Cols: granSide, Data: t.Data[:granSide*granSide]}
		for _, i := range rows {
			for j := 0; j < granSide; j++ {
				t.Set(i, j, float32(float64(t.At(i, j))*factor))
			}
		}
	}
	if err != nil {
		return nil, err
	}
	// Columns are multiplied outside the outlier rows only, so that no
	// element gets the factor twice.
	isRow := map[int]bool{}
	for _, i := range rows {
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
	key := s.ps.key("format", "mx_rounding", "tensor", "outlier_rows", "outlier_cols", "factor", "seed") + strconv.Itoa(s.loads)
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
	mxr, err := fp8.ParseScaleRounding(s.ps.str("mx_rounding"))
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
	// Named and formatted as scaling's table says: NVFP4 brings its own
	// E2M1.
	var cases []*granularityCase
	for _, g := range granGranularities() {
		c := &granularityCase{key: g.String(), name: g.Label(), g: g, fmt: f}
		if e := g.ElementFormat(); e != nil {
			c.fmt = e
		}
		cases = append(cases, c)
	}
	// The cases are independent: run them side by side, each costing a
	// whole matrix of work.
	err = parallel.Chunks(len(cases), 1, len(cases)*t.Len(), func(lo, hi int) error {
		for _, c := range cases[lo:hi] {
			opt := scaling.Options{}
			if c.g.Scales() == scaling.ScaleE8M0 {
				opt.MXRounding = mxr
			}
			if err := c.run(t, opt); err != nil {
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
func (c *granularityCase) run(t *scaling.Tensor, opt scaling.Options) error {
	q, err := scaling.Quantize(t, c.fmt, c.g, opt)
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

// focus returns the case in focus.
func (s *granularityScene) focus() *granularityCase {
	for _, c := range s.cases {
		if c.key == s.ps.str("focus") {
			return c
		}
	}
	return s.cases[0]
}

// Facts implements Scene.
func (s *granularityScene) Facts() map[string]string {
	if err := s.compute(); err != nil {
		return map[string]string{"error": err.Error()}
	}
	out := map[string]string{"format": s.ps.str("format"), "rows": strconv.Itoa(granSide), "cols": strconv.Itoa(granSide),
		"elements": strconv.Itoa(s.t.Len()), "tensor": s.ps.str("tensor"), "focus": s.ps.str("focus"), "mx_rounding": s.ps.str("mx_rounding")}
	if s.loadedMatrix() {
		out["source"] = s.loadedFrom
	} else {
		out["outlier_rows"], out["outlier_cols"], out["factor_log2"] = s.ps.str("outlier_rows"), s.ps.str("outlier_cols"), s.ps.str("factor")
	}
	for _, c := range s.cases {
		k := c.key
		out[k+".label"] = c.name
		out[k+".sqnr_db"] = fact(c.m.SQNR)
		out[k+".worst_row_db"] = fact(c.m.Rows.Worst)
		out[k+".mean_block_db"] = fact(c.m.Blocks.Mean)
		out[k+".underflow"] = strconv.Itoa(c.m.Underflow)
		out[k+".overflow"] = strconv.Itoa(c.m.Overflow)
		out[k+".scales"] = strconv.Itoa(len(c.q.Scales))
		out[k+".format"] = c.fmt.Name()
		out[k+".max"] = fact(c.fmt.Max())
		if c.g.Scales() == scaling.ScaleE8M0 {
			// The floor rule puts each block's largest |x/X| in
			// [2^emax, 2^(emax+1)): those above max saturate.
			if emax, err := scaling.MXEmax(c.fmt); err == nil {
				out[k+".emax"] = strconv.Itoa(emax)
			}
		}
	}
	return out
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
