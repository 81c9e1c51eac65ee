package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/internal/safetext"
	"github.com/fp8lab/fp8lab/scan"
)

// SVG geometry of a histogram: the plot area starts at (histLeft, histTop)
// and is histW×histH; labels go below it.
const (
	histLeft, histTop = 8.0, 6.0
	histW, histH      = 480.0, 90.0
	histHeight        = 120
)

// histogramSVG draws t's binade histogram (bars: how many finite nonzero
// |x| lie in [2^e, 2^(e+1)), on a square-root scale so that sparse bins
// stay visible) against the window of each format under the tensorwise
// scale: a shaded band from the smallest positive value to Max, both
// times scale_inv. Values right of the band are clipped, values left of
// it flushed to zero. The window edges are also in the svg element's
// data-window-* attributes (exact, shortest round-trip form).
func histogramSVG(t scan.TensorStats) string {
	h := t.Histogram
	lo, hi := float64(h.Lo), float64(h.Hi()+1)
	if len(h.Counts) == 0 {
		lo, hi = 0, 1
	}
	for _, w := range t.Windows {
		lo = math.Min(lo, math.Floor(math.Log2(w.Lo)))
		hi = math.Max(hi, math.Ceil(math.Log2(w.Hi)))
	}
	lo, hi = lo-1, hi+1
	x := func(binade float64) float64 { return histLeft + (binade-lo)/(hi-lo)*histW }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="hist" data-tensor="%s" width="%.0f" height="%d" viewBox="0 0 %.0f %d"`,
		safetext.HTMLAttr(t.Name), histLeft*2+histW, histHeight, histLeft*2+histW, histHeight)
	for _, w := range t.Windows {
		f := strings.ToLower(w.Format)
		fmt.Fprintf(&b, ` data-window-%s-lo="%s" data-window-%s-hi="%s"`, f, exact(w.Lo), f, exact(w.Hi))
	}
	b.WriteString(` role="img">`)
	fmt.Fprintf(&b, "<title>%s: log2|x| histogram against the format window</title>", safetext.HTML(t.Name))
	colors := []string{"#4a90d9", "#d98a4a", "#5aa55a", "#a55aa5"}
	for k, w := range t.Windows {
		c := colors[k%len(colors)]
		x0, x1 := x(math.Log2(w.Lo)), x(math.Log2(w.Hi))
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" fill-opacity="0.15" stroke="%s"><title>%s window [%s, %s]</title></rect>`,
			x0, histTop, x1-x0, histH, c, c, safetext.HTML(w.Format), G4(w.Lo), G4(w.Hi))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="10" fill="%s">%s</text>`, x0+2, histTop+10+11*float64(k), c, safetext.HTML(w.Format))
	}
	peak := 0
	for _, c := range h.Counts {
		peak = max(peak, c)
	}
	for k, c := range h.Counts {
		if c == 0 {
			continue
		}
		e := float64(h.Lo + k)
		bh := histH * math.Sqrt(float64(c)/float64(peak))
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#333"><title>2^%d: %d</title></rect>`,
			x(e), histTop+histH-bh, math.Max(x(e+1)-x(e)-0.5, 0.5), bh, h.Lo+k, c)
	}
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#999"/>`, histLeft, histTop+histH, histLeft+histW, histTop+histH)
	step := math.Max(1, math.Ceil((hi-lo)/10))
	for e := math.Ceil(lo/step) * step; e <= hi; e += step {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="9" text-anchor="middle">2^%.0f</text>`, x(e), histTop+histH+12, e)
	}
	if len(h.Counts) == 0 {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="11">no nonzero finite values</text>`, histLeft+4, histTop+histH/2)
	}
	b.WriteString("</svg>")
	return b.String()
}

// exact formats v in the shortest form that parses back to v.
func exact(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
