package viz

// The drawing of the explorer scene: bit cells, decoded value, number line
// and the grid of codes.

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/viz/plot"
)

func (s *explorer) drawBits(dst *image.RGBA, st style, L explorerLayout) {
	sp := s.f.Spec()
	c := s.code()
	ci, _ := s.f.Describe(c)
	n := s.f.Bits()
	digit := st.text(0, plot.FontMono, plot.Hex(0xffffff))
	digit.Size = float64(L.bits[0].Dy()) * 0.55
	digit.Align, digit.VAlign = plot.AlignCenter, plot.AlignMiddle
	for i, r := range L.bits {
		bit := n - 1 - i
		col := [3]color.RGBA{signColor, exponentColor, mantissaColor}[fieldOf(sp, bit)]
		plot.FillRect(dst, r, col)
		d := "0"
		if c>>bit&1 == 1 {
			d = "1"
		}
		plot.DrawText(dst, d, float64(r.Min.X+r.Max.X)/2, float64(r.Min.Y+r.Max.Y)/2, digit)
	}
	// Field names above, decoded field values below.
	label := st.text(15, plot.FontBold, color.RGBA{})
	label.Align, label.VAlign = plot.AlignCenter, plot.AlignBottom
	below := st.text(15, plot.FontRegular, color.RGBA{})
	below.Align, below.VAlign = plot.AlignCenter, plot.AlignTop
	span := func(field int) (image.Rectangle, bool) {
		var u image.Rectangle
		ok := false
		for i, r := range L.bits {
			if fieldOf(sp, n-1-i) == field {
				u, ok = u.Union(r), true
			}
		}
		return u, ok
	}
	bias := sp.Bias
	for field, name := range []string{"sign", "exponent", "mantissa"} {
		r, ok := span(field)
		if !ok {
			continue
		}
		label.Color = [3]color.RGBA{signColor, exponentColor, mantissaColor}[field]
		cx := float64(r.Min.X+r.Max.X) / 2
		plot.DrawText(dst, name, cx, float64(r.Min.Y-st.px(6)), label)
		var txt string
		switch field {
		case 0:
			txt = "+"
			if ci.Sign == 1 {
				txt = plot.Minus
			}
		case 1:
			if ci.Exponent == 0 && sp.Specials != fp8.ExponentOnly {
				txt = fmt.Sprintf("0 → subnormal, 2%s", plot.Superscript(ci.Power))
			} else {
				txt = fmt.Sprintf("%d %s %d = %d", ci.Exponent, plot.Minus, bias, ci.Exponent-bias)
			}
		case 2:
			lead := "1"
			if ci.Exponent == 0 {
				lead = "0"
			}
			txt = fmt.Sprintf("%s + %d/%d", lead, ci.Mantissa, 1<<sp.ManBits)
		}
		plot.DrawText(dst, txt, cx, float64(r.Max.Y+st.px(6)), below)
	}
}

