// Package report renders a scan.Report as HTML: a heatmap of tensors ×
// recipes coloured by worst-block SQNR, the summary, the whole table and a
// histogram per tensor against the format window (inline SVG). The CLI's
// offline report (fp8lab scan --html) is Page; the playground's Scan page
// shows Body, so both draw the same figures from the same code.
package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/internal/safetext"
	"github.com/fp8lab/fp8lab/scan"
)

// Columns names the columns of the table, one row per tensor × recipe ×
// format; the CLI's CSV report has the same columns.
var Columns = []string{"file", "tensor", "dtype", "shape", "view", "amax", "min_nonzero", "dynamic_range_binades", "zeros",
	"nan", "inf", "outlier_max_over_rms", "recipe", "format", "scale_inv_min", "scale_inv_max", "overflow_pct", "overflow_energy_pct",
	"underflow_pct", "underflow_energy_pct", "subnormal_pct", "mse", "sqnr_db", "worst_row_sqnr_db", "worst_row", "worst_block_sqnr_db", "worst_block", "skipped"}

// textColumns are the Columns the table shows as text (left-aligned).
var textColumns = map[string]bool{"file": true, "tensor": true, "dtype": true, "shape": true, "view": true, "recipe": true, "format": true, "skipped": true}

// Page renders the report as one self-contained, offline HTML page (no
// scripts, fonts or links) around Body, styled by CSS.
func Page(rep *scan.Report) []byte {
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>fp8lab scan</title><style>
body{font:13px system-ui,sans-serif;margin:1.5em}`)
	b.WriteString(CSS())
	b.WriteString(`</style></head><body><h1>fp8lab scan</h1>`)
	b.WriteString(Body(rep))
	b.WriteString("</body></html>\n")
	return []byte(b.String())
}

// heatSteps is how many hues the heatmap uses, from red (0) to green
// (heatSteps-1): a class per hue rather than a style attribute, so that a
// page whose Content-Security-Policy forbids inline styles shows it too.
const heatSteps = 13

// CSS is the style sheet of Body: the tables and the heatmap's colours.
// Page embeds it; the playground serves it as a file.
func CSS() string {
	var b strings.Builder
	b.WriteString(`.scan-report table{border-collapse:collapse}.scan-report td,.scan-report th{padding:2px 6px;border:1px solid #ccc;text-align:right;white-space:nowrap}
.scan-report th{background:#f4f4f4}.scan-report td.n{text-align:left}.scan-report .wide{overflow-x:auto;max-width:100%}
.scan-report svg.hist{max-width:100%;height:auto}.scan-report td.heat-nan{background:#eee}
.scan-report table.heatmap th{white-space:normal;font-weight:normal}.scan-report table.heatmap th:first-child{text-align:left}.scan-report table.heatmap td.n{white-space:normal;overflow-wrap:anywhere;max-width:32em;min-width:12em}
.scan-report dl.legend dt{font-weight:bold;margin-top:.4em}.scan-report dl.legend dd{margin-left:1.5em;max-width:60em}
`)
	for k := 0; k < heatSteps; k++ {
		fmt.Fprintf(&b, ".scan-report td.heat%d{background:hsl(%.0f,70%%,75%%)}\n", k, 120*float64(k)/(heatSteps-1))
	}
	return b.String()
}

// MaxPageRows bounds the page Body draws: its heatmap, table and
// histograms show the tensors in scan order until their table rows (one
// per result, one for a skipped tensor) would pass MaxPageRows, and the
// page says how many tensors it leaves out. The summary covers them all.
// 5,000 rows keep a page under 24 MiB (TestPageBudget): a checkpoint of
// 100,000 tensors wrote a 356 MB page before.
const MaxPageRows = 5_000

// shown is how many of the report's tensors the page draws.
func shown(rep *scan.Report) int {
	rows := 0
	for i, t := range rep.Tensors {
		if rows += max(1, len(t.Results)); rows > MaxPageRows {
			return i
		}
	}
	return len(rep.Tensors)
}

// Body renders the report without the page around it: the account of what
// was scanned, the heatmap, the summary, the table and the histograms
// (within MaxPageRows); nil is an empty report. The heatmap's and the table's rows carry the
// tensor's name in data-tensor, so a page can make them clickable. Names
// from the file are escaped for the page, control characters included
// (internal/safetext).
func Body(rep *scan.Report) string {
	if rep == nil {
		rep = &scan.Report{} // an empty report
	}
	var b strings.Builder
	b.WriteString(`<div class="scan-report">`)
	fmt.Fprintf(&b, "<p>%s; recipes %s; formats %s; %s; %s (see the legend at the end).", Tensors(len(rep.Tensors)),
		safetext.HTML(strings.Join(rep.Recipes, ", ")), safetext.HTML(strings.Join(rep.Formats, ", ")),
		safetext.HTML(LayoutLine(rep.Layout)), safetext.HTML(Threshold(rep.MinSQNR)))
	if rep.Interrupted {
		b.WriteString(" <b>Interrupted: partial report.</b>")
	}
	all := rep.Tensors
	if n := shown(rep); n < len(all) {
		fmt.Fprintf(&b, " <b>This page shows the first %d of the %d tensors</b> (at most %d table rows); the summary covers them all, and the JSON and CSV reports list them all.",
			n, len(all), MaxPageRows)
		// A shallow copy that draws only the first n.
		cut := *rep
		cut.Tensors = all[:n]
		rep = &cut
	}
	b.WriteString(`</p><h2>Worst-block SQNR (dB)</h2><div class="wide"><table class="heatmap"><tr><th>tensor</th>`)
	var cols []string
	for _, t := range rep.Tensors {
		for _, r := range t.Results {
			if c := r.Recipe + " " + r.Format; !slices.Contains(cols, c) {
				cols = append(cols, c)
			}
		}
	}
	for _, c := range cols {
		recipe, format, _ := strings.Cut(c, " ")
		fmt.Fprintf(&b, "<th>%s<br>%s</th>", safetext.HTML(recipe), safetext.HTML(format))
	}
	b.WriteString("</tr>")
	for _, t := range rep.Tensors {
		fmt.Fprintf(&b, `<tr data-tensor="%s"><td class=n>%s</td>`, safetext.HTMLAttr(t.Name), safetext.HTML(t.Name))
		for _, c := range cols {
			cell := "<td></td>"
			for _, r := range t.Results {
				if r.Recipe+" "+r.Format == c {
					cell = fmt.Sprintf(`<td class="%s">%.1f</td>`, heat(r.WorstBlockSQNR, rep.MinSQNR), r.WorstBlockSQNR)
					if r.Skipped != "" {
						cell = "<td>skipped</td>"
					}
				}
			}
			b.WriteString(cell)
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</table></div><h2>Summary</h2>")
	fmt.Fprintf(&b, "<p>%s.</p><ul>", safetext.HTML(Threshold(rep.MinSQNR)))
	risky := false
	for _, s := range rep.Summary {
		fmt.Fprintf(&b, "<li>%s %s: %s; %s</li>", safetext.HTML(s.Recipe), safetext.HTML(s.Format),
			WorstText(s.Worst, safetext.HTML), KeepText(s.KeepBF16, rep.MinSQNR, safetext.HTML))
		risky = risky || len(s.Flushed)+len(s.Clipped) > 0
	}
	b.WriteString("</ul>")
	if risky {
		fmt.Fprintf(&b, "<p>%s</p><ul>", safetext.HTML(RiskIntro()))
		for _, s := range rep.Summary {
			for _, l := range []string{RiskText("flushed", s.Flushed, safetext.HTML), RiskText("clipped", s.Clipped, safetext.HTML)} {
				if l != "" {
					fmt.Fprintf(&b, "<li>%s %s: %s</li>", safetext.HTML(s.Recipe), safetext.HTML(s.Format), l)
				}
			}
		}
		b.WriteString("</ul>")
	}
	b.WriteString(`<h2>Table</h2><div class="wide"><table class="scan-table"><tr>`)
	for _, h := range Columns {
		fmt.Fprintf(&b, "<th>%s</th>", h)
	}
	b.WriteString("</tr>")
	for _, t := range rep.Tensors {
		for _, r := range t.Results {
			vals := []string{t.File, t.Name, t.DType, Shape(t.Shape), t.View, G4(t.Amax), G4(t.MinNonZero), G4(t.DynamicRange), G4(t.Zeros),
				fmt.Sprint(t.NaN), fmt.Sprint(t.Inf), G4(t.Outlier), r.Recipe, r.Format, G4(r.ScaleInvMin), G4(r.ScaleInvMax), G4(r.Overflow),
				G4(r.OverflowEnergy), G4(r.Underflow), G4(r.UnderflowEnergy), G4(r.Subnormal), G4(r.MSE), G4(r.SQNR), G4(r.WorstRowSQNR),
				fmt.Sprint(r.WorstRow), G4(r.WorstBlockSQNR), fmt.Sprint(r.WorstBlock), r.Skipped}
			fmt.Fprintf(&b, `<tr data-tensor="%s">`, safetext.HTMLAttr(t.Name))
			for k, v := range vals {
				cls := ""
				if textColumns[Columns[k]] {
					cls = " class=n"
				}
				fmt.Fprintf(&b, "<td%s>%s</td>", cls, safetext.HTML(v))
			}
			b.WriteString("</tr>")
		}
	}
	b.WriteString("</table></div><h2>Histograms</h2><p>log2|x| of each tensor's finite nonzero values (bar height: square root of the count) against each format's window under the tensorwise scale: [smallest positive value, Max] × scale_inv. Right of the window is clipped, left of it flushed to zero.</p>")
	for _, t := range rep.Tensors {
		fmt.Fprintf(&b, "<h3>%s</h3><p>%s %s, view %s</p>", safetext.HTML(t.Name), safetext.HTML(t.DType), Shape(t.Shape), safetext.HTML(t.View))
		if t.Skipped != "" {
			fmt.Fprintf(&b, "<p>skipped: %s</p>", safetext.HTML(t.Skipped))
			continue
		}
		b.WriteString(histogramSVG(t))
	}
	b.WriteString(`<h2>Legend</h2><dl class="legend">`)
	for _, term := range Legend() {
		fmt.Fprintf(&b, "<dt>%s</dt><dd>%s</dd>", safetext.HTML(term.Name), safetext.HTML(term.Meaning))
	}
	b.WriteString("</dl></div>")
	return b.String()
}

// G4 formats a statistic as the table prints it: four significant digits.
func G4(v float64) string { return fmt.Sprintf("%.4g", v) }

// Shape writes a tensor's shape as "[2 3]".
func Shape(s []int64) string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = strconv.FormatInt(d, 10)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// heat is the class that colours an SQNR: red at or below 0 dB, through
// the threshold (below it, no greener than 30% of the way), to green at
// 40 dB and above.
func heat(db, threshold float64) string {
	if math.IsNaN(db) {
		return "heat-nan"
	}
	f := math.Max(0, math.Min(1, db/40))
	if db < threshold {
		f = math.Min(f, 0.3)
	}
	return fmt.Sprintf("heat%d", int(math.Round(f*(heatSteps-1))))
}
