package viz

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"sort"
	"strconv"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/viz/claim"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// Colours of the bit fields and of the code classes, from the Okabe–Ito
// palette so that they stay apart for colour-blind viewers.
var (
	signColor     = plot.Vermillion
	exponentColor = plot.Blue
	mantissaColor = plot.BluishGreen
	classColors   = map[fp8.Class]color.RGBA{
		fp8.ClassZero:      plot.Yellow,
		fp8.ClassSubnormal: plot.SkyBlue,
		fp8.ClassNormal:    plot.Hex(0xc6ddef),
		fp8.ClassMax:       plot.Orange,
		fp8.ClassInf:       plot.ReddishPurple,
		fp8.ClassNaN:       plot.Hex(0x555555),
	}
)

// explorer shows one code of a format: its bits coloured by field, the
// decoded value, ULP and neighbours, every code of the format in a grid
// coloured by class, and where a typed real number rounds.
type explorer struct {
	sceneBase
	f       *fp8.Format
	explain *fp8.Explanation // the typed value's rounding, nil when none
	// valueProblem says why the typed value is not used: another control
	// (the format) changed to one that cannot hold it. It belongs to the
	// value control and goes when either changes to something that fits.
	valueProblem *inputProblem
	edge         overflowEdge   // the overflow boundary in the current mode
	edgeOK       bool           // edge was computed (the mode suits the format)
	last         explorerLayout // where the last render put the clickable parts
	size         image.Point    // size of the last render
	dropped      int            // lines of text the last render left out for want of room
}

func newExplorer() Scene {
	s := newScene(&explorer{sceneBase: sceneBase{name: "explorer", title: "Format explorer", ps: newParamSet(
		Param{Name: "format", Label: "Format", Kind: ParamChoice, Options: formatNames(nil), Default: "E4M3FN",
			Help: "the minifloat whose codes are shown"},
		Param{Name: "code", Label: "Code", Kind: ParamInt, Min: 0, Max: 255, Step: 1, Default: "126",
			Help: codeHelp(126)},
		Param{Name: "value", Label: "Round a number", Kind: ParamText, Default: "",
			Help: "type a real number (e.g. 300, 1e-3, -0.1, 0x1p-9, 2^-9): shows where it rounds and the error, and selects that code"},
		Param{Name: "rounding", Label: "Rounding", Kind: ParamChoice, Options: []string{"nearest", "zero", "away"}, Default: "nearest",
			Help: "nearest (ties to even), toward zero, or away from zero"},
		Param{Name: "overflow", Label: "Overflow", Kind: ParamChoice, Options: []string{"saturate", "saturate-keep-inf", "no-saturate"}, Default: "saturate",
			Help: "what a value beyond max becomes: ±max, ±max but Inf stays Inf, or Inf/NaN as OCP's non-saturating mode"},
	)}, f: fp8.E4M3FN})
	_ = s.update("")
	s.ps.text["value"] = func(v string) (string, error) {
		if v == "" {
			return "", nil
		}
		if _, err := parseReal(v); err != nil {
			return "", err
		}
		return v, nil
	}
	return s
}

// Params implements Scene. The code's help names the current code.
func (s *explorer) Params() []Param {
	ps := s.ps.Params()
	for i := range ps {
		if ps[i].Name == "code" {
			ps[i].Help = codeHelp(s.ps.int("code"))
		}
	}
	return ps
}

// codeHelp is the help of the code control for code c.
func codeHelp(c int) string {
	return fmt.Sprintf("the selected code (0x%02X = %d); click a bit to flip it or a cell of the grid to select it", c, c)
}

// parseReal reads a number in fp8's one grammar (fp8.ParseText): decimal
// and hex text are kept exact enough to round once into any format, and
// "-nan" keeps its sign, as on the command line.
func parseReal(v string) (float64, error) {
	x, err := fp8.ParseText(v)
	if err != nil {
		return 0, fmt.Errorf("not a number: write e.g. 300, -1.5e-3, 0x1p-9 or 2^-9")
	}
	return x, nil
}