// drawInfo writes the code's value and facts, and what a typed number
// becomes (or, with none typed, the top edge of the format), in r; it
// returns the y below the last thing written. With a nil dst it draws
// nothing and measures: layout gives the text the height it needs.
func (s *explorer) drawInfo(dst *image.RGBA, st style, r image.Rectangle) int {
	c := s.code()
	ci, _ := s.f.Describe(c)
	x, y := r.Min.X, r.Min.Y
	big := st.text(40, plot.FontBold, color.RGBA{})
	if r.Dy() < st.px(180) { // a short canvas (the 1024×768 page under tall browser bars): room for the lines under it
		big = st.text(28, plot.FontBold, color.RGBA{})
	}
	big.VAlign = plot.AlignTop
	vb := plot.DrawText(dst, fullValue(ci.Value), float64(x), float64(y), big)
	formula := st.body()
	formula.VAlign = plot.AlignMiddle
	formula.Color = st.th.MutedText
	// The formula goes beside the value, or under it when it would not fit.
	eq := "= " + s.formula(ci)
	if vb.Max.X+st.px(14)+plot.MeasureText(eq, formula).Width <= r.Max.X {
		plot.DrawText(dst, eq, float64(vb.Max.X+st.px(14)), float64(vb.Min.Y+vb.Max.Y)/2, formula)
	} else {
		formula.VAlign = plot.AlignTop
		vb = vb.Union(plot.DrawText(dst, eq, float64(x), float64(vb.Max.Y+st.px(4)), formula))
	}
	// Only whole lines that fit above the number line (or above a typed
	// number's box, which goes first): short forms where the long ones
	// need more lines than there is room for, then whole lines left out
	// from the last, never a line cut short.
	lh := plot.MeasureText("Xg", st.body()).Height() + st.px(6)
	foot := r.Max.Y
	if s.explain != nil {
		foot -= s.inputBoxHeight(st, r.Dx())
	}
	room := max(0, (foot-vb.Max.Y-st.px(8)+st.px(6))/lh)
	long, short := s.infoLines(c, ci)
	parts := fitParts(long, st.body(), r.Dx())
	if len(parts) > room || wraps(long, st.body(), r.Dx()) {
		parts, y = nil, 0
		for _, l := range short {
			p := fitParts([]string{l}, st.body(), r.Dx())
			if y += len(p); y > room {
				s.note(dst, 1)
				continue
			}
			parts = append(parts, p...)
		}
	}
	y = textLines(dst, x, vb.Max.Y+st.px(8), parts, st.body(), st.px(6))
	ex := s.explain
	if ex == nil {
		// Before anything is typed, the top edge shows rounding and
		// overflow at work in the current mode.
		if !s.edgeOK {
			return y
		}
		ts := st.body()
		width := r.Dx() - st.px(14)
		for _, l := range s.edgeLines(s.edge) { // smaller type rather than text past the box
			if plot.MeasureText(l, ts).Width > width {
				ts = st.text(14, plot.FontRegular, color.RGBA{})
			}
		}
		all := s.edgeLines(s.edge)
		lines := wrapLines(all, ts, width)
		lineH := plot.MeasureText("Xg", ts).Height() + st.px(6)
		if small := st.text(14, plot.FontRegular, color.RGBA{}); len(lines)*lineH > r.Max.Y-y-st.px(14) && ts.Size > small.Size {
			// Short of room, smaller type first.
			ts = small
			lines = wrapLines(all, ts, width)
			lineH = plot.MeasureText("Xg", ts).Height() + st.px(6)
		}
		if room := (r.Max.Y - y - st.px(14)) / lineH; len(lines) > room {
			// Short of room, the first line goes: the number line marks
			// the step that has no code too.
			n := len(lines)
			lines = wrapLines(all[1:], ts, width)
			lines = lines[:max(0, min(len(lines), room))]
			s.note(dst, n-len(lines))
		}
		if len(lines) == 0 {
			return y
		}
		box := image.Rect(x, y+st.px(6), r.Max.X, min(r.Max.Y, y+st.px(6)+len(lines)*lineH+st.px(8)))
		plot.FillRect(dst, box, plot.WithAlpha(plot.Vermillion, 0x1c))
		plot.VLine(dst, box.Min.X, box.Min.Y, box.Max.Y-1, plot.Vermillion)
		textLines(dst, box.Min.X+st.px(10), box.Min.Y+st.px(6), lines, ts, st.px(6))
		return box.Max.Y
	}
	errLine := s.inputLine(*ex)
	ts := st.body()
	lines := fitParts([]string{inputHead(*ex, ts, r.Dx()-st.px(14)), errLine}, ts, r.Dx()-st.px(14))
	lineH := plot.MeasureText("Xg", ts).Height() + st.px(6)
	if len(lines)*lineH > r.Max.Y-y-st.px(20) {
		// Short of room, smaller type first.
		ts = st.text(14, plot.FontRegular, color.RGBA{})
		lines = fitParts([]string{inputHead(*ex, ts, r.Dx()-st.px(14)), errLine}, ts, r.Dx()-st.px(14))
		lineH = plot.MeasureText("Xg", ts).Height() + st.px(6)
	}
	// Whole lines only: those past the column's foot are left out.
	n := len(lines)
	lines = lines[:max(0, min(len(lines), (r.Max.Y-y-st.px(20))/lineH))]
	s.note(dst, n-len(lines))
	box := image.Rect(x, y+st.px(6), r.Max.X, min(r.Max.Y, y+st.px(6)+len(lines)*lineH+st.px(8)))
	plot.FillRect(dst, box, plot.WithAlpha(plot.Orange, 0x30))
	plot.VLine(dst, box.Min.X, box.Min.Y, box.Max.Y-1, plot.Orange)
	textLines(dst, box.Min.X+st.px(10), box.Min.Y+st.px(6), lines, ts, st.px(6))
	return box.Max.Y
}

