package viz

import (
	"fmt"
	"image"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// hadamardScene rotates rows with extreme outliers (synthetic, or a
// caller's tensor through LoadTensor) by a (block) Hadamard transform and
// compares quantizing before and after, in the chosen format and in a few
// others side by side, so that where rotation helps (FP4) and where it
// hurts (FP8 E4M3 with one outlier) is visible at once.
type hadamardScene struct {
	sceneBase
	key    string
	loaded *scaling.Tensor // the caller's tensor, as handed over
	// results of the last computation
	t, rotated     *scaling.Tensor
	plainErr       []float64 // |x - x̂| per element, quantized directly
	rotErr         []float64 // |x - x̂| per element, quantized after rotating
	rep            *scaling.OutlierReport
	bulkPlain      scaling.Metrics // the same, without the outlier elements
	bulkRot        scaling.Metrics
	outlierCols    []int
	isOut          func(i, j int) bool // whether element (i, j) counts as an outlier
	outlierValues  int
	outlierMaxErr  float64 // largest |x - x̂| of an outlier, quantized directly
	threshold      float64 // loaded tensors: |x| beyond this is an outlier
	crop           string  // loaded tensors: which part is shown
	block          int
	before, after  hist1D
	format         *fp8.Format
	granularityStr string
	gainKey        string
	gains          []formatGain // the same experiment in compareFormats

	gainAx *plot.Axes // the per-format chart of the last render
	size   image.Point
}

// compareFormats are the formats whose SQNR with and without rotation the
// scene compares side by side: the element types MX scaling accepts (FP4,
// both FP6 and both FP8), narrowest first.
var compareFormats = func() []string {
	fs := scaling.MX.ElementFormats()
	slices.SortStableFunc(fs, func(a, b *fp8.Format) int { return a.Spec().Bits() - b.Spec().Bits() })
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name()
	}
	return out
}()

// chartFormats are the formats of the side-by-side chart: compareFormats,
// and the chosen format when it is not among them, so that the format the
// scene shows always has its bar.
func chartFormats(chosen string) []string {
	for _, n := range compareFormats {
		if n == chosen {
			return compareFormats
		}
	}
	return append(append([]string(nil), compareFormats...), chosen)
}

// formatGain is the SQNR of all elements, quantized directly and after
// rotation, in one format.
type formatGain struct {
	name           string
	plain, rotated float64
}

// outlierRMS is how many times the tensor's RMS a loaded tensor's value
// must exceed to count as an outlier (the synthetic tensors know theirs).
const outlierRMS = 6

func newHadamard() Scene {
	return newScene(&hadamardScene{sceneBase: sceneBase{name: "hadamard", title: "Hadamard rotation and outliers", ps: newParamSet(
		Param{Name: "tensor", Label: "Tensor", Kind: ParamChoice, Options: []string{"synthetic", "loaded"}, Default: "synthetic",
			Help: "synthetic: N(0, 1) rows with planted outliers; loaded: a tensor from a .npy or CSV file, cropped to Rows × Row length"},
		Param{Name: "n", Label: "Row length", Kind: ParamChoice, Options: []string{"256", "1024", "4096"}, Default: "1024",
			Help: "elements per row (the K dimension the rotation mixes); a loaded tensor's rows are cut to the largest power of two that fits"},
		Param{Name: "rows", Label: "Rows", Kind: ParamInt, Min: 1, Max: 64, Step: 1, Default: "8",
			Help: "rows of the matrix; every synthetic row has its outliers in the same columns, like outlier channels"},
		Param{Name: "outliers", Label: "Outliers per row", Kind: ParamInt, Min: 0, Max: 8, Step: 1, Default: "1",
			Help: "how many extreme values each row holds"},
		Param{Name: "outlier", Label: "Outlier size (log₂)", Kind: ParamInt, Min: 0, Max: 20, Step: 1, Default: "6",
			Help: "the outliers are ±2^k; the other values are N(0, 1)"},
		Param{Name: "block", Label: "Hadamard block", Kind: ParamChoice, Options: []string{"16", "32", "64", "128", "256", "full"}, Default: "full",
			Help: "size of the diagonal Hadamard blocks; full rotates the whole row"},
		Param{Name: "random_signs", Label: "Random signs", Kind: ParamBool, Default: "false",
			Help: "multiply each element by a random ±1 before the transform (randomized Hadamard)"},
		Param{Name: "format", Label: "Format", Kind: ParamChoice, Options: signedFormats(), Default: "E2M1",
			Help: "the element format the rows are quantized to, directly and after the rotation; the per-format chart shows the same experiment in the FP4, FP6 and FP8 element formats"},
		Param{Name: "granularity", Label: "Scaling", Kind: ParamChoice, Options: []string{"tensor", "row", "mx"}, Default: "tensor",
			Help: "which elements share a scale (mx needs an MX element format)"},
		Param{Name: "seed", Label: "Seed", Kind: ParamInt, Min: 0, Max: 1 << 20, Step: 1, Default: "3",
			Help: "seed of the values and of the random signs"},
	)}})
}

