package ui

import (
	"image"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/viz"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// Sizes of the control panel and the tab bar, in logical pixels.
const (
	PanelWidth = 300
	TabHeight  = 42
	panelPad   = 16
	textSize   = 15
)

// The smallest window the desktop app allows, in logical pixels: the tab
// bar and the panel are laid out for every size from it up.
const (
	MinWindowWidth  = 640
	MinWindowHeight = 400
)

// Colours of the controls.
var (
	panelBG     = plot.Hex(0xf3f4f6)
	panelRule   = plot.Hex(0xd9dce1)
	accent      = plot.Blue
	controlBG   = plot.Hex(0xffffff)
	controlEdge = plot.Hex(0xb8bcc4)
	textColor   = plot.Hex(0x1a1a1a)
	mutedColor  = plot.Hex(0x555555)
	errorColor  = plot.Vermillion
	offColor    = plot.Hex(0x8a8f98) // an option that cannot be chosen now
)

// widget is one parameter's control, laid out in panel coordinates.
type widget struct {
	p      viz.Param
	value  string
	row    image.Rectangle   // the label and the control
	track  image.Rectangle   // slider track (number, int)
	opts   []image.Rectangle // option buttons (choice)
	off    []bool            // options that cannot be chosen now (choice)
	toggle image.Rectangle   // switch (bool)
	box    image.Rectangle   // text box (text)
}

// panelLayout is the control panel of one scene at one size.
type panelLayout struct {
	rect    image.Rectangle
	widgets []widget
	help    image.Rectangle // where the focused parameter's help goes
	// view is where widgets show: above the help, and above the line of
	// the scroll cue when they do not all fit. Only whole widgets show.
	view    image.Rectangle
	content int // height of the widgets, for scrolling
}

// cueStyle is the style of the panel's scroll cue.
func cueStyle() plot.TextStyle {
	return plot.TextStyle{Size: 13, Color: accent, Align: plot.AlignRight, VAlign: plot.AlignBottom}
}

// shown reports whether widget w shows whole in the panel's view.
func (L panelLayout) shown(w widget) bool { return w.row.In(L.view) }

func labelStyle() plot.TextStyle {
	return plot.TextStyle{Font: plot.FontBold, Size: textSize, Color: textColor}
}

func valueStyle() plot.TextStyle {
	return plot.TextStyle{Font: plot.FontRegular, Size: textSize, Color: textColor}
}

// layoutPanel places the widgets of params in r, scrolled up by scroll
// pixels.
func layoutPanel(r image.Rectangle, params []viz.Param, values map[string]string, scroll int) panelLayout {
	L := panelLayout{rect: r}
	x0, x1 := r.Min.X+panelPad, r.Max.X-panelPad
	y := r.Min.Y + panelPad - scroll
	lh := plot.MeasureText("Xg", labelStyle()).Height()
	for _, p := range params {
		w := widget{p: p, value: values[p.Name]}
		top := y
		y += lh + 4
		switch p.Kind {
		case viz.ParamChoice:
			x := x0
			bh := lh + 8
			for _, o := range p.Options {
				bw := plot.MeasureText(o, valueStyle()).Width + 18
				if x > x0 && x+bw > x1 {
					x, y = x0, y+bh+4
				}
				w.opts = append(w.opts, image.Rect(x, y, x+bw, y+bh))
				x += bw + 4
			}
			y += bh
		case viz.ParamNumber, viz.ParamInt:
			w.track = image.Rect(x0+8, y+4, x1-8, y+20)
			y += 24
		case viz.ParamBool:
			w.toggle = image.Rect(x0, y, x0+52, y+26)
			y += 26
		default:
			w.box = image.Rect(x0, y, x1, y+lh+12)
			y += lh + 12
		}
		y += 10
		w.row = image.Rect(r.Min.X, top-5, r.Max.X, y-5)
		L.widgets = append(L.widgets, w)
	}
	L.content = y + scroll - r.Min.Y
	helpH := helpHeight(r, params, lh)
	L.help = image.Rect(r.Min.X, r.Max.Y-helpH, r.Max.X, r.Max.Y)
	L.view = image.Rect(r.Min.X, r.Min.Y, r.Max.X, L.help.Min.Y)
	if L.content > L.view.Dy() {
		// The cue gets a line of its own under the widgets.
		L.view.Max.Y -= plot.MeasureText("Xg", cueStyle()).Height() + 4
	}
	return L
}

// sliderValue maps a pixel x on a widget's track to a parameter value,
// snapped to the parameter's step.
func sliderValue(w widget, x int) string {
	t := w.track
	f := math.Min(math.Max(float64(x-t.Min.X)/float64(max(t.Dx(), 1)), 0), 1)
	v := w.p.Min + f*(w.p.Max-w.p.Min)
	step := w.p.Step
	if w.p.Kind == viz.ParamInt && step < 1 {
		step = 1
	}
	if step > 0 {
		v = w.p.Min + math.Round((v-w.p.Min)/step)*step
	}
	v = math.Min(math.Max(v, w.p.Min), w.p.Max)
	if w.p.Kind == viz.ParamInt {
		return strconv.FormatInt(int64(math.Round(v)), 10)
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// stepValue moves a widget's value by dir (-1 or +1) steps or options,
// skipping the options that cannot be chosen now.
func stepValue(w widget, dir int) (string, bool) {
	switch w.p.Kind {
	case viz.ParamChoice:
		i := slices.Index(w.p.Options, w.value)
		if i < 0 {
			i = -dir // not an option: step to the first that can be chosen
			if dir < 0 {
				i = len(w.p.Options)
			}
		}
		for j := i + dir; j >= 0 && j < len(w.p.Options); j += dir {
			if !w.isOff(j) {
				return w.p.Options[j], true
			}
		}
	case viz.ParamNumber, viz.ParamInt:
		v, err := strconv.ParseFloat(w.value, 64)
		if err != nil {
			return "", false
		}
		step := w.p.Step
		if step <= 0 {
			step = (w.p.Max - w.p.Min) / 100
		}
		nv := math.Min(math.Max(v+float64(dir)*step, w.p.Min), w.p.Max)
		if nv == v {
			return "", false
		}
		if w.p.Kind == viz.ParamInt {
			return strconv.FormatInt(int64(math.Round(nv)), 10), true
		}
		return strconv.FormatFloat(nv, 'g', 6, 64), true
	case viz.ParamBool:
		if w.value == "true" {
			return "false", true
		}
		return "true", true
	}
	return "", false
}

// isOff reports whether option i of a choice cannot be chosen now.
func (w widget) isOff(i int) bool { return i < len(w.off) && w.off[i] }

// panelState is what the panel shows besides the values.
type panelState struct {
	focus   int    // focused widget, -1 for none
	editing bool   // a text box is being edited
	buf     string // the text being typed
	status  string // last error, shown in red
}

// drawPanel paints the panel into dst (whose bounds are the panel's rect).
func drawPanel(dst *image.RGBA, L panelLayout, ps panelState) {
	plot.FillRect(dst, L.rect, panelBG)
	plot.VLine(dst, L.rect.Max.X-1, L.rect.Min.Y, L.rect.Max.Y-1, panelRule)
	clip, _ := dst.SubImage(L.view).(*image.RGBA)
	below, above := false, false
	for i, w := range L.widgets {
		if L.shown(w) {
			drawWidget(clip, w, ps, i == ps.focus)
			continue
		}
		below = below || w.row.Max.Y > L.view.Max.Y
		above = above || w.row.Min.Y < L.view.Min.Y
	}
	cue := ""
	switch {
	case below:
		cue = "more below ↓ (scroll or ↑↓)"
	case above:
		cue = "more above ↑ (scroll or ↑↓)"
	}
	if cue != "" {
		strip, _ := dst.SubImage(image.Rect(L.rect.Min.X, L.view.Max.Y, L.rect.Max.X, L.help.Min.Y)).(*image.RGBA)
		plot.DrawText(strip, cue, float64(L.rect.Max.X-panelPad), float64(L.help.Min.Y-2), cueStyle())
	}
	drawHelp(dst, L, ps)
}

func drawWidget(dst *image.RGBA, w widget, ps panelState, focused bool) {
	if focused {
		plot.FillRect(dst, w.row, plot.Hex(0xe4ecf5))
		plot.FillRect(dst, image.Rect(w.row.Min.X, w.row.Min.Y, w.row.Min.X+4, w.row.Max.Y), accent)
	}
	x0 := w.row.Min.X + panelPad
	ls := labelStyle()
	ls.VAlign = plot.AlignTop
	lb := plot.DrawText(dst, w.p.Label, float64(x0), float64(w.row.Min.Y+6), ls)
	vs := valueStyle()
	switch w.p.Kind {
	case viz.ParamChoice:
		for i, r := range w.opts {
			o := w.p.Options[i]
			on := o == w.value
			bg, fg, edge := controlBG, textColor, controlEdge
			switch {
			case on:
				bg, fg = accent, plot.Hex(0xffffff)
			case w.isOff(i):
				// Greyed: a click says why in the help area.
				bg, fg, edge = panelBG, offColor, panelRule
			}
			plot.FillRect(dst, r, bg)
			plot.StrokeRect(dst, r, 1, edge)
			ts := vs
			ts.Color, ts.Align, ts.VAlign = fg, plot.AlignCenter, plot.AlignMiddle
			plot.DrawText(dst, o, float64(r.Min.X+r.Max.X)/2, float64(r.Min.Y+r.Max.Y)/2, ts)
		}
	case viz.ParamNumber, viz.ParamInt:
		ts := vs
		ts.Align, ts.VAlign = plot.AlignRight, plot.AlignTop
		plot.DrawText(dst, w.value, float64(w.row.Max.X-panelPad), float64(lb.Min.Y), ts)
		t := w.track
		mid := (t.Min.Y + t.Max.Y) / 2
		plot.FillRect(dst, image.Rect(t.Min.X, mid-2, t.Max.X, mid+2), controlEdge)
		v, _ := strconv.ParseFloat(w.value, 64)
		f := 0.0
		if w.p.Max > w.p.Min {
			f = math.Min(math.Max((v-w.p.Min)/(w.p.Max-w.p.Min), 0), 1)
		}
		kx := float64(t.Min.X) + f*float64(t.Dx())
		plot.FillRect(dst, image.Rect(t.Min.X, mid-2, int(kx), mid+2), accent)
		plot.FillCircle(dst, kx, float64(mid), 8, accent)
		plot.FillCircle(dst, kx, float64(mid), 4, plot.Hex(0xffffff))
	case viz.ParamBool:
		r := w.toggle
		on := w.value == "true"
		bg := controlEdge
		if on {
			bg = accent
		}
		rad := float64(r.Dy()) / 2
		cy := float64(r.Min.Y) + rad
		plot.FillCircle(dst, float64(r.Min.X)+rad, cy, rad, bg)
		plot.FillCircle(dst, float64(r.Max.X)-rad, cy, rad, bg)
		plot.FillRect(dst, image.Rect(r.Min.X+int(rad), r.Min.Y, r.Max.X-int(rad), r.Max.Y), bg)
		kx := float64(r.Min.X) + rad
		if on {
			kx = float64(r.Max.X) - rad
		}
		plot.FillCircle(dst, kx, cy, rad-3, plot.Hex(0xffffff))
		ts := vs
		ts.VAlign = plot.AlignMiddle
		label := "off"
		if on {
			label = "on"
		}
		plot.DrawText(dst, label, float64(r.Max.X+10), cy, ts)
	default:
		r := w.box
		plot.FillRect(dst, r, controlBG)
		edge := controlEdge
		text := w.value
		if focused && ps.editing {
			edge, text = accent, ps.buf+"|"
		}
		plot.StrokeRect(dst, r, 1, edge)
		if focused && ps.editing {
			plot.StrokeRect(dst, r.Inset(1), 1, edge)
		}
		ts := vs
		ts.VAlign = plot.AlignMiddle
		if text == "" {
			ts.Color, text = mutedColor, "click to type"
		}
		// A value wider than the box shows its start and "…" (while
		// typing, its end, where the cursor is), never cut letters.
		text = elide(text, r.Dx()-16, ts, focused && ps.editing)
		clip, _ := dst.SubImage(r.Inset(3)).(*image.RGBA)
		plot.DrawText(clip, text, float64(r.Min.X+8), float64(r.Min.Y+r.Max.Y)/2, ts)
	}
}

// helpStyle is the style of the focused parameter's help.
func helpStyle() plot.TextStyle {
	return plot.TextStyle{Font: plot.FontRegular, Size: 14, Color: mutedColor, VAlign: plot.AlignTop}
}

// helpHeight is the height of the help box in panel r: room for the
// longest help of params and the two lines of keys, at most 45% of the
// panel (a longer help ends in "…"), and never less than two lines of
// help (4 label lines, lh each, with the padding).
func helpHeight(r image.Rectangle, params []viz.Param, lh int) int {
	ts := helpStyle()
	hl := plot.MeasureText("Xg", ts).Height()
	lines := 0
	for _, p := range params {
		lines = max(lines, len(wrapText(p.Help, r.Dx()-2*panelPad, ts)))
	}
	keys := 2 * (plot.MeasureText("Xg", plot.TextStyle{Font: plot.FontRegular, Size: 13}).Height() + 2)
	// drawHelp starts 10 px down, stops two line heights above the foot
	// and puts the keys 8 px above it.
	need := 10 + lines*(hl+2) + 2*hl + keys + 8
	return max(4*lh+2*panelPad, min(need, r.Dy()*45/100))
}

// drawHelp writes the focused parameter's help (or the last error) and the
// keyboard shortcuts at the bottom of the panel.
func drawHelp(dst *image.RGBA, L panelLayout, ps panelState) {
	r := L.help
	plot.FillRect(dst, r, panelBG)
	plot.HLine(dst, r.Min.X, r.Max.X-2, r.Min.Y, panelRule)
	ts := helpStyle()
	x, y := r.Min.X+panelPad, r.Min.Y+10
	width := r.Dx() - 2*panelPad
	var lines []string
	switch {
	case ps.status != "":
		ts.Color = errorColor
		lines = wrapText(ps.status, width, ts)
	case ps.editing:
		lines = wrapText("Type, then Enter to apply or Esc to cancel.", width, ts)
	case ps.focus >= 0 && ps.focus < len(L.widgets):
		lines = wrapText(L.widgets[ps.focus].p.Help, width, ts)
	}
	keys := plot.TextStyle{Font: plot.FontRegular, Size: 13, Color: mutedColor, VAlign: plot.AlignBottom}
	lh := plot.MeasureText("Xg", ts).Height()
	// A help longer than the box shows the lines that fit, the last ending
	// in "…", so that a cut sentence never looks whole.
	fit := 0
	for yy := y; fit < len(lines) && yy+2*lh <= r.Max.Y-2*lh; yy += lh + 2 {
		fit++
	}
	if fit < len(lines) && fit > 0 {
		lines = append(lines[:fit-1:fit-1], elide(lines[fit-1]+" …", width, ts, false))
	}
	for _, l := range lines[:fit] {
		plot.DrawText(dst, l, float64(x), float64(y), ts)
		y += lh + 2
	}
	// The digit keys reach the first nine scenes of the catalog.
	kl := []string{"1–" + strconv.Itoa(min(len(viz.Names()), 9)) + " scene · ↑↓ select · ←→ change", "Enter edit · R reset · H panel · S save PNG"}
	kh := plot.MeasureText("Xg", keys).Height()
	for i, l := range kl {
		plot.DrawText(dst, l, float64(x), float64(r.Max.Y-8-(len(kl)-1-i)*(kh+2)), keys)
	}
}

// elide shortens text to at most width pixels in style ts with "…" in
// place of what it leaves out: its end, or its start when keepEnd.
func elide(text string, width int, ts plot.TextStyle, keepEnd bool) string {
	rs := []rune(text)
	for s := text; len(rs) > 0; {
		if plot.MeasureText(s, ts).Width <= width {
			return s
		}
		if keepEnd {
			rs = rs[1:]
			s = "…" + string(rs)
		} else {
			rs = rs[:len(rs)-1]
			s = string(rs) + "…"
		}
	}
	return ""
}

// wrapText breaks s into lines no wider than width.
func wrapText(s string, width int, ts plot.TextStyle) []string { return plot.WrapText(s, width, ts) }

// Tab bar layout, in logical pixels.
const (
	tabEdge   = 8  // the bar's margin left and right
	tabGap    = 4  // between two tabs
	tabPadMax = 28 // around a tab's text, where the bar has room
	tabPadMin = 12 // around a tab's text, where it has not
	tabMinCut = 3  // the fewest letters of a name a cut label keeps
)

// tabRects lays the scene tabs across the top bar of width w, with the
// labels tabLabels chose for that width.
func tabRects(names []string, w int) []image.Rectangle {
	_, out := tabLayout(names, w)
	return out
}

// tabLayout chooses the tabs' labels and lays them out across a bar w
// pixels wide: the first that fits of the whole names ("1  Explorer")
// with wide padding, then with narrow, then names cut to as many letters
// as fit ("1 Explo…"), then the digits alone; where even those do not
// fit, the tabs share the width evenly, each still as wide as its digit.
func tabLayout(names []string, w int) ([]string, []image.Rectangle) {
	ts := labelStyle()
	lay := func(labels []string, pad int) ([]image.Rectangle, bool) {
		out := make([]image.Rectangle, len(labels))
		x := tabEdge
		for i, l := range labels {
			tw := plot.MeasureText(l, ts).Width + pad
			out[i] = image.Rect(x, 6, x+tw, TabHeight)
			x += tw + tabGap
		}
		return out, x-tabGap+tabEdge <= w
	}
	cut := func(k int) []string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = tabLabel(i, n, k)
		}
		return out
	}
	longest := 0
	for _, n := range names {
		longest = max(longest, len([]rune(n)))
	}
	full := cut(longest)
	for _, pad := range []int{tabPadMax, tabPadMin} {
		if r, ok := lay(full, pad); ok {
			return full, r
		}
	}
	for k := longest - 1; k >= tabMinCut; k-- {
		labels := cut(k)
		if r, ok := lay(labels, tabPadMin); ok {
			return labels, r
		}
	}
	digits := cut(0)
	if r, ok := lay(digits, tabPadMin); ok {
		return digits, r
	}
	// Even tabs across the bar, none narrower than its digit.
	out := make([]image.Rectangle, len(names))
	each := max(1, (w-2*tabEdge-tabGap*(len(names)-1))/max(1, len(names)))
	x := tabEdge
	for i, l := range digits {
		tw := max(each, plot.MeasureText(l, ts).Width+2)
		out[i] = image.Rect(x, 6, x+tw, TabHeight)
		x += tw + tabGap
	}
	return digits, out
}

// tabLabel is "1  Explorer": the tab's digit key and the scene's name, or
// "1 Exp…", the name cut to its first k letters, when longer, or the digit
// alone for k 0.
func tabLabel(i int, name string, k int) string {
	d := strconv.Itoa(i + 1)
	if k <= 0 || name == "" {
		return d
	}
	rs := []rune(strings.ToUpper(name[:1]) + name[1:])
	if len(rs) > k {
		return d + " " + string(rs[:k]) + "…" // one space: every pixel counts
	}
	return d + "  " + string(rs)
}

// drawTabs paints the tab bar into dst (bounds 0,0..w,TabHeight).
func drawTabs(dst *image.RGBA, names []string, current string) {
	b := dst.Bounds()
	plot.FillRect(dst, b, plot.Hex(0xe6e8ec))
	plot.HLine(dst, b.Min.X, b.Max.X-1, b.Max.Y-1, panelRule)
	ts := labelStyle()
	ts.Align, ts.VAlign = plot.AlignCenter, plot.AlignMiddle
	labels, rects := tabLayout(names, b.Dx())
	for i, r := range rects {
		bg, fg := plot.Hex(0xd5d9df), textColor
		if names[i] == current {
			bg = plot.Hex(0xffffff)
		}
		plot.FillRect(dst, r, bg)
		if names[i] == current {
			plot.FillRect(dst, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+3), accent)
		}
		ts.Color = fg
		plot.DrawText(dst, labels[i], float64(r.Min.X+r.Max.X)/2, float64(r.Min.Y+r.Max.Y)/2+1, ts)
	}
}

// errorImage is a picture that says why a scene could not be drawn.
func errorImage(dst *image.RGBA, msg string) {
	plot.FillRect(dst, dst.Bounds(), plot.Hex(0xffffff))
	ts := plot.TextStyle{Size: 16, Color: errorColor, VAlign: plot.AlignTop}
	b := dst.Bounds()
	y := b.Min.Y + 20
	for _, l := range wrapText(msg, b.Dx()-40, ts) {
		plot.DrawText(dst, l, float64(b.Min.X+20), float64(y), ts)
		y += 22
	}
}
