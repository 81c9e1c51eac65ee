package main

import (
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/fp8lab/fp8lab/scan"
)

// scanHTML renders the report as one self-contained, offline HTML page
// (no scripts, fonts or links): a heatmap of tensors × recipes coloured by
// worst-block SQNR (the figure the summary ranks by), the whole table, and
// the summary, and a histogram per tensor against the format window
// (inline SVG, see histogramSVG).
func scanHTML(rep *scan.Report) []byte {
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><meta charset="utf-8"><title>fp8lab scan</title><style>
body{font:13px system-ui,sans-serif;margin:1.5em}table{border-collapse:collapse}td,th{padding:2px 6px;border:1px solid #ccc;text-align:right}
th{background:#f4f4f4}td.n{text-align:left}.wide{overflow-x:auto;max-width:100%}</style></head><body><h1>fp8lab scan</h1>`)
	fmt.Fprintf(&b, "<p>%d tensors; recipes %s; formats %s; keep in BF16 below %.4g dB worst-block SQNR.", len(rep.Tensors),
		html.EscapeString(strings.Join(rep.Recipes, ", ")), html.EscapeString(strings.Join(rep.Formats, ", ")), rep.MinSQNR)
	if rep.Interrupted {
		b.WriteString(" <b>Interrupted: partial report.</b>")
	}
	b.WriteString("</p><h2>Worst-block SQNR (dB)</h2><table><tr><th>tensor</th>")
	var cols []string
	for _, t := range rep.Tensors {
		for _, r := range t.Results {
			c := r.Recipe + " " + r.Format
			if !contains(cols, c) {
				cols = append(cols, c)
			}
		}
	}
	for _, c := range cols {
		fmt.Fprintf(&b, "<th>%s</th>", html.EscapeString(c))
	}
	b.WriteString("</tr>")
	for _, t := range rep.Tensors {
		fmt.Fprintf(&b, "<tr><td class=n>%s</td>", html.EscapeString(t.Name))
		for _, c := range cols {
			cell := "<td></td>"
			for _, r := range t.Results {
				if r.Recipe+" "+r.Format == c {
					cell = fmt.Sprintf(`<td style="background:%s">%.1f</td>`, heat(r.WorstBlockSQNR, rep.MinSQNR), r.WorstBlockSQNR)
					if r.Skipped != "" {
						cell = "<td>skipped</td>"
					}
				}
			}
			b.WriteString(cell)
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</table><h2>Summary</h2><ul>")
	for _, s := range rep.Summary {
		fmt.Fprintf(&b, "<li>%s %s: worst %s; keep in BF16: %s</li>", html.EscapeString(s.Recipe), html.EscapeString(s.Format),
			html.EscapeString(strings.Join(s.Worst, ", ")), html.EscapeString(keepList(s.KeepBF16)))
	}
	b.WriteString(`</ul><h2>Table</h2><div class="wide"><table><tr>`)
	for _, h := range scanCSVHeader {
		fmt.Fprintf(&b, "<th>%s</th>", h)
	}
	b.WriteString("</tr>")
	for _, t := range rep.Tensors {
		for _, r := range t.Results {
			vals := []string{t.File, t.Name, t.DType, shapeString(t.Shape), g4(t.Amax), g4(t.MinNonZero), g4(t.DynamicRange), g4(t.Zeros),
				fmt.Sprint(t.NaN), fmt.Sprint(t.Inf), g4(t.Outlier), r.Recipe, r.Format, g4(r.ScaleInvMin), g4(r.ScaleInvMax), g4(r.Overflow),
				g4(r.Underflow), g4(r.Subnormal), g4(r.MSE), g4(r.SQNR), g4(r.WorstRowSQNR), fmt.Sprint(r.WorstRow), g4(r.WorstBlockSQNR),
				fmt.Sprint(r.WorstBlock), r.Skipped}
			b.WriteString("<tr>")
			for k, v := range vals {
				cls := ""
				if k < 4 || k == 11 || k == 12 {
					cls = " class=n"
				}
				fmt.Fprintf(&b, "<td%s>%s</td>", cls, html.EscapeString(v))
			}
			b.WriteString("</tr>")
		}
	}
	b.WriteString("</table></div><h2>Histograms</h2><p>log2|x| of each tensor's finite nonzero values (bar height: square root of the count) against each format's window under the tensorwise scale: [smallest positive value, Max] × scale_inv. Right of the window is clipped, left of it flushed to zero.</p>")
	for _, t := range rep.Tensors {
		fmt.Fprintf(&b, "<h3>%s</h3>", html.EscapeString(t.Name))
		if t.Skipped != "" {
			fmt.Fprintf(&b, "<p>skipped: %s</p>", html.EscapeString(t.Skipped))
			continue
		}
		b.WriteString(histogramSVG(t))
	}
	b.WriteString("</body></html>\n")
	return []byte(b.String())
}

func g4(v float64) string { return fmt.Sprintf("%.4g", v) }

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// heat colours an SQNR: red at or below 0 dB, through the threshold, to
// green at 40 dB and above.
func heat(db, threshold float64) string {
	if math.IsNaN(db) {
		return "#eee"
	}
	f := math.Max(0, math.Min(1, db/40))
	if db < threshold {
		f = math.Min(f, 0.3)
	}
	return fmt.Sprintf("hsl(%.0f,70%%,75%%)", 120*f)
}
