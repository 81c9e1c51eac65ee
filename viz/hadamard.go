package viz

import (
	"fmt"
	"image"
	"math"
	"strconv"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// hadamardScene rotates rows with extreme outliers by a (block) Hadamard
// transform and compares quantizing before and after.
type hadamardScene struct {
	ps  *paramSet
	key string
	// results of the last computation
	t, rotated     *scaling.Tensor
	plainErr       []float64 // |x - x̂| per element, quantized directly
	rotErr         []float64 // |x - x̂| per element, quantized after rotating
	rep            *scaling.OutlierReport
	bulkPlain      scaling.Metrics // the same, without the outlier elements
	bulkRot        scaling.Metrics
	outlierCols    []int
	block          int
	before, after  hist1D
	format         *fp8.Format
	granularityStr string
}

func newHadamard() Scene {
	return &hadamardScene{ps: newParamSet(
		Param{Name: "n", Label: "Row length", Kind: ParamChoice, Options: []string{"256", "1024", "4096"}, Default: "1024",
			Help: "elements per row (the K dimension the rotation mixes)"},
		Param{Name: "rows", Label: "Rows", Kind: ParamInt, Min: 1, Max: 64, Step: 1, Default: "8",
			Help: "rows of the matrix; every row has its outliers in the same columns, like outlier channels"},
		Param{Name: "outliers", Label: "Outliers per row", Kind: ParamInt, Min: 0, Max: 8, Step: 1, Default: "1",
			Help: "how many extreme values each row holds"},
		Param{Name: "outlier", Label: "Outlier size (log₂)", Kind: ParamInt, Min: 0, Max: 20, Step: 1, Default: "6",
			Help: "the outliers are ±2^k; the other values are N(0, 1)"},
		Param{Name: "block", Label: "Hadamard block", Kind: ParamChoice, Options: []string{"16", "32", "64", "128", "256", "full"}, Default: "full",
			Help: "size of the diagonal Hadamard blocks; full rotates the whole row"},
		Param{Name: "random_signs", Label: "Random signs", Kind: ParamBool, Default: "false",
			Help: "multiply by random ±1 before the transform (randomized Hadamard): one outlier no longer gives two clean peaks"},
		Param{Name: "format", Label: "Format", Kind: ParamChoice, Options: signedFormats(), Default: "E2M1",
			Help: "element format: rotation rescues FP4 (E2M1), whose range is tiny; FP8 E4M3 rarely needs it"},
		Param{Name: "granularity", Label: "Scaling", Kind: ParamChoice, Options: []string{"tensor", "row", "mx"}, Default: "tensor",
			Help: "which elements share a scale (mx needs an MX element format)"},
		Param{Name: "seed", Label: "Seed", Kind: ParamInt, Min: 0, Max: 1 << 20, Step: 1, Default: "3",
			Help: "seed of the values and of the random signs"},
	)}
}

// Name implements Scene.
func (s *hadamardScene) Name() string { return "hadamard" }

// Title implements Scene.
func (s *hadamardScene) Title() string { return "Hadamard rotation and outliers" }

// Params implements Scene.
func (s *hadamardScene) Params() []Param { return s.ps.Params() }

// Get implements Scene.
func (s *hadamardScene) Get(name string) (string, error) { return s.ps.Get(name) }

// Click implements Scene.
func (s *hadamardScene) Click(x, y, w, h int) bool { return false }

// Set changes a parameter; a combination scaling refuses (such as mx with
// an FNUZ format) is an error and leaves the scene unchanged.
func (s *hadamardScene) Set(name, value string) error {
	return s.ps.setAndApply(name, value, s.compute)
}

func (s *hadamardScene) compute() error {
	key := s.ps.key("n", "rows", "outliers", "outlier", "block", "random_signs", "format", "granularity", "seed")
	if key == s.key {
		return nil
	}
	n, _ := strconv.Atoi(s.ps.str("n"))
	rows := s.ps.int("rows")
	seed := uint64(s.ps.int("seed"))
	f, err := fp8.Lookup(s.ps.str("format"))
	if err != nil {
		return err
	}
	g, err := scaling.ParseGranularity(s.ps.str("granularity"))
	if err != nil {
		return err
	}
	block := n
	if b := s.ps.str("block"); b != "full" {
		block, _ = strconv.Atoi(b)
	}
	if block > n {
		block = n
	}
	// Outliers at spread-out columns, alternating in sign.
	spec := scaling.OutlierSpec{Rows: rows, Cols: n, Seed: seed}
	var cols []int
	big := float32(math.Exp2(float64(s.ps.int("outlier"))))
	for k := 0; k < s.ps.int("outliers"); k++ {
		j := (k*n)/max(s.ps.int("outliers"), 1) + n/7
		cols = append(cols, j%n)
		v := big
		if k%2 == 1 {
			v = -big
		}
		for i := 0; i < rows; i++ {
			spec.Outliers = append(spec.Outliers, scaling.Outlier{Row: i, Col: j % n, Value: v})
		}
	}
	t, err := scaling.MakeOutlierTensor(spec)
	if err != nil {
		return err
	}
	var rot *scaling.Rotation
	if s.ps.bool("random_signs") {
		rot, err = scaling.NewRandomRotation(n, block, seed+101)
	} else {
		rot, err = scaling.NewRotation(n, block)
	}
	if err != nil {
		return err
	}
	rep, err := scaling.OutlierExperiment(t, f, g, rot, scaling.Options{})
	if err != nil {
		return err
	}
	rotated := t.Clone()
	if err := rot.RotateRows(rotated); err != nil {
		return err
	}
	// The per-element errors, by the same pipeline the report measures.
	plain, err := roundTrip(t, f, g)
	if err != nil {
		return err
	}
	back, err := roundTrip(rotated, f, g)
	if err != nil {
		return err
	}
	if err := rot.UnrotateRows(back); err != nil {
		return err
	}
	isOut := map[int]bool{}
	for _, j := range cols {
		isOut[j] = true
	}
	s.plainErr, s.rotErr = absErr(t, plain), absErr(t, back)
	if s.bulkPlain, err = bulkMetrics(t, plain, isOut); err != nil {
		return err
	}
	if s.bulkRot, err = bulkMetrics(t, back, isOut); err != nil {
		return err
	}
	s.t, s.rotated, s.rep, s.outlierCols, s.block, s.format = t, rotated, rep, cols, block, f
	s.before, s.after = newHist1D(t.Data, 81), newHist1D(rotated.Data, 81)
	s.key = key
	return nil
}

// roundTrip quantizes and dequantizes t.
func roundTrip(t *scaling.Tensor, f *fp8.Format, g scaling.Granularity) (*scaling.Tensor, error) {
	q, err := scaling.Quantize(t, f, g, scaling.Options{})
	if err != nil {
		return nil, err
	}
	return q.Dequantize()
}

func absErr(a, b *scaling.Tensor) []float64 {
	out := make([]float64, len(a.Data))
	for i := range out {
		out[i] = math.Abs(float64(a.Data[i]) - float64(b.Data[i]))
	}
	return out
}

// bulkMetrics compares approx with orig on the elements that are not in an
// outlier column (both set to zero there), with scaling's Compare.
func bulkMetrics(orig, approx *scaling.Tensor, outCols map[int]bool) (scaling.Metrics, error) {
	o, a := orig.Clone(), approx.Clone()
	for i := 0; i < o.Rows; i++ {
		for j := range outCols {
			o.Set(i, j, 0)
			a.Set(i, j, 0)
		}
	}
	return scaling.Compare(o, a, scaling.DefaultMetricsBlock)
}

// hist1D is a histogram of signed values over a symmetric range.
type hist1D struct {
	edges, counts []float64
	amax          float64
}

func newHist1D(data []float32, bins int) hist1D {
	amax := 0.0
	for _, v := range data {
		amax = math.Max(amax, math.Abs(float64(v)))
	}
	if amax == 0 {
		amax = 1
	}
	lim := amax * 1.04
	h := hist1D{edges: make([]float64, bins+1), counts: make([]float64, bins), amax: amax}
	for i := range h.edges {
		h.edges[i] = -lim + 2*lim*float64(i)/float64(bins)
	}
	for _, v := range data {
		k := int((float64(v) + lim) / (2 * lim) * float64(bins))
		h.counts[min(max(k, 0), bins-1)]++
	}
	return h
}

// Facts implements Scene.
func (s *hadamardScene) Facts() map[string]string {
	if err := s.compute(); err != nil {
		return map[string]string{"error": err.Error()}
	}
	r := s.rep
	return map[string]string{
		"format":               s.format.Name(),
		"block":                strconv.Itoa(s.block),
		"amax_before":          fact(float64(r.AmaxBefore)),
		"amax_after":           fact(float64(r.AmaxAfter)),
		"plain_sqnr_db":        fact(r.Plain.SQNR),
		"rotated_sqnr_db":      fact(r.Rotated.SQNR),
		"plain_bulk_sqnr_db":   fact(s.bulkPlain.SQNR),
		"rotated_bulk_sqnr_db": fact(s.bulkRot.SQNR),
		"plain_underflow":      strconv.Itoa(r.Plain.Underflow),
		"rotated_underflow":    strconv.Itoa(r.Rotated.Underflow),
		"elements":             strconv.Itoa(r.Plain.Elements),
		"outliers":             s.ps.str("outliers"),
	}
}

// Render implements Scene.
func (s *hadamardScene) Render(dst *image.RGBA) error {
	st, body, err := begin(dst, "Hadamard rotation and outliers",
		"rotating a row spreads an outlier over the block, shrinking amax so the scale fits the bulk")
	if err != nil {
		return err
	}
	if err := s.compute(); err != nil {
		errorPanel(dst, body, st, err.Error())
		return nil
	}
	cols, err := plot.SplitColumns(body, st.px(28), 1.15, 1)
	if err != nil {
		return err
	}
	left, err := plot.SplitRows(cols[0], st.px(16), 1, 1)
	if err != nil {
		return err
	}
	big := math.Exp2(float64(s.ps.int("outlier")))
	if err := s.drawHist(dst, st, left[0], s.before, "Before rotation: the values of every row", ""); err != nil {
		return err
	}
	note := ""
	if len(s.outlierCols) > 0 {
		note = fmt.Sprintf("outlier ÷ √%d = %s", s.block, short(big/math.Sqrt(float64(s.block))))
	}
	if err := s.drawHist(dst, st, left[1], s.after, fmt.Sprintf("After a %d-point Hadamard rotation", s.block), note); err != nil {
		return err
	}
	right, err := plot.SplitRows(cols[1], st.px(16), 1, 1.1)
	if err != nil {
		return err
	}
	if err := s.drawSQNR(dst, st, right[0]); err != nil {
		return err
	}
	return s.drawErrors(dst, st, right[1])
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
	ax.Draw(dst)
	if err := ax.Histogram(dst, h.edges, h.counts, plot.BarStyle{Fill: plot.Blue}); err != nil {
		return err
	}
	mk := plot.LineStyle{Color: plot.ReddishPurple, Width: st.pxf(1.5), Dash: []float64{st.pxf(5), st.pxf(4)}}
	ax.VMarker(dst, h.amax, "amax "+short(h.amax), mk)
	ax.VMarker(dst, -h.amax, "", mk)
	if note != "" {
		ts := st.body()
		ts.VAlign = plot.AlignTop
		plot.DrawText(dst, note, float64(ax.Plot.Min.X+st.px(10)), float64(ax.Plot.Min.Y+st.px(8)), ts)
	}
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
	ax, err := st.axes(r, xs, ys, fmt.Sprintf("Quantization SQNR (%s, per %s)", s.format.Name(), s.ps.str("granularity")), "", "SQNR (dB)")
	if err != nil {
		return err
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
	ts := st.text(15, plot.FontBold, st.th.Foreground)
	ts.Align, ts.VAlign = plot.AlignCenter, plot.AlignBottom
	for i := range groups {
		for k, v := range []float64{plain[i], rot[i]} {
			x := float64(i) - 0.19 + 0.38*float64(k)
			y := math.Max(0, math.Min(v, top*1.2))
			p := ax.Map(x, y)
			plot.DrawText(dst, dB(v), p.X, p.Y-st.pxf(4), ts)
		}
	}
	_, err = ax.Legend(dst, plot.TopRight, []plot.LegendEntry{
		{Label: "quantized directly", Color: plot.Vermillion, Kind: plot.LegendSwatch},
		{Label: "rotate, quantize, rotate back", Color: plot.Blue, Kind: plot.LegendSwatch},
	})
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
	ys, err := plot.NewLog10(math.Pow(10, math.Floor(math.Log10(lo))), math.Pow(10, math.Ceil(math.Log10(hi)+1.2)))
	if err != nil {
		return err
	}
	ax, err := st.axes(r, xs, ys, fmt.Sprintf("Error of each element (row 0, first %d)", n), "element", "|error|")
	if err != nil {
		return err
	}
	ax.Draw(dst)
	if err := ax.Line(dst, xsd, pe, plot.LineStyle{Color: plot.Vermillion, Width: st.pxf(1.2)}); err != nil {
		return err
	}
	if err := ax.Line(dst, xsd, re, plot.LineStyle{Color: plot.Blue, Width: st.pxf(1.2)}); err != nil {
		return err
	}
	ts := st.muted()
	ts.VAlign = plot.AlignBottom
	plot.DrawText(dst, "zero error is not drawn on the log axis", float64(ax.Plot.Min.X+st.px(6)), float64(ax.Plot.Max.Y-st.px(4)), ts)
	_, err = ax.Legend(dst, plot.TopRight, []plot.LegendEntry{
		{Label: "quantized directly", Color: plot.Vermillion, Width: st.pxf(2)},
		{Label: "with rotation", Color: plot.Blue, Width: st.pxf(2)},
	})
	return err
}
