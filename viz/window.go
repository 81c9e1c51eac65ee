package viz

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// The range of the scale slider, in powers of two.
const (
	windowMinScale = -24
	windowMaxScale = 40
)

// Colours of the fate of a value: flushed to zero, subnormal, normal,
// clipped at max.
var (
	fateUnderflow = plot.Hex(0x8c8c8c)
	fateSubnormal = plot.SkyBlue
	fateNormal    = plot.Blue
	fateOverflow  = plot.Vermillion
)

// windowScene shows the magnitudes of a tensor against the window of
// values a format can represent, moved by a power-of-two scale.
type windowScene struct {
	sceneBase
	f      *fp8.Format
	loaded *scaling.Tensor

	tkey   string // parameters the tensor was made from
	t      *scaling.Tensor
	amax   float64
	hist   scaling.Histogram
	ptKey  string              // tensor and format the points were measured for
	points map[int]windowPoint // measurements by scale, made as they are needed
	met    windowPoint         // at the current scale

	hx, sx *plot.Axes // histogram and sweep axes of the last render
	size   image.Point
}

// windowPoint is the outcome of quantizing the tensor at one scale.
type windowPoint struct {
	k         int // scale 2^k
	sqnr      float64
	overflow  float64 // fractions of the elements
	underflow float64
	subnormal float64
}

// signedFormats are the presets a tensor can be quantized to.
func signedFormats() []string { return formatNames(func(f *fp8.Format) bool { return f.Signed() }) }

func newWindow() Scene {
	s := newScene(&windowScene{sceneBase: sceneBase{name: "window", title: "Tensor vs format window", ps: newParamSet(
		Param{Name: "format", Label: "Format", Kind: ParamChoice, Options: signedFormats(), Default: "E4M3FN",
			Help: "the element format whose window is shown"},
		Param{Name: "tensor", Label: "Tensor", Kind: ParamChoice, Options: tensorKinds, Default: "gradients",
			Help: "normal N(0,1); lognormal spread over many binades; gradients: heavy-tailed and tiny (around 2⁻¹²); loaded: a tensor from a .npy or CSV file"},
		Param{Name: "magnitude", Label: "Tensor magnitude (log₂)", Kind: ParamInt, Min: -20, Max: 20, Step: 1, Default: "0",
			Help: "multiplies the tensor by a power of two"},
		Param{Name: "scale", Label: "Scale (log₂)", Kind: ParamInt, Min: windowMinScale, Max: windowMaxScale, Step: 1, Default: "0",
			Help: "the tensor is multiplied by 2^scale before encoding: the window moves left as the scale grows; click the histogram to place max there"},
		Param{Name: "seed", Label: "Seed", Kind: ParamInt, Min: 0, Max: 1 << 20, Step: 1, Default: "1",
			Help: "seed of the synthetic tensor"},
	)}, f: fp8.E4M3FN})
	return s
}

// Set changes a parameter.
func (s *windowScene) Set(name, value string) error {
	old := s.ps.str(name)
	if _, err := s.ps.set(name, value); err != nil {
		return err
	}
	var err error
	switch name {
	case "format":
		s.f, err = fp8.Lookup(s.ps.str("format"))
	case "tensor":
		if s.ps.str("tensor") == "loaded" && s.loaded == nil {
			err = fmt.Errorf("no tensor loaded: load a .npy or CSV file first")
		}
	}
	if err != nil {
		s.ps.values[name] = old
		return fmt.Errorf("%w: %s=%q: %v", ErrParam, name, value, err)
	}
	return nil
}

// LoadTensor implements TensorLoader.
func (s *windowScene) LoadTensor(t *scaling.Tensor) error {
	if err := t.Check(); err != nil {
		return err
	}
	if !t.AllFinite() {
		return fmt.Errorf("the tensor holds NaN or ±Inf")
	}
	s.loaded = t.Clone()
	s.ps.values["tensor"] = "loaded"
	s.tkey = "" // force a rebuild even if the parameters did not change
	return nil
}

// tensor makes (or reuses) the tensor and its histogram.
func (s *windowScene) tensor() error {
	key := s.ps.key("tensor", "magnitude", "seed")
	if key == s.tkey && s.t != nil {
		return nil
	}
	var t *scaling.Tensor
	var err error
	if s.ps.str("tensor") == "loaded" {
		if s.loaded == nil {
			return fmt.Errorf("no tensor loaded")
		}
		t = scaled(s.loaded, s.ps.int("magnitude"))
	} else if t, err = makeTensor(s.ps.str("tensor"), s.ps.int("magnitude"), uint64(s.ps.int("seed"))); err != nil {
		return err
	}
	a, err := scaling.Amax(t)
	if err != nil {
		return err
	}
	h, err := scaling.Log2Histogram(t.Data, -160, 140)
	if err != nil {
		return err
	}
	s.t, s.amax, s.hist, s.tkey, s.ptKey = t, float64(a), h, key, ""
	return nil
}