// infoLines are the lines under the code's value, in long and short
// forms: its code, bits and class; its ULP; its neighbours.
func (s *explorer) infoLines(c uint8, ci fp8.CodeInfo) (long, short []string) {
	lo, hi := neighbours(s.f, c)
	nb := func(n neighbour) string {
		if !n.ok {
			return n.note
		}
		return fmt.Sprintf("%s (0x%02X)", fullValue(fp8.Number(n.value)), n.code)
	}
	long = []string{
		fmt.Sprintf("code 0x%02X  ·  bits %s  ·  class %s", c, ci.Bits, ci.Class),
		fmt.Sprintf("ULP %s: the spacing of values in this binade", fullValue(ci.ULP)),
		fmt.Sprintf("next value below: %s  ·  above: %s", nb(lo), nb(hi)),
	}
	short = []string{
		fmt.Sprintf("code 0x%02X  ·  %s  ·  ULP %s", c, ci.Class, fullValue(ci.ULP)),
		fmt.Sprintf("below: %s  ·  above: %s", nb(lo), nb(hi)),
	}
	if !lo.ok && !hi.ok && lo.note == hi.note {
		long[2] = "next values: " + lo.note
		short[1] = long[2]
	}
	if math.IsNaN(float64(ci.Value)) || math.IsInf(float64(ci.Value), 0) {
		long[1] = "no ULP: not a finite number"
		short[0] = fmt.Sprintf("code 0x%02X  ·  %s  ·  no ULP", c, ci.Class)
	}
	return long, short
}

// inputBoxHeight is the least height a typed number's box takes in a column
// width wide: its lines in the small type, and the box's margins.
func (s *explorer) inputBoxHeight(st style, width int) int {
	ts := st.text(14, plot.FontRegular, color.RGBA{})
	width -= st.px(14)
	n := len(fitParts([]string{inputHead(*s.explain, ts, width), s.inputLine(*s.explain)}, ts, width))
	return n*(plot.MeasureText("Xg", ts).Height()+st.px(6)) + st.px(20)
}

// inputHead is the first line of a typed number's box: what it became, in
// which mode, or without the mode (the controls show it) where that line
// is wider than width in ts.
func inputHead(ex fp8.Explanation, ts plot.TextStyle, width int) string {
	head := fmt.Sprintf("x = %s  →  %s  (0x%02X)", ex.Input, fullValue(ex.Result.Value), ex.Result.Code)
	if long := strings.TrimSuffix(head, ")") + ", " + ex.Mode + ")"; plot.MeasureText(long, ts).Width <= width {
		return long
	}
	return head
}

// inputLine is the line under a typed number's result: where it lies and
// its error, or, for a NaN or an infinity, what the explanation says of it
// (a NaN has nothing to round; an infinity is not a finite number and no
// overflow of one).
func (s *explorer) inputLine(ex fp8.Explanation) string {
	x := float64(ex.Input)
	switch {
	case math.IsNaN(x):
		return "nothing to round: a NaN input stays NaN  ·  no error"
	case math.IsInf(x, 0):
		return "not a finite number  ·  no overflow of a finite value  ·  no finite error"
	}
	bl, bh := s.bracket(ex)
	line := fmt.Sprintf("between %s and %s", fullValue(fp8.Number(bl)), fullValue(fp8.Number(bh)))
	switch {
	case math.IsNaN(bl) || math.IsNaN(bh):
		max, next := "max "+fullValue(fp8.Number(s.edge.max)), fullValue(fp8.Number(s.edge.next))
		if x < 0 {
			max, next = fullValue(fp8.Number(-s.edge.max)), fullValue(fp8.Number(-s.edge.next))
		}
		line = fmt.Sprintf("beyond %s and the step %s (no code)", max, next)
	case s.edgeOK && (math.Abs(bh) == s.edge.next || math.Abs(bl) == s.edge.next):
		line += " (no code)"
	}
	if ae := float64(ex.AbsError); !math.IsNaN(ae) {
		line += fmt.Sprintf("  ·  error %s (%s)", short(ae), relText(float64(ex.RelError)))
	}
	switch {
	case ex.Overflow:
		line += "  ·  overflow"
	case ex.Underflow && !s.f.Signed():
		line += "  ·  raised to the smallest scale"
	case ex.Underflow:
		line += "  ·  flushed to zero"
	}
	return line
}

// note records, when drawing (not measuring), how many lines of text were
// left out for want of room.
func (s *explorer) note(dst *image.RGBA, dropped int) {
	if dst != nil {
		s.dropped += dropped
	}
}

// wraps reports whether some part of lines (split at "  ·  ") is wider than
// width: fitParts would break it inside a phrase.
func wraps(lines []string, ts plot.TextStyle, width int) bool {
	for _, l := range lines {
		for _, p := range strings.Split(l, "  ·  ") {
			if plot.MeasureText(p, ts).Width > width {
				return true
			}
		}
	}
	return false
}

