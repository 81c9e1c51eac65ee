package viz

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/viz/draw"
)

// The smallest picture a scene renders into; smaller destinations give an
// error (after being cleared, with a note saying so).
const (
	MinWidth  = 480
	MinHeight = 270
)

// style is the theme of one render, its sizes scaled to the picture: text
// keeps the theme's sizes (14 px ticks, 16 px labels) from about 1000×600 up
// to 1600×900, shrinks on smaller pictures (golden files, thumbnails) and
// grows on larger ones (slides at 1920×1080 and beyond).
type style struct {
	s  float64 // scale factor of text and strokes
	th draw.Theme
}

// scaleFor returns the text scale factor of a w×h picture.
func scaleFor(w, h int) float64 {
	fw, fh := float64(w), float64(h)
	s := math.Min(fw/1000, fh/600)
	if s >= 1 {
		s = math.Max(1, math.Min(fw/1600, fh/900))
	}
	return math.Min(math.Max(s, 0.55), 3)
}

func newStyle(w, h int) style {
	s := scaleFor(w, h)
	th := draw.LightTheme()
	th.TickSize *= s
	th.LabelSize *= s
	th.TitleSize *= s
	th.LineWidth = math.Max(1, th.LineWidth*s)
	return style{s: s, th: th}
}

// px scales a length given for the base size.
func (st style) px(v float64) int { return int(math.Round(v * st.s)) }

// pxf scales a length given for the base size, as a float.
func (st style) pxf(v float64) float64 { return v * st.s }

// text returns a text style of the given base size.
func (st style) text(size float64, f draw.Font, c color.RGBA) draw.TextStyle {
	if c == (color.RGBA{}) {
		c = st.th.Foreground
	}
	return draw.TextStyle{Font: f, Size: size * st.s, Color: c}
}

// body is the text style of explanations: 16 px regular.
func (st style) body() draw.TextStyle { return st.text(16, draw.FontRegular, color.RGBA{}) }

// muted is the style of secondary text: 14 px in the muted colour.
func (st style) muted() draw.TextStyle { return st.text(14, draw.FontRegular, st.th.MutedText) }

// heading is the style of a panel heading: bold at the theme's title size.
func (st style) heading() draw.TextStyle { return st.text(17, draw.FontBold, color.RGBA{}) }

// begin checks dst, clears it and draws the title bar; it returns the style
// and the body of the picture below the bar, inset by a margin.
func begin(dst *image.RGBA, title, subtitle string) (style, image.Rectangle, error) {
	if dst == nil {
		return style{}, image.Rectangle{}, fmt.Errorf("viz: render: nil image")
	}
	b := dst.Bounds()
	st := newStyle(b.Dx(), b.Dy())
	if b.Dx() < MinWidth || b.Dy() < MinHeight {
		draw.FillRect(dst, b, st.th.Background)
		ts := st.muted()
		ts.VAlign = draw.AlignTop
		draw.DrawText(dst, fmt.Sprintf("needs %d×%d", MinWidth, MinHeight), float64(b.Min.X+4), float64(b.Min.Y+4), ts)
		return style{}, image.Rectangle{}, fmt.Errorf("viz: render: %dx%d is smaller than %dx%d", b.Dx(), b.Dy(), MinWidth, MinHeight)
	}
	draw.FillRect(dst, b, st.th.Background)
	body := draw.DrawTitleBar(dst, b, title, subtitle, &st.th)
	return st, draw.Insets{Top: st.px(8), Right: st.px(14), Bottom: st.px(10), Left: st.px(14)}.Apply(body), nil
}

// axes makes axes with the style's theme.
func (st style) axes(r image.Rectangle, x, y draw.Scale, title, xlabel, ylabel string) (*draw.Axes, error) {
	th := st.th
	return draw.NewAxes(r, x, y, draw.AxesOptions{Title: title, XLabel: xlabel, YLabel: ylabel, Theme: &th})
}

// exact formats a value with the shortest text that reads back exactly,
// as fp8 prints values ("448", "0.001953125", "NaN", "+Inf").
func exact(v float64) string { return fp8.Number(v).String() }