func (s *explorer) mode() fp8.Mode {
	r, _ := fp8.ParseRounding(s.ps.str("rounding"))
	m := fp8.Mode{Round: r}
	switch s.ps.str("overflow") {
	case "saturate-keep-inf":
		m.Overflow = fp8.SaturateKeepInf
	case "no-saturate":
		m.Overflow = fp8.NoSaturate
	}
	return m
}

// inputProblem is a typed value that the format cannot hold, with the
// property the format lacks.
type inputProblem struct {
	input      string
	lacks      claim.Property
	lacksWords string // "no sign bit"
}

// problemOf names the property of f whose absence made err, or nil when
// err is not about a property of the format.
func problemOf(input string, err error) *inputProblem {
	for _, p := range []struct {
		err   error
		lacks claim.Property
		words string
	}{
		{fp8.ErrNegative, claim.SignBit, "no sign bit"},
		{fp8.ErrZero, claim.Zero, "no zero"},
		{fp8.ErrNaN, claim.NaN, "no NaN"},
	} {
		if errors.Is(err, p.err) {
			return &inputProblem{input: input, lacks: p.lacks, lacksWords: p.words}
		}
	}
	return nil
}

// Problems implements ParamProblems: a typed value that the chosen format
// cannot hold is the value control's problem, not the format's.
func (s *explorer) Problems() map[string]string {
	if p := s.valueProblem; p != nil {
		return map[string]string{"value": fmt.Sprintf("%s cannot hold %s: it has %s", s.f.Name(), p.input, p.lacksWords)}
	}
	return nil
}

// Set changes a parameter. Setting value selects the code it rounds to;
// setting code (or clicking) clears value; a format change keeps the low
// bits of the code that fit the new width. A format that cannot hold the
// typed value is taken, and the value waits as a problem of its own
// control (Problems); typing a value the format cannot hold is refused.
func (s *explorer) Set(name, value string) error {
	old := map[string]string{}
	for k, v := range s.ps.values {
		old[k] = v
	}
	oldF := s.f
	if _, err := s.ps.set(name, value); err != nil {
		return err
	}
	if err := s.update(name); err != nil {
		s.ps.values, s.f = old, oldF
		s.update("")
		return fmt.Errorf("%w: %s=%q: %v", ErrParam, name, value, err)
	}
	return nil
}

// update recomputes the derived state after parameter name changed.
func (s *explorer) update(name string) error {
	f, err := fp8.Lookup(s.ps.str("format"))
	if err != nil {
		return err
	}
	s.f = f
	code := s.ps.int("code") & (f.NumCodes() - 1)
	s.ps.values["code"] = strconv.Itoa(code)
	if name == "code" {
		s.ps.values["value"] = ""
	}
	s.explain, s.valueProblem = nil, nil
	s.edge, err = edgeOf(f, s.mode())
	s.edgeOK = err == nil
	if v := s.ps.str("value"); v != "" {
		x, err := parseReal(v)
		if err != nil {
			return err
		}
		ex, err := f.Explain(x, s.mode())
		if p := problemOf(v, err); p != nil && name != "value" {
			s.valueProblem = p
			return nil
		}
		if err != nil {
			return err
		}
		s.explain = &ex
		s.ps.values["code"] = strconv.Itoa(int(ex.Result.Code))
	}
	return nil
}

func (s *explorer) code() uint8 { return uint8(s.ps.int("code")) }

// neighbour describes the next representable value below or above a code.
type neighbour struct {
	ok    bool
	value float64
	code  uint8
	note  string // why there is none
}

