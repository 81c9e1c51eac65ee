package plot

import (
	"fmt"
	"image"
	"math"
	"strings"
)

// Insets are distances from the edges of a rectangle, in pixels.
type Insets struct{ Top, Right, Bottom, Left int }

// UniformInsets returns Insets of d on every side.
func UniformInsets(d int) Insets { return Insets{d, d, d, d} }

// Apply shrinks r by the insets; a result that would be inverted collapses
// to an empty rectangle at its centre.
func (in Insets) Apply(r image.Rectangle) image.Rectangle {
	r = r.Canon()
	out := image.Rectangle{
		Min: image.Pt(r.Min.X+in.Left, r.Min.Y+in.Top),
		Max: image.Pt(r.Max.X-in.Right, r.Max.Y-in.Bottom),
	}
	if out.Min.X > out.Max.X {
		c := (out.Min.X + out.Max.X) / 2
		out.Min.X, out.Max.X = c, c
	}
	if out.Min.Y > out.Max.Y {
		c := (out.Min.Y + out.Max.Y) / 2
		out.Min.Y, out.Max.Y = c, c
	}
	return out
}

// Inset shrinks r by d pixels on every side (negative d grows it).
func Inset(r image.Rectangle, d int) image.Rectangle { return UniformInsets(d).Apply(r) }

// GridCells splits r into rows x cols equal cells separated by gap pixels,
// returned row by row. Leftover pixels from uneven division are spread so
// that cell sizes differ by at most one. It fails if rows or cols is not
// positive, gap is negative, or the cells would be empty.
func GridCells(r image.Rectangle, rows, cols, gap int) ([]image.Rectangle, error) {
	if rows <= 0 || cols <= 0 {
		return nil, fmt.Errorf("plot: grid %dx%d: %w", rows, cols, ErrBadArgument)
	}
	ys, err := SplitRows(r, gap, equalWeights(rows)...)
	if err != nil {
		return nil, err
	}
	xs, err := SplitColumns(r, gap, equalWeights(cols)...)
	if err != nil {
		return nil, err
	}
	cells := make([]image.Rectangle, 0, rows*cols)
	for _, y := range ys {
		for _, x := range xs {
			cells = append(cells, image.Rect(x.Min.X, y.Min.Y, x.Max.X, y.Max.Y))
		}
	}
	return cells, nil
}

func equalWeights(n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = 1
	}
	return w
}

// splitSpan divides the interval [lo, hi) into len(weights) parts
// proportional to the weights, gap pixels apart, and returns their bounds.
func splitSpan(lo, hi, gap int, weights []float64) ([][2]int, error) {
	n := len(weights)
	if n == 0 {
		return nil, fmt.Errorf("plot: split: %w: no weights", ErrEmptyData)
	}
	if gap < 0 {
		return nil, fmt.Errorf("plot: split: %w: negative gap %d", ErrBadArgument, gap)
	}
	total := 0.0
	for _, w := range weights {
		if !(w > 0) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("plot: split: %w: weight %g", ErrBadArgument, w)
		}
		total += w
	}
	avail := hi - lo - gap*(n-1)
	if avail < n {
		return nil, fmt.Errorf("plot: split %d px into %d parts with gap %d: %w", hi-lo, n, gap, ErrTooSmall)
	}
	out := make([][2]int, n)
	cum := 0.0
	start := lo
	for i, w := range weights {
		cum += w
		end := lo + int(math.Round(cum/total*float64(avail))) + i*gap
		if i == n-1 {
			end = hi
		}
		out[i] = [2]int{start, max(end, start)}
		start = end + gap
	}
	return out, nil
}

// SplitColumns splits r into side-by-side columns with widths proportional
// to weights, gap pixels apart.
func SplitColumns(r image.Rectangle, gap int, weights ...float64) ([]image.Rectangle, error) {
	r = r.Canon()
	spans, err := splitSpan(r.Min.X, r.Max.X, gap, weights)
	if err != nil {
		return nil, err
	}
	out := make([]image.Rectangle, len(spans))
	for i, s := range spans {
		out[i] = image.Rect(s[0], r.Min.Y, s[1], r.Max.Y)
	}
	return out, nil
}