// quantize measures the tensor at scale 2^k with scaling's per-tensor
// quantizer and metrics.
func (s *windowScene) quantize(k int) (windowPoint, error) {
	sc := float32(math.Exp2(float64(k)))
	q, err := scaling.QuantizeWithScales(s.t, s.f, scaling.PerTensor, []float32{sc}, scaling.Options{})
	if err != nil {
		return windowPoint{}, err
	}
	m, err := scaling.Measure(s.t, q)
	if err != nil {
		return windowPoint{}, err
	}
	n := float64(m.Elements)
	return windowPoint{k: k, sqnr: m.SQNR, overflow: float64(m.Overflow) / n, underflow: float64(m.Underflow) / n, subnormal: m.FractionSubnormal}, nil
}

// compute brings the tensor and the metrics at the current scale up to
// date.
func (s *windowScene) compute() error {
	if err := s.tensor(); err != nil {
		return err
	}
	p, err := s.at(s.ps.int("scale"))
	s.met = p
	return err
}

// at returns the measurement at scale 2^k, measuring it the first time it
// is asked for with this tensor and format.
func (s *windowScene) at(k int) (windowPoint, error) {
	if key := s.tkey + s.ps.key("format"); key != s.ptKey {
		s.points, s.ptKey = map[int]windowPoint{}, key
	}
	if p, ok := s.points[k]; ok {
		return p, nil
	}
	p, err := s.quantize(k)
	if err == nil {
		s.points[k] = p
	}
	return p, err
}