// Click implements Scene: a click on a format in the side-by-side chart
// selects that format.
func (s *hadamardScene) Click(x, y, w, h int) bool {
	if s.size != image.Pt(w, h) || s.gainAx == nil {
		if s.Render(canvas(w, h)) != nil || s.gainAx == nil {
			return false
		}
	}
	if !image.Pt(x, y).In(s.gainAx.Plot) {
		return false
	}
	i := int(math.Round(s.gainAx.X.Invert(float64(x))))
	if i < 0 || i >= len(s.gains) || s.gains[i].name == s.ps.str("format") {
		return false
	}
	return s.Set("format", s.gains[i].name) == nil
}

// Set changes a parameter; a combination scaling refuses (such as mx with
// an FNUZ format, or a loaded tensor before one is loaded) is an error and
// leaves the scene unchanged.
func (s *hadamardScene) Set(name, value string) error {
	return s.ps.setAndApply(name, value, s.compute)
}

// LoadTensor implements TensorLoader: the tensor's rows are rotated. A 2-D
// tensor is cropped to its first Rows rows and first Row-length columns
// (cut to a power of two, as the transform needs); a 1-D tensor (1×m) is
// cut into rows of that length. The crop is stated in the subtitle and the
// explanation.
func (s *hadamardScene) LoadTensor(t *scaling.Tensor) error {
	if err := t.Check(); err != nil {
		return err
	}
	if !t.AllFinite() {
		return fmt.Errorf("the tensor holds NaN or ±Inf")
	}
	if t.Cols < 2 {
		return fmt.Errorf("a %d×%d tensor has rows of one value: the rotation needs at least 2 values per row", t.Rows, t.Cols)
	}
	old, oldTensor := s.loaded, s.ps.str("tensor")
	s.loaded = t.Clone()
	s.ps.values["tensor"] = "loaded"
	s.key, s.gainKey = "", "" // a new tensor with the same parameters
	if err := s.compute(); err != nil {
		s.loaded, s.ps.values["tensor"], s.key, s.gainKey = old, oldTensor, "", ""
		return err
	}
	return nil
}

// pow2Floor returns the largest power of two not above n (n ≥ 1).
func pow2Floor(n int) int {
	p := 1
	for p*2 <= n {
		p *= 2
	}
	return p
}