// neighbours returns the representable values just below and above code c,
// in value order over all codes (±Inf included where the format has them).
func neighbours(f *fp8.Format, c uint8) (lo, hi neighbour) {
	v := f.Decode(c)
	if math.IsNaN(v) {
		return neighbour{note: "NaN has no neighbours"}, neighbour{note: "NaN has no neighbours"}
	}
	type cv struct {
		c uint8
		v float64
	}
	var all []cv
	seen := map[float64]bool{}
	for _, k := range f.Codes() {
		x := f.Decode(k)
		if math.IsNaN(x) || (seen[x] && x != 0) {
			continue
		}
		if x == 0 && seen[0] {
			continue
		}
		seen[x] = true
		all = append(all, cv{k, x})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].v < all[j].v })
	i := sort.Search(len(all), func(i int) bool { return all[i].v >= v })
	if i > 0 {
		lo = neighbour{ok: true, value: all[i-1].v, code: all[i-1].c}
	} else {
		lo.note = "none below"
	}
	if i+1 < len(all) {
		hi = neighbour{ok: true, value: all[i+1].v, code: all[i+1].c}
	} else {
		hi.note = "none above"
	}
	// At ±max the next code up in magnitude may be a NaN (E4M3FN's 0x7F).
	nan := func(n *neighbour) {
		if k := c + 1; f.Valid(k) && f.IsNaN(k) && k&0x7f != 0 {
			n.note = fmt.Sprintf("none (0x%02X is NaN)", k)
		}
	}
	if !hi.ok && v > 0 {
		nan(&hi)
	}
	if !lo.ok && v < 0 {
		nan(&lo)
	}
	return lo, hi
}

// Facts implements Scene.
func (s *explorer) Facts() map[string]string {
	f, c := s.f, s.code()
	in := f.Info()
	ci, _ := f.Describe(c)
	lo, hi := neighbours(f, c)
	m := map[string]string{
		"format":         f.Name(),
		"code":           fmt.Sprintf("0x%02X", c),
		"bits":           ci.Bits,
		"sign":           strconv.Itoa(ci.Sign),
		"exponent_field": strconv.Itoa(ci.Exponent),
		"mantissa_field": strconv.Itoa(ci.Mantissa),
		"power":          strconv.Itoa(ci.Power),
		"value":          ci.Value.String(),
		"class":          ci.Class.String(),
		"ulp":            ci.ULP.String(),
		"max":            exact(in.Max),
		"min_normal":     exact(in.MinNormal),
		"min_subnormal":  exact(in.MinSubnormal),
		"bias":           strconv.Itoa(in.Bias),
		"has_inf":        strconv.FormatBool(s.f.HasInf()),
	}
	if lo.ok {
		m["lower"], m["lower_code"] = exact(lo.value), fmt.Sprintf("0x%02X", lo.code)
	}
	if hi.ok {
		m["upper"], m["upper_code"] = exact(hi.value), fmt.Sprintf("0x%02X", hi.code)
	}
	if s.edgeOK {
		edgeFacts(m, s.edge)
	}
	if ex := s.explain; ex != nil {
		m["input"] = ex.Input.String()
		m["result"] = ex.Result.Value.String()
		m["result_code"] = fmt.Sprintf("0x%02X", ex.Result.Code)
		m["abs_error"] = ex.AbsError.String()
		m["rel_error"] = ex.RelError.String()
		lo, hi := s.bracket(*ex)
		m["bracket_lower"], m["bracket_upper"] = exact(lo), exact(hi)
		if math.IsNaN(lo) || math.IsNaN(hi) {
			delete(m, "bracket_lower")
			delete(m, "bracket_upper")
			m["beyond_next_step"] = "true"
		}
		m["overflow"] = strconv.FormatBool(ex.Overflow)
		m["underflow"] = strconv.FormatBool(ex.Underflow)
		m["mode"] = ex.Mode
	}
	return m
}