// fitParts fits lines to width in style ts: a line too wide breaks at its
// "  ·  " separators, as few lines as fit, and a part still too wide wraps
// at its spaces (wrapLines).
func fitParts(lines []string, ts plot.TextStyle, width int) []string {
	const sep = "  ·  "
	var out []string
	for _, l := range lines {
		if plot.MeasureText(l, ts).Width <= width {
			out = append(out, l)
			continue
		}
		cur := ""
		flush := func() {
			switch {
			case cur == "":
			case plot.MeasureText(cur, ts).Width <= width: // whole, its separators' spaces kept
				out = append(out, cur)
			default:
				out = append(out, wrapLines([]string{cur}, ts, width)...)
			}
		}
		for _, p := range strings.Split(l, sep) {
			if cur != "" && plot.MeasureText(cur+sep+p, ts).Width <= width {
				cur += sep + p
				continue
			}
			flush()
			cur = p
		}
		flush()
	}
	return out
}

// fullValue prints a value exactly, with a typographic minus: as decimal
// when that is short, else as m × 2ⁿ (exact, since a minifloat's
// significand has few bits), e.g. "2⁻¹²⁷" rather than "5.877471754111438e-39".
func fullValue(n fp8.Number) string {
	v := float64(n)
	switch {
	case math.IsInf(v, 1):
		return "+∞"
	case math.IsInf(v, -1):
		return plot.Minus + "∞"
	}
	s := n.String()
	if strings.ContainsAny(s, "eE") && !math.IsNaN(v) && v != 0 {
		m, e := math.Frexp(math.Abs(v)) // |v| = m·2^e, m in [0.5, 1)
		m, e = 2*m, e-1
		s = sign(v) + pow2(e)
		if m != 1 {
			s = sign(v) + strconv.FormatFloat(m, 'g', -1, 64) + " × " + pow2(e)
		}
		return s
	}
	return strings.Replace(s, "-", plot.Minus, 1)
}

func relText(r float64) string {
	if math.IsNaN(r) {
		return "—"
	}
	return short(100*r) + " %"
}

// formula writes how the fields give the value, e.g. "+1.75 × 2⁸".
func (s *explorer) formula(ci fp8.CodeInfo) string {
	v := float64(ci.Value)
	sp := s.f.Spec()
	switch {
	case math.IsNaN(v):
		return "NaN (a reserved code)"
	case math.IsInf(v, 0):
		return "infinity (a reserved code)"
	}
	sg := "+"
	if ci.Sign == 1 {
		sg = plot.Minus
	}
	frac := float64(ci.Mantissa) / float64(int(1)<<sp.ManBits)
	lead := 1.0
	if ci.Exponent == 0 && sp.Specials != fp8.ExponentOnly {
		lead = 0
	}
	return fmt.Sprintf("%s%s × %s", sg, strconv.FormatFloat(lead+frac, 'g', -1, 64), pow2(ci.Power))
}

// finiteValues returns the distinct finite values of f, ascending.
func finiteValues(f *fp8.Format) []float64 {
	var out []float64
	seen := map[float64]bool{}
	for _, c := range f.Codes() {
		v := f.Decode(c)
		if math.IsNaN(v) || math.IsInf(v, 0) || seen[v] {
			continue
		}
		seen[v] = true
		out = append(out, v)
	}
	sort.Float64s(out)
	return out
}