// sweep returns the measurements at every scale of the slider.
func (s *windowScene) sweep() ([]windowPoint, error) {
	out := make([]windowPoint, 0, windowMaxScale-windowMinScale+1)
	for k := windowMinScale; k <= windowMaxScale; k++ {
		p, err := s.at(k)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// currentScaleLog2 is log2 of the scale current per-tensor scaling would
// pick, Max/amax (not rounded).
func (s *windowScene) currentScaleLog2() float64 { return math.Log2(s.f.Max() / s.amax) }

// Facts implements Scene.
func (s *windowScene) Facts() map[string]string {
	if err := s.compute(); err != nil {
		return map[string]string{"error": err.Error()}
	}
	in := s.f.Info()
	sc := math.Exp2(float64(s.ps.int("scale")))
	return map[string]string{
		"format":             s.f.Name(),
		"tensor":             s.ps.str("tensor"),
		"elements":           strconv.Itoa(s.t.Len()),
		"amax":               fact(s.amax),
		"scale":              fact(sc),
		"window_low":         fact(in.MinSubnormal / sc),
		"window_high":        fact(in.Max / sc),
		"overflow_fraction":  fact(s.met.overflow),
		"underflow_fraction": fact(s.met.underflow),
		"subnormal_fraction": fact(s.met.subnormal),
		"sqnr_db":            fact(s.met.sqnr),
		"current_scale_log2": strconv.FormatFloat(s.currentScaleLog2(), 'f', 3, 64),
	}
}

// Click implements Scene.
func (s *windowScene) Click(x, y, w, h int) bool {
	if s.size != image.Pt(w, h) || s.hx == nil {
		if s.Render(canvas(w, h)) != nil {
			return false
		}
	}
	p := image.Pt(x, y)
	var k int
	switch {
	case s.hx != nil && p.In(s.hx.Plot):
		// Put the format's max where the click is.
		v := s.hx.X.Invert(float64(x))
		k = int(math.Round(math.Log2(s.f.Max() / v)))
	case s.sx != nil && p.In(s.sx.Plot):
		k = int(math.Round(s.sx.X.Invert(float64(x))))
	default:
		return false
	}
	k = min(max(k, windowMinScale), windowMaxScale)
	if k == s.ps.int("scale") {
		return false
	}
	return s.Set("scale", strconv.Itoa(k)) == nil
}

// Render implements Scene.
func (s *windowScene) render(dst *image.RGBA, d Display) error {
	title := fmt.Sprintf("Tensor vs %s window", s.f.Name())
	st, body, err := begin(dst, d, title, "histogram of |x| on a log₂ axis · the scale slides the window of representable magnitudes")
	if err != nil {
		return err
	}
	s.size = dst.Bounds().Size()
	if err := s.compute(); err != nil {
		errorPanel(dst, body, st, err.Error())
		return nil
	}
	cols, err := st.split(body, st.px(24), []float64{1.7, 1}, []float64{1.25, 1})
	if err != nil {
		return err
	}
	left, err := plot.SplitRows(cols[0], st.px(12), 1, 0.001)
	if err != nil {
		return err
	}
	cardH := st.px(92)
	if st.stacked {
		cardH = 2*cardH + st.px(12) // two rows of two cards
	}
	hist := image.Rect(left[0].Min.X, left[0].Min.Y, left[0].Max.X, cols[0].Max.Y-cardH-st.px(12))
	cards := image.Rect(cols[0].Min.X, cols[0].Max.Y-cardH, cols[0].Max.X, cols[0].Max.Y)
	if err := s.drawHistogram(dst, st, hist); err != nil {
		return err
	}
	s.drawCards(dst, st, cards)
	return s.drawSweep(dst, st, cols[1])
}

// histDomain is the x range of the histogram: the data's binades widened
// by the format's window on both sides, so that the axis stays put while
// the window slides over the data, and further where the window at this
// scale lies beyond that (scale=-24 put E2M1's at 2^23..2^27, far right of
// lognormal data ending near 2^18): the band the explanation names is
// always on the axis, with a binade to spare for its markers' labels.
func (s *windowScene) histDomain() (lo, hi int) {
	lo, hi = s.dataDomain()
	in := s.f.Info()
	k := float64(s.ps.int("scale"))
	bottom := in.MinSubnormal
	if bottom == 0 {
		bottom = in.MinNormal
	}
	lo = min(lo, int(math.Floor(math.Log2(bottom)-k))-1)
	hi = max(hi, int(math.Ceil(math.Log2(in.Max)-k))+1)
	return lo, hi
}

// dataDomain is the data's binades widened by half the format's window
// on both sides, and to 36 binades at least.
func (s *windowScene) dataDomain() (lo, hi int) {
	lo, hi = 0, 0
	first := true
	for i, c := range s.hist.Counts {
		if c > 0 {
			e := s.hist.MinExp + i
			if first {
				lo, first = e, false
			}
			hi = e + 1
		}
	}
	in := s.f.Info()
	w := int(math.Ceil(in.Binades)) / 2
	lo, hi = lo-w-2, hi+w+2
	if d := 36 - (hi - lo); d > 0 {
		lo, hi = lo-d/2, hi+d-d/2
	}
	return lo, hi
}

func (s *windowScene) drawHistogram(dst *image.RGBA, st style, r image.Rectangle) error {
	lo, hi := s.histDomain()
	xs, err := plot.NewLog2(math.Exp2(float64(lo)), math.Exp2(float64(hi)))
	if err != nil {
		return err
	}
	top := 0
	for _, c := range s.hist.Counts {
		top = max(top, c)
	}
	ys, err := plot.NewLinear(0, float64(top)*1.18+1)
	if err != nil {
		return err
	}
	leg := []plot.LegendEntry{
		{Label: "flushed to zero", Color: fateUnderflow, Kind: plot.LegendSwatch},
		{Label: "subnormal", Color: fateSubnormal, Kind: plot.LegendSwatch},
		{Label: "normal", Color: fateNormal, Kind: plot.LegendSwatch},
		{Label: "clipped to max", Color: fateOverflow, Kind: plot.LegendSwatch},
	}
	ax, err := st.axes(r, xs, ys, "", "|x| (one bar per binade)", "values", leg...)
	if err != nil {
		return err
	}
	s.hx = ax
	ax.Draw(dst)
	in := s.f.Info()
	sc := math.Exp2(float64(s.ps.int("scale")))
	// The window in input units: what lands in it after multiplying by sc.
	under, minN, maxV := in.MinSubnormal/2/sc, in.MinNormal/sc, in.Max/sc
	ax.VBand(dst, in.MinSubnormal/sc, minN, plot.WithAlpha(plot.SkyBlue, 0x30), "")
	ax.VBand(dst, minN, maxV, plot.WithAlpha(plot.Blue, 0x1c), "")
	// Bars split where a binade crosses a boundary, each part coloured by
	// what quantization does to it.
	cuts := []float64{under, minN, maxV}
	fates := []color.RGBA{fateUnderflow, fateSubnormal, fateNormal, fateOverflow}
	if in.MinSubnormal == 0 {
		cuts[0] = minN / 2
	}
	for i, c := range s.hist.Counts {
		if c == 0 {
			continue
		}
		a, b := math.Exp2(float64(s.hist.MinExp+i)), math.Exp2(float64(s.hist.MinExp+i+1))
		x0 := a
		for j := 0; j <= len(cuts); j++ {
			x1 := b
			if j < len(cuts) {
				x1 = math.Min(b, cuts[j])
			}
			if x1 > x0 {
				if err := ax.Histogram(dst, []float64{x0, x1}, []float64{float64(c)}, plot.BarStyle{Fill: fates[j], Edge: plot.Hex(0xffffff)}); err != nil {
					return err
				}
				x0 = x1
			}
		}
	}
	mk := plot.LineStyle{Color: st.th.Foreground, Width: st.pxf(1.5), Dash: []float64{st.pxf(6), st.pxf(4)}}
	inside := func(v float64) bool { return v >= math.Exp2(float64(lo)) && v <= math.Exp2(float64(hi)) }
	type marker struct {
		x     float64
		label string
		st    plot.LineStyle
	}
	marks := []marker{{s.amax, "amax", plot.LineStyle{Color: plot.ReddishPurple, Width: st.pxf(2)}}}
	if inside(maxV) {
		marks = append(marks, marker{maxV, "max ÷ scale", mk})
	}
	if v := in.MinSubnormal / sc; in.MinSubnormal > 0 && inside(v) {
		marks = append(marks, marker{v, "min subnormal ÷ scale", mk})
	}
	// Every line before any label, so that the labels keep off them all.
	for _, m := range marks {
		ax.VMarker(dst, m.x, "", m.st)
	}
	for _, m := range marks {
		ax.VMarkerLabel(dst, m.x, m.label, m.st)
	}
	_, err = ax.Legend(dst, plot.TopLeft, leg)
	return err
}

// widestEntry returns the width of the widest entry of an inline legend.
func widestEntry(entries []plot.LegendEntry, ls plot.TextStyle, th *plot.Theme) int {
	w := 0
	for _, e := range entries {
		w = max(w, plot.MeasureInlineLegend(1<<20, []plot.LegendEntry{e}, ls, th).X)
	}
	return w
}

// drawCards shows the outcome at the current scale in large type.
func (s *windowScene) drawCards(dst *image.RGBA, st style, r image.Rectangle) {
	rows, cols := 1, 4
	if st.stacked {
		rows, cols = 2, 2
	}
	cells, err := plot.GridCells(r, rows, cols, st.px(12))
	if err != nil {
		return
	}
	cards := []struct {
		label, value string
		c            color.RGBA
	}{
		{"clipped (overflow)", percent(s.met.overflow), fateOverflow},
		{"flushed to zero", percent(s.met.underflow), fateUnderflow},
		{"subnormal", percent(s.met.subnormal), fateSubnormal},
		{"SQNR", dB(s.met.sqnr), st.th.Foreground},
	}
	for i, c := range cards {
		cr := cells[i]
		plot.FillRect(dst, cr, plot.Hex(0xf5f5f5))
		plot.FillRect(dst, image.Rect(cr.Min.X, cr.Min.Y, cr.Min.X+st.px(6), cr.Max.Y), c.c)
		// A narrow card (a projector's canvas beside the controls) wraps
		// its label and shrinks its number to its width.
		w := cr.Dx() - st.px(22)
		ls := st.muted()
		textLines(dst, cr.Min.X+st.px(16), cr.Min.Y+st.px(8), plot.WrapText(c.label, w, ls), ls, 0)
		vs := st.text(30, plot.FontBold, color.RGBA{})
		for vs.Size > st.pxf(16) && plot.MeasureText(c.value, vs).Width > w {
			vs.Size = math.Max(vs.Size*0.92, st.pxf(16))
		}
		vs.VAlign = plot.AlignBottom
		plot.DrawText(dst, c.value, float64(cr.Min.X+st.px(16)), float64(cr.Max.Y-st.px(8)), vs)
	}
}

// drawSweep plots SQNR and the overflow and underflow fractions against
// the scale, with the current scale and current scaling's choice marked.
func (s *windowScene) drawSweep(dst *image.RGBA, st style, r image.Rectangle) error {
	// A strip at the bottom holds the legend of both plots, so that it
	// covers no curve.
	ls := st.text(14, plot.FontRegular, st.th.Foreground)
	th := st.th
	cur := s.currentScaleLog2()
	// The current scaling's entry names its scale where the column has
	// room for it.
	curLabel := fmt.Sprintf("current scaling (max ÷ amax = 2^%.1f)", cur)
	if plot.MeasureText(curLabel, ls).Width+st.px(40) > r.Dx() {
		curLabel = fmt.Sprintf("current scaling, 2^%.1f", cur)
	}
	legend := []plot.LegendEntry{
		{Label: "this scale", Width: st.pxf(2)},
		{Label: curLabel, Color: plot.ReddishPurple, Width: st.pxf(1.5), Dash: []float64{st.pxf(5), st.pxf(4)}},
		{Label: "clipped", Color: fateOverflow, Width: st.pxf(2.5)},
		{Label: "flushed to zero", Color: fateUnderflow, Width: st.pxf(2.5)},
	}
	// The legend starts at the plots' left edge, right of the y axis: measure
	// it a little narrower than the column so every line it wraps to fits.
	legH := plot.MeasureInlineLegend(r.Dx()*4/5, legend, ls, &th).Y + st.px(12)
	// The lower plot holds the shared x axis's tick labels and label too.
	rows, err := plot.SplitRows(image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Max.Y-legH), st.px(14), 1, 1.35)
	if err != nil {
		return err
	}
	sweep, err := s.sweep()
	if err != nil {
		return err
	}
	ks := make([]float64, len(sweep))
	sq := make([]float64, len(sweep))
	ov := make([]float64, len(sweep))
	un := make([]float64, len(sweep))
	top := 10.0
	for i, p := range sweep {
		ks[i], sq[i], ov[i], un[i] = float64(p.k), p.sqnr, 100*p.overflow, 100*p.underflow
		if !math.IsInf(p.sqnr, 0) && !math.IsNaN(p.sqnr) {
			top = math.Max(top, p.sqnr)
		}
	}
	xs, err := plot.NewLinear(windowMinScale, windowMaxScale)
	if err != nil {
		return err
	}
	ys, err := plot.NewLinear(math.Min(0, minFinite(sq)), math.Ceil(top/10)*10+5)
	if err != nil {
		return err
	}
	ys2, err := plot.NewLinear(0, 100)
	if err != nil {
		return err
	}
	// A short column (the desktop app's) drops the plots' titles: the
	// axis labels and the legend say what they show.
	titles := []string{"SQNR at every scale", "Clipped and flushed"}
	if r.Dy() < st.px(400) {
		titles = []string{"", ""}
	}
	axes, err := alignedAxes(rows,
		func(r image.Rectangle) (*plot.Axes, error) {
			return st.sharedAxes(r, xs, ys, titles[0], "SQNR (dB)")
		},
		func(r image.Rectangle) (*plot.Axes, error) {
			return st.axes(r, xs, ys2, titles[1], "log₂ scale", "% of values")
		})
	if err != nil {
		return err
	}
	k := float64(s.ps.int("scale"))
	for i, ax := range axes {
		ax.Draw(dst)
		ax.VMarker(dst, cur, "", plot.LineStyle{Color: plot.ReddishPurple, Width: st.pxf(1.5), Dash: []float64{st.pxf(5), st.pxf(4)}})
		if i == 0 {
			if err := ax.Line(dst, ks, sq, plot.LineStyle{Color: plot.Blue, Width: st.pxf(2.5)}); err != nil {
				return err
			}
		} else {
			if err := ax.Line(dst, ks, ov, plot.LineStyle{Color: fateOverflow, Width: st.pxf(2.5)}); err != nil {
				return err
			}
			if err := ax.Line(dst, ks, un, plot.LineStyle{Color: fateUnderflow, Width: st.pxf(2.5)}); err != nil {
				return err
			}
		}
		ax.VMarker(dst, k, "", plot.LineStyle{Color: st.th.Foreground, Width: st.pxf(2)})
	}
	s.sx = axes[0]
	// Right of the y axis when it fits there in the lines measured, else
	// from the column's left edge (a phone, where the longest entry is
	// wider than the plot).
	x := axes[1].Plot.Min.X
	if plot.MeasureInlineLegend(r.Max.X-x, legend, ls, &th).Y+st.px(12) > legH || widestEntry(legend, ls, &th) > r.Max.X-x {
		x = r.Min.X
	}
	plot.DrawInlineLegend(dst, x, r.Max.Y-legH+st.px(6), r.Max.X-x, legend, ls, &th)
	return nil
}

// minFinite returns the smallest finite value of xs (0 if none).
func minFinite(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			m = math.Min(m, x)
		}
	}
	return m
}