// bracket returns the values around a typed input as the picture shows
// them: beyond max the upper one is the step that has no code (480 for
// E4M3FN), never the "+Inf" that stands for "none" in fp8.Explanation.
func (s *explorer) bracket(ex fp8.Explanation) (lo, hi float64) {
	lo, hi = float64(ex.Lower), float64(ex.Upper)
	x := float64(ex.Input)
	if s.edgeOK && !math.IsNaN(x) && math.Abs(x) > s.edge.max {
		// Beyond that step no value brackets it: NaN says "none".
		lo, hi = s.edge.max, s.edge.next
		if math.Abs(x) > s.edge.next {
			hi = math.NaN()
		}
		if x < 0 {
			lo, hi = -hi, -lo
		}
	}
	return lo, hi
}

// explorerLayout is where the clickable parts of the picture lie.
type explorerLayout struct {
	left, right image.Rectangle
	bits        []image.Rectangle // bits[i] is bit Bits()-1-i (most significant first)
	grid        []image.Rectangle // grid[c] is code c
	gridCols    int
	info, line  image.Rectangle // text block and number line
}

func (s *explorer) layout(st style, body image.Rectangle) explorerLayout {
	var L explorerLayout
	// A phone's column of parts gives the text more height: its lines wrap.
	cols, err := st.split(body, st.px(28), []float64{1.25, 1}, []float64{1.7, 1})
	if err != nil {
		return L
	}
	L.left, L.right = cols[0], cols[1]
	if !st.stacked {
		// The grid's cells are square: where the column is too narrow for
		// the cells the height allows (a tall picture, a 1920×1080
		// screen), it widens, as long as the bits and the text keep
		// st.px(560).
		gc := 1 << ((s.f.Bits() + 1) / 2)
		gr := s.f.NumCodes() / gc
		entries, ls := s.gridLegend(st)
		legend := max(st.px(58), plot.MeasureInlineLegend(L.right.Dx()-st.px(8), entries, ls, &st.th).Y+st.px(16))
		byHeight := (L.right.Dy() - st.px(52) - legend) / gr
		if want := st.px(46) + gc*byHeight + st.px(8); want > L.right.Dx() {
			w := min(want, body.Dx()-st.px(28)-st.px(560))
			if w > L.right.Dx() {
				L.left.Max.X = body.Max.X - w - st.px(28)
				L.right.Min.X = body.Max.X - w
			}
		}
	}
	// Bit cells: one row, fields separated by a wider gap.
	n := s.f.Bits()
	sp := s.f.Spec()
	gapIn, gapField := st.px(4), st.px(14)
	fields := 0
	for _, w := range []int{signBits(sp), sp.ExpBits, sp.ManBits} {
		if w > 0 {
			fields++
		}
	}
	avail := L.left.Dx() - (n-fields)*gapIn - (fields-1)*gapField
	cell := min(st.px(72), avail/max(n, 1))
	x := L.left.Min.X + (L.left.Dx()-(n*cell+(n-fields)*gapIn+(fields-1)*gapField))/2
	y := L.left.Min.Y + st.px(30)
	for i := 0; i < n; i++ {
		L.bits = append(L.bits, image.Rect(x, y, x+cell, y+cell))
		x += cell
		if i+1 < n {
			if fieldOf(sp, n-1-i) != fieldOf(sp, n-2-i) {
				x += gapField
			} else {
				x += gapIn
			}
		}
	}
	top := y + cell + st.px(34)
	// The text needs about 230 px; the number line takes what is left, up
	// to 230 px, right below it.
	infoH := min(st.px(236), (L.left.Max.Y-top)*3/5)
	if st.stacked {
		infoH = min(st.px(420), L.left.Max.Y-top-st.px(180))
	}
	// The text never loses a line: it takes the height it needs, leaving
	// the number line room for its labels (its boxes set smaller type
	// where that is short, see drawInfo).
	need := s.drawInfo(nil, st, image.Rect(L.left.Min.X, top, L.left.Max.X, top+1<<20)) - top + st.px(12) // and the margin drawInfo keeps at the foot
	infoH = max(infoH, min(need, L.left.Max.Y-top-st.px(100)))
	lineH := min(st.px(300), L.left.Max.Y-top-infoH)
	L.info = image.Rect(L.left.Min.X, top, L.left.Max.X, top+infoH)
	L.line = image.Rect(L.left.Min.X, top+infoH, L.left.Max.X, top+infoH+lineH)
	// Code grid: square cells, row labels on the left, column labels on top.
	nc := s.f.NumCodes()
	gc := 1 << ((s.f.Bits() + 1) / 2)
	gr := nc / gc
	L.gridCols = gc
	lab := st.px(46)
	head := st.px(52)
	// The key under the grid takes the rows it wraps to (two on a phone
	// for a format with infinities), and the gap above it.
	entries, ls := s.gridLegend(st)
	legend := max(st.px(58), plot.MeasureInlineLegend(L.right.Dx()-st.px(8), entries, ls, &st.th).Y+st.px(12)+st.px(4))
	cw := min((L.right.Dx()-lab)/gc, (L.right.Dy()-head-legend)/gr)
	gx := L.right.Min.X + lab + (L.right.Dx()-lab-cw*gc)/2
	gy := L.right.Min.Y + head
	for c := 0; c < nc; c++ {
		r, k := c/gc, c%gc
		L.grid = append(L.grid, image.Rect(gx+k*cw, gy+r*cw, gx+(k+1)*cw, gy+(r+1)*cw))
	}
	return L
}