// SplitRows splits r into stacked rows with heights proportional to
// weights, gap pixels apart, top to bottom.
func SplitRows(r image.Rectangle, gap int, weights ...float64) ([]image.Rectangle, error) {
	r = r.Canon()
	spans, err := splitSpan(r.Min.Y, r.Max.Y, gap, weights)
	if err != nil {
		return nil, err
	}
	out := make([]image.Rectangle, len(spans))
	for i, s := range spans {
		out[i] = image.Rect(r.Min.X, s[0], r.Max.X, s[1])
	}
	return out, nil
}

// TitleBar splits r into a bar of the given height at the top and the body
// below it. The height is clamped to r's height.
func TitleBar(r image.Rectangle, height int) (bar, body image.Rectangle) {
	r = r.Canon()
	height = min(max(height, 0), r.Dy())
	return image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+height),
		image.Rect(r.Min.X, r.Min.Y+height, r.Max.X, r.Max.Y)
}

// thumbnailText is the label size under which a title bar is a
// thumbnail's, too small to read, and keeps its one line.
const thumbnailText = 12

// DrawTitleBar draws a title bar across the top of r, with title in bold
// and subtitle (if any) in muted text after it, a thin rule underneath, and
// returns the body of r below the bar. When both do not fit on one line
// (a narrow picture, a long subtitle), the subtitle goes on the lines
// below the title, and each is wrapped at spaces to r's width, so nothing
// is clipped (unless the wrapped bar would take more than a sixth of r's
// height, or the text is a thumbnail's, under thumbnailText pixels: those
// keep one line); the bar is as tall as its lines plus padding.
func DrawTitleBar(dst *image.RGBA, r image.Rectangle, title, subtitle string, th *Theme) image.Rectangle {
	t := themeOrDefault(th)
	ts := t.titleStyle()
	ts.Size = t.TitleSize * 1.2
	ts.VAlign = AlignTop
	ss := t.labelStyle()
	ss.Color, ss.VAlign = t.MutedText, AlignTop
	x, width := r.Min.X+2*outerPad, r.Dx()-4*outerPad
	th1 := MeasureText(title, ts)
	h := th1.Height() + 2*outerPad
	sub := MeasureText(subtitle, ss)
	tl, sl := WrapText(title, width, ts), WrapText(subtitle, width, ss)
	wrapped := len(tl)*th1.Height() + outerPad/2 + len(sl)*sub.Height() + 2*outerPad
	if subtitle == "" || th1.Width+3*outerPad+sub.Width <= width || wrapped > r.Dy()/6 || ss.Size < thumbnailText {
		bar, body := TitleBar(r, h+1)
		FillRect(dst, bar, t.Background)
		cy := float64(bar.Min.Y) + float64(h)/2
		ts.VAlign, ss.VAlign = AlignMiddle, AlignMiddle
		box := DrawText(dst, title, float64(x), cy, ts)
		if subtitle != "" {
			sx := box.Max.X + 3*outerPad
			DrawText(dst, shortened(subtitle, ss, x+width-sx), float64(sx), cy, ss)
		}
		HLine(dst, bar.Min.X, bar.Max.X-1, bar.Max.Y-1, t.Grid)
		return body
	}
	tlh, slh := th1.Height(), sub.Height()
	bar, body := TitleBar(r, wrapped+1)
	FillRect(dst, bar, t.Background)
	y := bar.Min.Y + outerPad
	for _, l := range tl {
		DrawText(dst, l, float64(x), float64(y), ts)
		y += tlh
	}
	y += outerPad / 2
	for _, l := range sl {
		DrawText(dst, l, float64(x), float64(y), ss)
		y += slh
	}
	HLine(dst, bar.Min.X, bar.Max.X-1, bar.Max.Y-1, t.Grid)
	return body
}

// shortened returns s, or as many of its first words as fit width pixels
// in style st followed by "…", or "" if not even one does: a subtitle on a
// thumbnail ends in an ellipsis rather than at the picture's edge.
func shortened(s string, st TextStyle, width int) string {
	if MeasureText(s, st).Width <= width {
		return s
	}
	words := strings.Fields(s)
	for n := len(words) - 1; n > 0; n-- {
		if t := strings.Join(words[:n], " ") + " …"; MeasureText(t, st).Width <= width {
			return t
		}
	}
	return ""
}