// source returns the tensor to rotate: synthetic, with its outlier
// columns, or the crop of the loaded tensor with its description.
func (s *hadamardScene) source(n, rows int, seed uint64) (*scaling.Tensor, []int, string, error) {
	if s.ps.str("tensor") == "loaded" {
		l := s.loaded
		if l == nil {
			return nil, nil, "", fmt.Errorf("no tensor loaded: load a .npy or CSV file first")
		}
		if l.Rows == 1 {
			m := min(n, pow2Floor(l.Cols))
			r := min(rows, l.Cols/m)
			t, err := scaling.NewTensor(r, m)
			if err != nil {
				return nil, nil, "", err
			}
			copy(t.Data, l.Data[:r*m])
			return t, nil, fmt.Sprintf("the first %d values of the loaded 1-D tensor (%s values), cut into %s of %d", r*m, strconv.Itoa(l.Cols), plural(r, "row", "rows"), m), nil
		}
		m := min(n, pow2Floor(l.Cols))
		r := min(rows, l.Rows)
		t, err := scaling.NewTensor(r, m)
		if err != nil {
			return nil, nil, "", err
		}
		for i := 0; i < r; i++ {
			copy(t.Row(i), l.Row(i)[:m])
		}
		return t, nil, fmt.Sprintf("the first %d×%d of the loaded %d×%d tensor", r, m, l.Rows, l.Cols), nil
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
	return t, cols, "", err
}

func (s *hadamardScene) compute() error {
	key := s.ps.key("tensor", "n", "rows", "outliers", "outlier", "block", "random_signs", "format", "granularity", "seed")
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
	t, cols, crop, err := s.source(n, rows, seed)
	if err != nil {
		return err
	}
	n = t.Cols
	block := n
	if b := s.ps.str("block"); b != "full" {
		block, _ = strconv.Atoi(b)
	}
	block = min(block, n)
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
	isOut, threshold := outlierMask(t, cols, crop != "")
	s.plainErr, s.rotErr = absErr(t, plain), absErr(t, back)
	if s.bulkPlain, err = bulkMetrics(t, plain, isOut); err != nil {
		return err
	}
	if s.bulkRot, err = bulkMetrics(t, back, isOut); err != nil {
		return err
	}
	s.outlierValues, s.outlierMaxErr = 0, 0
	for i := 0; i < t.Rows; i++ {
		for j := 0; j < t.Cols; j++ {
			if isOut(i, j) {
				s.outlierValues++
				s.outlierMaxErr = math.Max(s.outlierMaxErr, s.plainErr[i*t.Cols+j])
			}
		}
	}
	gains, err := s.computeGains(t, rot, g)
	if err != nil {
		return err
	}
	s.t, s.rotated, s.rep, s.outlierCols, s.block, s.format = t, rotated, rep, cols, block, f
	s.isOut, s.threshold, s.crop, s.gains = isOut, threshold, crop, gains
	s.before, s.after = newHist1D(t.Data, 81), newHist1D(rotated.Data, 81)
	s.key = key
	return nil
}

// computeGains runs the experiment in every format of the chart, on the
// same tensor, rotation and granularity; choosing another format of
// compareFormats costs nothing here.
func (s *hadamardScene) computeGains(t *scaling.Tensor, rot *scaling.Rotation, g scaling.Granularity) ([]formatGain, error) {
	formats := chartFormats(s.ps.str("format"))
	gk := s.ps.key("tensor", "n", "rows", "outliers", "outlier", "block", "random_signs", "granularity", "seed") + strings.Join(formats, ",")
	if gk == s.gainKey && s.gains != nil {
		return s.gains, nil
	}
	out := make([]formatGain, len(formats))
	for i, name := range formats {
		f, err := fp8.Lookup(name)
		if err != nil {
			return nil, err
		}
		rep, err := scaling.OutlierExperiment(t, f, g, rot, scaling.Options{})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out[i] = formatGain{name: name, plain: rep.Plain.SQNR, rotated: rep.Rotated.SQNR}
	}
	s.gainKey = gk
	return out, nil
}

// outlierMask says which elements count as outliers: the planted columns
// of a synthetic tensor, or, for a loaded one, the values beyond outlierRMS
// times the tensor's RMS (returned as the threshold).
func outlierMask(t *scaling.Tensor, cols []int, loaded bool) (func(i, j int) bool, float64) {
	if !loaded {
		set := map[int]bool{}
		for _, j := range cols {
			set[j] = true
		}
		return func(_, j int) bool { return set[j] }, 0
	}
	var ss float64
	for _, v := range t.Data {
		ss += float64(v) * float64(v)
	}
	th := outlierRMS * math.Sqrt(ss/float64(len(t.Data)))
	return func(i, j int) bool { return math.Abs(float64(t.At(i, j))) > th }, th
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

// bulkMetrics compares approx with orig on the elements that are not
// outliers (both set to zero there), with scaling's Compare.
func bulkMetrics(orig, approx *scaling.Tensor, isOut func(i, j int) bool) (scaling.Metrics, error) {
	o, a := orig.Clone(), approx.Clone()
	for i := 0; i < o.Rows; i++ {
		for j := 0; j < o.Cols; j++ {
			if isOut(i, j) {
				o.Set(i, j, 0)
				a.Set(i, j, 0)
			}
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
	m := map[string]string{
		"tensor":                  s.ps.str("tensor"),
		"format":                  s.format.Name(),
		"granularity":             s.ps.str("granularity"),
		"rows":                    strconv.Itoa(s.t.Rows),
		"cols":                    strconv.Itoa(s.t.Cols),
		"block":                   strconv.Itoa(s.block),
		"amax_before":             fact(float64(r.AmaxBefore)),
		"amax_after":              fact(float64(r.AmaxAfter)),
		"plain_sqnr_db":           fact(r.Plain.SQNR),
		"rotated_sqnr_db":         fact(r.Rotated.SQNR),
		"plain_bulk_sqnr_db":      fact(s.bulkPlain.SQNR),
		"rotated_bulk_sqnr_db":    fact(s.bulkRot.SQNR),
		"plain_underflow":         strconv.Itoa(r.Plain.Underflow),
		"rotated_underflow":       strconv.Itoa(r.Rotated.Underflow),
		"elements":                strconv.Itoa(r.Plain.Elements),
		"outliers":                s.ps.str("outliers"),
		"outlier_values":          strconv.Itoa(s.outlierValues),
		"outlier_plain_max_error": fact(s.outlierMaxErr),
		"compare_formats":         strings.Join(chartFormats(s.format.Name()), ","),
	}
	if s.crop != "" {
		m["crop"] = s.crop
		m["outlier_threshold"] = fact(s.threshold)
		m["source_rows"] = strconv.Itoa(s.loaded.Rows)
		m["source_cols"] = strconv.Itoa(s.loaded.Cols)
	}
	for _, g := range s.gains {
		m[g.name+".plain_sqnr_db"] = fact(g.plain)
		m[g.name+".rotated_sqnr_db"] = fact(g.rotated)
	}
	return m
}
