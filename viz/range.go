package viz

import (
	"fmt"
	"image"
	"math"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// defaultRangeFormats are the formats the range scene compares by default.
const defaultRangeFormats = "E4M3FN,E5M2,E4M3FNUZ,E2M1,E3M2,FP16,BF16"

// formatData is what the range scene needs of one format: every positive
// finite value and the summary, for minifloats and the 16-bit formats alike.
type formatData struct {
	name   string
	info   fp8.Info
	values []float64 // positive finite, ascending
	// threshold is where overflow begins under round to nearest, ties to
	// even: inputs above it overflow, and it does itself when inclusive
	// (the tie halfway to the step beyond max goes to that even step).
	threshold float64
	inclusive bool
}

// lookupAny finds a minifloat preset or FP16/BF16 by name.
func lookupAny(name string) (*formatData, error) {
	var fd *formatData
	var overflows func(float64) bool // under round to nearest even, from the codec
	f, w, err := fp8.LookupAny(name)
	switch {
	case err != nil:
		return nil, err
	case w != nil:
		fd = &formatData{name: w.Name(), info: w.Info(), values: w.PositiveFinite()}
		overflows = wideOverflows(w)
	default:
		fd = &formatData{name: f.Name(), info: f.Info(), values: f.PositiveFinite()}
		overflows = func(x float64) bool { return f.Overflows(x, fp8.Mode{Round: fp8.NearestEven}) }
	}
	// Overflow begins halfway to the step beyond max, the step a wider
	// exponent would give: max + ULP(max) with ULP(max) = 2^(⌊log₂ max⌋ − mantissa bits).
	_, e := math.Frexp(fd.info.Max)
	fd.threshold = fd.info.Max + math.Ldexp(1, e-1-fd.info.ManBits)/2
	fd.inclusive = overflows(fd.threshold)
	if overflows(math.Nextafter(fd.threshold, 0)) || !overflows(math.Nextafter(fd.threshold, math.Inf(1))) {
		return nil, fmt.Errorf("viz: %s: the codec does not overflow at %g", fd.name, fd.threshold)
	}
	return fd, nil
}

// wideOverflows reports whether x rounds past w's max, to nearest even:
// the non-saturating encoder then gives infinity.
func wideOverflows(w *fp8.Wide) func(float64) bool {
	return func(x float64) bool {
		c, err := w.EncodeMode(x, fp8.Mode{Round: fp8.NearestEven, Overflow: fp8.NoSaturate}, 0)
		return err == nil && math.IsInf(float64(w.Decode(c)), 0)
	}
}

// thresholdText says where a format overflows: "> 464" or "≥ 61440".
func (f *formatData) thresholdText() string {
	if f.inclusive {
		return "≥ " + short(f.threshold)
	}
	return "> " + short(f.threshold)
}

// rangeScene puts the positive values of several formats on one log2 axis,
// with the relative spacing of neighbouring values below.
type rangeScene struct {
	sceneBase
	formats []*formatData
	maxX    map[string]float64 // pixel x of each format's max in the last render
	minX    map[string]float64
	lanes   []image.Rectangle // lane of each format in the last render
	// The last render's markers and lane labels, and the labels left out
	// for want of room ("format: text").
	marks, labels []image.Rectangle
	unlabelled    []string
	legend        image.Rectangle // the legend's box in the last render
	plots         image.Rectangle // the area of both plots in the last render
	size          image.Point

	curveKey string // parameters the saw-tooth curves were computed for
	curveSet []spacingCurve
}

func newRange() Scene {
	s := newScene(&rangeScene{sceneBase: sceneBase{name: "range", title: "Range and precision", ps: newParamSet(
		Param{Name: "formats", Label: "Formats", Kind: ParamText, Default: defaultRangeFormats,
			Help: "comma-separated format names: any fp8 preset, FP16, BF16"},
		Param{Name: "span", Label: "Axis", Kind: ParamChoice, Options: []string{"fp8", "all"}, Default: "fp8",
			Help: "all: every format's whole range; fp8: zoom on 2⁻¹⁸..2¹⁸, where the 8-bit formats live"},
		Param{Name: "spacing", Label: "Spacing", Kind: ParamChoice, Options: []string{"relative", "absolute"}, Default: "relative",
			Help: "relative: ULP/|x|, the precision; absolute: the ULP itself"},
		Param{Name: "focus", Label: "Focus", Kind: ParamChoice, Options: []string{"none"}, Default: "none",
			Help: "draw one format on top of the others, the rest faded; click a lane to focus it"},
	)}})
	s.ps.text["formats"] = func(v string) (string, error) {
		var names []string
		for _, n := range strings.Split(v, ",") {
			if strings.TrimSpace(n) == "" {
				continue
			}
			fd, err := lookupAny(n)
			if err != nil {
				return "", err
			}
			names = append(names, fd.name)
		}
		if len(names) == 0 || len(names) > 8 {
			return "", fmt.Errorf("want 1 to 8 formats")
		}
		return strings.Join(names, ","), nil
	}
	_ = s.load()
	return s
}

func (s *rangeScene) load() error {
	var out []*formatData
	for _, n := range strings.Split(s.ps.str("formats"), ",") {
		fd, err := lookupAny(n)
		if err != nil {
			return err
		}
		out = append(out, fd)
	}
	s.formats = out
	// The focus choices are the formats shown.
	for i := range s.ps.specs {
		if p := &s.ps.specs[i]; p.Name == "focus" {
			p.Options = []string{"none"}
			for _, f := range out {
				p.Options = append(p.Options, f.name)
			}
		}
	}
	if s.focus() < 0 {
		s.ps.values["focus"] = "none"
	}
	return nil
}

// Set implements Scene.
func (s *rangeScene) Set(name, value string) error {
	old := s.ps.str(name)
	if _, err := s.ps.set(name, value); err != nil {
		return err
	}
	if name == "formats" {
		if err := s.load(); err != nil {
			s.ps.values[name] = old
			_ = s.load()
			return fmt.Errorf("%w: %v", ErrParam, err)
		}
	}
	return nil
}

// focus returns the index of the focused format, or -1.
func (s *rangeScene) focus() int {
	for i, f := range s.formats {
		if f.name == s.ps.str("focus") {
			return i
		}
	}
	return -1
}

// Click implements Scene.
func (s *rangeScene) Click(x, y, w, h int) bool {
	if s.size != image.Pt(w, h) {
		if s.Render(canvas(w, h)) != nil {
			return false
		}
	}
	for i, r := range s.lanes {
		if image.Pt(x, y).In(r) {
			v := s.formats[i].name
			if s.ps.str("focus") == v {
				v = "none"
			}
			return s.Set("focus", v) == nil
		}
	}
	return false
}

// Facts implements Scene.
func (s *rangeScene) Facts() map[string]string {
	m := map[string]string{"formats": s.ps.str("formats")}
	for _, f := range s.formats {
		m[f.name+".max"] = exact(f.info.Max)
		m[f.name+".min_normal"] = exact(f.info.MinNormal)
		m[f.name+".min_subnormal"] = exact(f.info.MinSubnormal)
		m[f.name+".positive_values"] = strconv.Itoa(f.info.PositiveFinite)
		m[f.name+".binades"] = strconv.FormatFloat(f.info.Binades, 'f', 1, 64)
		m[f.name+".eps"] = exact(f.info.Eps)
		m[f.name+".overflow_threshold"] = exact(f.threshold)
		m[f.name+".overflow_inclusive"] = strconv.FormatBool(f.inclusive)
		if x, ok := s.maxX[f.name]; ok {
			m[f.name+".max_x"] = strconv.FormatFloat(x, 'f', 1, 64)
		}
		if x, ok := s.minX[f.name]; ok {
			m[f.name+".min_subnormal_x"] = strconv.FormatFloat(x, 'f', 1, 64)
		}
	}
	return m
}

// smallest is a format's smallest positive value.
func (f *formatData) smallest() float64 {
	if f.info.MinSubnormal > 0 {
		return f.info.MinSubnormal
	}
	return f.info.MinNormal
}

// xDomain returns the log2 axis range, whole binades around every format.
func (s *rangeScene) xDomain() (lo, hi float64) {
	if s.ps.str("span") == "fp8" {
		return math.Exp2(-18), math.Exp2(18)
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, f := range s.formats {
		lo, hi = math.Min(lo, f.smallest()), math.Max(hi, f.info.Max)
	}
	return math.Exp2(math.Floor(math.Log2(lo)) - 1), math.Exp2(math.Ceil(math.Log2(hi)) + 1)
}

// Render implements Scene.
func (s *rangeScene) render(dst *image.RGBA, d Display) error {
	var names []string
	for _, f := range s.formats {
		names = append(names, f.name)
	}
	// The subtitle names the formats when it fits beside the title (the
	// legend names them too).
	sub := "every positive value on one log₂ axis"
	if dst != nil && !dst.Bounds().Empty() {
		b := dst.Bounds()
		th := newStyle(b.Dx(), b.Dy(), d).th
		long := sub + " · " + strings.Join(names, ", ")
		w := plot.MeasureText(s.Title(), plot.TextStyle{Font: plot.FontBold, Size: th.TitleSize * 1.2}).Width +
			plot.MeasureText(long, plot.TextStyle{Size: th.LabelSize}).Width
		if float64(w) < float64(b.Dx())-6*th.LabelSize {
			sub = long
		}
	}
	st, body, err := begin(dst, d, s.Title(), sub)
	if err != nil {
		return err
	}
	s.size = dst.Bounds().Size()
	// One legend, the formats' colours and the marks, in a column on the
	// right of both plots (which keeps their x axes aligned).
	th := st.th
	leg := make([]plot.LegendEntry, 0, len(s.formats)+4)
	for i, f := range s.formats {
		leg = append(leg, plot.LegendEntry{Label: f.name, Color: plot.Categorical(i), Width: st.pxf(3)})
	}
	leg = append(leg,
		plot.LegendEntry{Label: "min subnormal", Kind: plot.LegendMarker, Marker: plot.MarkerTriangleUp, Color: st.th.MutedText},
		plot.LegendEntry{Label: "min normal", Kind: plot.LegendMarker, Marker: plot.MarkerCircle, Color: st.th.MutedText},
		plot.LegendEntry{Label: "max", Kind: plot.LegendMarker, Marker: plot.MarkerDiamond, Color: st.th.MutedText},
		plot.LegendEntry{Label: "overflows", Kind: plot.LegendSwatch, Color: overflowTint})
	// On a phone (stacked) the legend goes above the plots, in rows as
	// wide as the picture, and the plots keep the whole width.
	var groups [][]plot.LegendEntry
	plots := body
	if st.stacked {
		ls := plot.TextStyle{Size: st.th.LabelSize, Color: st.th.Foreground}
		plots.Min.Y += plot.MeasureInlineLegend(body.Dx(), leg, ls, &th).Y + st.px(14)
	} else {
		var err error
		if groups, plots, err = s.legendColumns(body, leg, &th); err != nil {
			return err
		}
	}
	// Short pictures drop the plot titles and give the lanes more room,
	// so that every lane keeps its label.
	lanesWeight, spacingWeight, short := 1.0, 1.05, body.Dy() < st.px(480)
	// Each lane needs its label's height plus the axis' spacing between
	// labels, and a label's height more for the axis (whose tick
	// labels the spacing plot below draws); the spacing plot needs three
	// y tick labels, its x tick labels, its x label and its title.
	th1 := float64(plot.MeasureText("Xg", plot.TextStyle{Size: st.th.TickSize}).Height())
	want, least := float64(len(s.formats))*(th1+st.pxf(6))+th1, 9*th1 // lanes, and the spacing plot's least height
	if st.stacked {
		// A phone's lanes are too narrow for labels beside the markers:
		// they get two rows of labels below them.
		want = float64(len(s.formats))*laneTwoRows(st) + th1
	}
	if short {
		least = 7.5 * th1
	} else {
		want += 2 * th1 // the title
	}
	if avail := float64(plots.Dy() - st.px(12)); want > avail/2.05 {
		want = math.Min(want, avail-least)
		lanesWeight, spacingWeight = want, avail-want
	}
	rows, err := plot.SplitRows(plots, st.px(12), lanesWeight, spacingWeight)
	if err != nil {
		return err
	}
	lo, hi := s.xDomain()
	curves, ylo, yhi := s.curves(lo, hi)
	axes, err := alignedAxes(rows,
		func(r image.Rectangle) (*plot.Axes, error) { return s.lanesAxes(st, r, lo, hi, short) },
		func(r image.Rectangle) (*plot.Axes, error) { return s.spacingAxes(st, r, lo, hi, ylo, yhi, short) })
	if err != nil {
		return err
	}
	s.drawLanes(dst, st, axes[0])
	if err := s.drawSpacing(dst, st, axes[1], curves); err != nil {
		return err
	}
	s.plots, s.legend = plots, image.Rectangle{}
	if st.stacked {
		ls := plot.TextStyle{Size: st.th.LabelSize, Color: st.th.Foreground}
		s.legend = plot.DrawInlineLegend(dst, body.Min.X, body.Min.Y, body.Dx(), leg, ls, &th)
		return nil
	}
	area := image.Rect(plots.Max.X, body.Min.Y, body.Max.X, body.Max.Y)
	for _, g := range groups {
		box, err := plot.DrawLegend(dst, area, plot.TopLeft, g, &th)
		if err != nil {
			return err
		}
		s.legend = s.legend.Union(box)
		area.Min.X = box.Max.X
	}
	return nil
}

// legendColumns places the legend in a column on the right of body, as
// wide as its longest label (measured by drawing it once off screen), or
// in two columns, the formats then the marks, when one would be too tall;
// it returns the legend's columns and the room left for the plots.
func (s *rangeScene) legendColumns(body image.Rectangle, leg []plot.LegendEntry, th *plot.Theme) ([][]plot.LegendEntry, image.Rectangle, error) {
	groups := [][]plot.LegendEntry{leg}
	legW := 0
	for try := 0; try < 2; try++ {
		legW = 0
		tall := false
		for _, g := range groups {
			box, err := plot.DrawLegend(image.NewRGBA(body), body, plot.TopRight, g, th)
			if err != nil {
				return nil, image.Rectangle{}, err
			}
			legW += box.Dx() + 2*(body.Max.X-box.Max.X)
			tall = tall || box.Dy()+2*(box.Min.Y-body.Min.Y) > body.Dy()
		}
		if !tall {
			break
		}
		groups = [][]plot.LegendEntry{leg[:len(s.formats)], leg[len(s.formats):]}
	}
	return groups, image.Rect(body.Min.X, body.Min.Y, body.Max.X-legW, body.Max.Y), nil
}

// overflowTint shades, in each lane, the magnitudes that overflow.
var overflowTint = plot.WithAlpha(plot.Vermillion, 0x2a)

// lanesAxes makes the axes of the value lanes: log2 x, one band per format.
func (s *rangeScene) lanesAxes(st style, r image.Rectangle, lo, hi float64, short bool) (*plot.Axes, error) {
	// Band 0 is drawn at the bottom: list the formats bottom-up so that the
	// first one gets the top lane.
	n := len(s.formats)
	names := make([]string, n)
	for i, f := range s.formats {
		names[n-1-i] = f.name
	}
	xs, err := plot.NewLog2(lo, hi)
	if err != nil {
		return nil, err
	}
	band, err := plot.NewBand(names)
	if err != nil {
		return nil, err
	}
	title := "Representable positive values"
	if short {
		title = ""
	}
	// The spacing plot below shares the |x| axis and labels it.
	return st.sharedAxes(r, xs, band, title, "")
}

// sawtooth returns the points of ULP(x)/|x| (or ULP(x)) for x from the
// smallest positive value to max: between neighbours a < b the spacing is
// b-a, so the curve falls as 1/x inside a binade and jumps up where the
// spacing doubles.
func sawtooth(vals []float64, relative bool) (xs, ys []float64) {
	for i := 0; i+1 < len(vals); i++ {
		a, b := vals[i], vals[i+1]
		d := b - a
		ya, yb := d, d
		if relative {
			ya, yb = d/a, d/b
		}
		// Merge runs of equal spacing: only where the spacing changes,
		// and at the ends, do points matter.
		if i > 0 && d == vals[i]-vals[i-1] {
			xs[len(xs)-1], ys[len(ys)-1] = b, yb
			continue
		}
		xs, ys = append(xs, a, b), append(ys, ya, yb)
	}
	return xs, ys
}

// spacingCurve is the saw-tooth of one format.
type spacingCurve struct{ xs, ys []float64 }

// curves computes every format's saw-tooth and the binade-aligned y range
// of the parts inside [lo, hi].
func (s *rangeScene) curves(lo, hi float64) ([]spacingCurve, float64, float64) {
	relative := s.ps.str("spacing") == "relative"
	if key := s.ps.key("formats", "spacing"); key != s.curveKey {
		s.curveSet = make([]spacingCurve, len(s.formats))
		for i, f := range s.formats {
			xs, ys := sawtooth(f.values, relative)
			s.curveSet[i] = spacingCurve{xs, ys}
		}
		s.curveKey = key
	}
	curves := s.curveSet
	ylo, yhi := math.Inf(1), math.Inf(-1)
	for _, c := range curves {
		xs, ys := c.xs, c.ys
		for j, y := range ys {
			if xs[j] >= lo && xs[j] <= hi && y > 0 {
				ylo, yhi = math.Min(ylo, y), math.Max(yhi, y)
			}
		}
	}
	if math.IsInf(ylo, 0) {
		ylo, yhi = 1, 2
	}
	ylo, yhi = math.Exp2(math.Floor(math.Log2(ylo))), math.Exp2(math.Ceil(math.Log2(yhi)))
	if ylo == yhi {
		yhi *= 2
	}
	return curves, ylo, yhi
}

// spacingAxes makes the axes of the spacing plot: log2 on both sides.
func (s *rangeScene) spacingAxes(st style, r image.Rectangle, lo, hi, ylo, yhi float64, short bool) (*plot.Axes, error) {
	xs, err := plot.NewLog2(lo, hi)
	if err != nil {
		return nil, err
	}
	ys, err := plot.NewLog2(ylo, yhi)
	if err != nil {
		return nil, err
	}
	title, ylabel := "Relative spacing: the gap to the next value, divided by the value", "ULP / |x|"
	if s.ps.str("spacing") != "relative" {
		title, ylabel = "Absolute spacing: the gap to the next value", "ULP"
	}
	if short {
		title = ""
	}
	return st.axes(r, xs, ys, title, "|x|", ylabel)
}

// drawSpacing draws the saw-tooth of every format, the focused one on top.
func (s *rangeScene) drawSpacing(dst *image.RGBA, st style, ax *plot.Axes, curves []spacingCurve) error {
	ax.Draw(dst)
	focus := s.focus()
	for i := range s.formats {
		if i == focus {
			continue
		}
		col := plot.Categorical(i)
		w := st.pxf(2)
		if focus >= 0 {
			col, w = plot.Mix(col, plot.Hex(0xffffff), 0.6), st.pxf(1.5)
		}
		if err := ax.Line(dst, curves[i].xs, curves[i].ys, plot.LineStyle{Color: col, Width: w}); err != nil {
			return err
		}
	}
	if focus >= 0 {
		return ax.Line(dst, curves[focus].xs, curves[focus].ys, plot.LineStyle{Color: plot.Categorical(focus), Width: st.pxf(3)})
	}
	return nil
}