// drawGrid draws every code of the format coloured by class, the selected
// code outlined, with hex labels and a legend with the count of each class.
func (s *explorer) drawGrid(dst *image.RGBA, st style, L explorerLayout) {
	nc := s.f.NumCodes()
	gc := L.gridCols
	first, last := L.grid[0], L.grid[nc-1]
	area := first.Union(last)
	head := st.heading()
	head.Align, head.VAlign = plot.AlignCenter, plot.AlignBottom
	plot.DrawText(dst, fmt.Sprintf("All %d codes, coloured by class", nc), float64(area.Min.X+area.Max.X)/2, float64(area.Min.Y-st.px(26)), head)
	lab := st.text(14, plot.FontMono, st.th.MutedText)
	lab.Align, lab.VAlign = plot.AlignCenter, plot.AlignBottom
	// Column labels ("+0" … "+F") drop their "+" where the cells are
	// narrower than them (a phone, the desktop window), and label every
	// other column where even the digit does not fit: neighbours never
	// touch.
	format, stride := "+%X", 1
	widest := func(f string) int { return plot.MeasureText(fmt.Sprintf(f, gc-1), lab).Width + st.px(3) }
	if widest(format) > first.Dx() {
		format = "%X"
		stride = (widest(format) + first.Dx() - 1) / max(first.Dx(), 1)
	}
	for k := 0; k < gc; k += stride {
		r := L.grid[k]
		plot.DrawText(dst, fmt.Sprintf(format, k), float64(r.Min.X+r.Max.X)/2, float64(r.Min.Y-st.px(4)), lab)
	}
	lab.Align, lab.VAlign = plot.AlignRight, plot.AlignMiddle
	// Row labels ("0x00", "0x10", …) need their letters' height and a
	// gap per row; shorter rows (the desktop app's shortest picture)
	// label every other row.
	rowStride := 1
	if first.Dy() < plot.MeasureText("0x", lab).Cap+st.px(5) {
		rowStride = 2
	}
	for row := 0; row < nc/gc; row += rowStride {
		r := L.grid[row*gc]
		plot.DrawText(dst, fmt.Sprintf("0x%02X", row*gc), float64(r.Min.X-st.px(6)), float64(r.Min.Y+r.Max.Y)/2, lab)
	}
	gap := max(1, st.px(2))
	// Values go inside the cells only when every one of them fits.
	vs := st.text(13, plot.FontRegular, color.RGBA{})
	vs.Align, vs.VAlign = plot.AlignCenter, plot.AlignMiddle
	fits := true
	for c := 0; c < nc; c++ {
		if plot.MeasureText(cellLabel(s.f.Decode(uint8(c))), vs).Width > first.Dx()-2*gap-st.px(4) {
			fits = false
			break
		}
	}
	for c := 0; c < nc; c++ {
		ci, _ := s.f.Describe(uint8(c))
		r := L.grid[c]
		inner := image.Rect(r.Min.X+gap/2, r.Min.Y+gap/2, r.Max.X-(gap+1)/2, r.Max.Y-(gap+1)/2)
		plot.FillRect(dst, inner, classColors[ci.Class])
		if fits {
			vs.Color = st.th.Foreground
			if ci.Class == fp8.ClassNaN || ci.Class == fp8.ClassInf {
				vs.Color = plot.Hex(0xffffff)
			}
			plot.DrawText(dst, cellLabel(float64(ci.Value)), float64(r.Min.X+r.Max.X)/2, float64(r.Min.Y+r.Max.Y)/2, vs)
		}
	}
	sel := L.grid[s.code()]
	o := max(2, st.px(3))
	plot.StrokeRect(dst, plot.Inset(sel, -o), o, st.th.Foreground)
	plot.StrokeRect(dst, sel, 1, plot.Hex(0xffffff))
	entries, ls := s.gridLegend(st)
	plot.DrawInlineLegend(dst, L.right.Min.X+st.px(8), area.Max.Y+st.px(12), L.right.Dx()-st.px(8), entries, ls, &st.th)
}

// gridLegend returns the code grid's key (each class with its count of
// codes) and its text style: the layout measures it, drawGrid draws it.
func (s *explorer) gridLegend(st style) ([]plot.LegendEntry, plot.TextStyle) {
	counts := map[fp8.Class]int{}
	for c := 0; c < s.f.NumCodes(); c++ {
		ci, _ := s.f.Describe(uint8(c))
		counts[ci.Class]++
	}
	var entries []plot.LegendEntry
	for _, cl := range []fp8.Class{fp8.ClassZero, fp8.ClassSubnormal, fp8.ClassNormal, fp8.ClassMax, fp8.ClassInf, fp8.ClassNaN} {
		if counts[cl] > 0 {
			entries = append(entries, plot.LegendEntry{Label: fmt.Sprintf("%s %d", className(cl), counts[cl]), Color: classColors[cl], Kind: plot.LegendSwatch})
		}
	}
	return entries, st.text(15, plot.FontRegular, color.RGBA{})
}

// className is a class's name as the legend shows it.
func className(c fp8.Class) string {
	switch c {
	case fp8.ClassNaN:
		return "NaN"
	case fp8.ClassInf:
		return "±∞"
	}
	return c.String()
}

// cellLabel is a compact value for a grid cell.
func cellLabel(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 0):
		return sign(v) + "∞"
	}
	return strings.Replace(strconv.FormatFloat(v, 'g', 3, 64), "-", plot.Minus, 1)
}

// wrapLines breaks each line at spaces so that none is wider than width
// (a single word wider than width stays whole).
func wrapLines(lines []string, ts plot.TextStyle, width int) []string {
	var out []string
	for _, l := range lines {
		cur := ""
		for _, w := range strings.Fields(l) {
			next := w
			if cur != "" {
				next = cur + " " + w
			}
			if cur != "" && plot.MeasureText(next, ts).Width > width {
				out = append(out, cur)
				next = "   " + w // continuation lines are indented
			}
			cur = next
		}
		out = append(out, cur)
	}
	return out
}