// short formats a value with about four significant digits and a
// typographic minus, for labels.
func short(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+∞"
	case math.IsInf(v, -1):
		return draw.Minus + "∞"
	case v == 0:
		return "0"
	}
	if e := math.Log2(math.Abs(v)); e == math.Trunc(e) && math.Abs(e) >= 11 {
		return sign(v) + draw.FormatPow2(int(e))
	}
	a := math.Abs(v)
	var s string
	if a >= 1e-3 && a < 1e6 {
		s = strconv.FormatFloat(v, 'g', 4, 64)
		if strings.ContainsAny(s, "e") {
			s = strconv.FormatFloat(v, 'f', -1, 64)
		}
	} else {
		exp10 := int(math.Floor(math.Log10(a)))
		mant := v / math.Pow(10, float64(exp10))
		s = strconv.FormatFloat(mant, 'f', 2, 64)
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".") + "×" + draw.FormatPow10(exp10)
	}
	return strings.ReplaceAll(s, "-", draw.Minus)
}

// sign returns the typographic minus for negative v.
func sign(v float64) string {
	if v < 0 {
		return draw.Minus
	}
	return ""
}

// pow2Label prints a power of two below 1/8 or above 2^16 as 2ⁿ and any
// other value exactly.
func pow2Label(v float64) string {
	if v > 0 && !math.IsInf(v, 0) {
		if m, e := math.Frexp(v); m == 0.5 && (e-1 <= -3 || e-1 > 16) {
			return pow2(e - 1)
		}
	}
	return strings.Replace(exact(v), "-", draw.Minus, 1)
}

// pow2 labels 2^e.
func pow2(e int) string { return draw.FormatPow2(e) }

// dB formats a signal-to-noise ratio.
func dB(v float64) string {
	switch {
	case math.IsNaN(v):
		return "—"
	case math.IsInf(v, 1):
		return "exact"
	}
	return strings.ReplaceAll(strconv.FormatFloat(v, 'f', 1, 64), "-", draw.Minus) + " dB"
}

// percent formats a fraction as a percentage.
func percent(f float64) string {
	switch {
	case f == 0:
		return "0 %"
	case f < 0.001:
		return strconv.FormatFloat(100*f, 'g', 2, 64) + " %"
	}
	return strconv.FormatFloat(100*f, 'f', 1, 64) + " %"
}

// fact formats a number for Facts: the shortest exact text, with "NaN",
// "+Inf" and "-Inf" for the specials.
func fact(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// textLines draws lines of text top-down from (x, y) and returns the y below
// the last one.
func textLines(dst *image.RGBA, x, y int, lines []string, ts draw.TextStyle, gap int) int {
	ts.VAlign = draw.AlignTop
	for _, l := range lines {
		r := draw.DrawText(dst, l, float64(x), float64(y), ts)
		y = r.Max.Y + gap
	}
	return y
}

// errorPanel writes an error message in r, for a part of a picture that
// cannot be drawn with the current parameters.
func errorPanel(dst *image.RGBA, r image.Rectangle, st style, msg string) {
	draw.FillRect(dst, r, draw.Hex(0xf7f7f7))
	draw.StrokeRect(dst, r, 1, st.th.Grid)
	ts := st.body()
	ts.Color, ts.Align, ts.VAlign = draw.Vermillion, draw.AlignCenter, draw.AlignMiddle
	draw.DrawText(dst, msg, float64(r.Min.X+r.Max.X)/2, float64(r.Min.Y+r.Max.Y)/2, ts)
}

// formatNames returns the names of fp8's presets accepted by pred.
func formatNames(pred func(*fp8.Format) bool) []string {
	var out []string
	for _, f := range fp8.Presets() {
		if pred == nil || pred(f) {
			out = append(out, f.Name())
		}
	}
	return out
}

// hColorBar draws a horizontal colour bar with the style's theme.
func hColorBar(dst *image.RGBA, st style, r image.Rectangle, cm *draw.ColorMap, v draw.Scale, label string) error {
	th := st.th
	return draw.DrawColorBar(dst, r, draw.ColorBarStyle{Map: cm, Value: v, Label: label, Horizontal: true}, &th)
}