func signBits(sp fp8.Spec) int {
	if sp.Signed {
		return 1
	}
	return 0
}

// fieldOf returns 0 (sign), 1 (exponent) or 2 (mantissa) for bit position b
// (0 = least significant).
func fieldOf(sp fp8.Spec, b int) int {
	switch {
	case b < sp.ManBits:
		return 2
	case b < sp.ManBits+sp.ExpBits:
		return 1
	}
	return 0
}

// Click implements Scene.
func (s *explorer) Click(x, y, w, h int) bool {
	if s.size != image.Pt(w, h) {
		if s.Render(canvas(w, h)) != nil {
			return false
		}
	}
	p := image.Pt(x, y)
	c := s.code()
	for i, r := range s.last.bits {
		if p.In(r) {
			bit := s.f.Bits() - 1 - i
			return s.Set("code", strconv.Itoa(int(c^(1<<bit)))) == nil
		}
	}
	for k, r := range s.last.grid {
		if p.In(r) {
			if uint8(k) == c && s.ps.str("value") == "" {
				return false
			}
			return s.Set("code", strconv.Itoa(k)) == nil
		}
	}
	return false
}

func (s *explorer) title() string { return "Format explorer · " + s.f.Name() }

func (s *explorer) subtitle() string {
	in := s.f.Info()
	sub := fmt.Sprintf("bias %d · max %s · min normal %s", in.Bias, pow2Label(in.Max), pow2Label(in.MinNormal))
	if in.MinSubnormal > 0 {
		sub += " · min subnormal " + pow2Label(in.MinSubnormal)
	}
	return sub + fmt.Sprintf(" · %d positive values", in.PositiveFinite)
}

// Render implements Scene.
func (s *explorer) render(dst *image.RGBA, d Display) error {
	st, body, err := begin(dst, d, s.title(), s.subtitle())
	if err != nil {
		return err
	}
	b := dst.Bounds()
	L := s.layout(st, body.Sub(b.Min))
	s.last, s.size = L, b.Size()
	L = s.layout(st, body)
	if len(L.bits) == 0 || len(L.grid) == 0 {
		return fmt.Errorf("viz: explorer: %dx%d is too small", b.Dx(), b.Dy())
	}
	s.drawBits(dst, st, L)
	s.dropped = 0
	s.drawInfo(dst, st, L.info)
	s.drawNumberLine(dst, st, L.line)
	s.drawGrid(dst, st, L)
	return nil
}
