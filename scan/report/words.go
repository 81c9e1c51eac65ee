package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/fp8lab/fp8lab/scan"
)

// The sentences of a report, shared by the CLI's text output and the HTML
// page so that both say the same thing. Each takes esc, the escaping of
// names from the file for where they go (safetext.Text or safetext.HTML).

// orPlain is esc, or no escaping when esc is nil.
func orPlain(esc func(string) string) func(string) string {
	if esc == nil {
		return func(s string) string { return s }
	}
	return esc
}

// Term is one entry of the legend: a column or marker of the report and
// what it means.
type Term struct{ Name, Meaning string }

// Legend explains every column and marker of the text and HTML reports,
// once. The view's dimensions depend on the layout (see scan.Layout).
func Legend() []Term {
	return []Term{
		{"view R×C", "the matrix each tensor is scanned as, the one an FP8 GEMM scales: R rows, one per output channel, of C values, the contraction (input features, times the kernel's taps for a convolution). " +
			"Layout torch: the rows are dim 0 ([out, in] or [out, in/groups, kh, kw]); layout tf: the last dim ([in, out] or [kh, kw, in, out]), or C·multiplier for a kernel named depthwise ([kh, kw, C, multiplier], rows of kh·kw). " +
			"A 1-D tensor or a scalar is one row. Row and block numbers refer to this matrix, counted from 0."},
		{"amax", "the largest finite |x|."},
		{"min|x|>0", "the smallest nonzero |x|."},
		{"range", "log2(amax / min|x|>0): how many binades (factors of 2) the values span."},
		{"zeros", "the share of the values that are exactly zero."},
		{"max/rms (rows [a b c])", fmt.Sprintf("the largest, over rows, of the row's max |x| over the RMS of the whole tensor (about 3 to 5 for Gaussian values, far more when some rows are much larger than the rest, which a per-tensor scale suffers from); the rows listed are the %d with the largest ratios, largest first.", scan.WorstRows)},
		{"NaN, Inf", "non-finite values, counted and left out of every other figure."},
		{"SQNR dB", "10·log10(Σx² / Σ(x − x̂)²) over the whole tensor, x̂ being x quantized and dequantized by the recipe; +Inf: exact, NaN: all zero."},
		{"worst row dB", "the lowest SQNR of a row."},
		{"worst block dB", fmt.Sprintf("the lowest SQNR of a 1×%d block (values %d·k to %d·k+%d of a row). The heatmap and the keep-in-BF16 lists use it: the SQNR of a whole tensor or row is dominated by its largest values and hides the small ones a coarse scale flushes to zero.", scan.MetricsBlock, scan.MetricsBlock, scan.MetricsBlock, scan.MetricsBlock-1)},
		{"overflow %", "values clipped: x·scale rounds beyond the format's largest value."},
		{"underflow %", "nonzero values flushed to zero."},
		{"flushed energy %", "the share of the tensor's Σx² that the flushed values carry: whether the values lost matter."},
		{"subnormal %", "values encoded as nonzero subnormals, which keep fewer significant bits."},
		{"MSE", "the mean of (x − x̂)²."},
		{"scale_inv min, max", "the smallest and largest decode scale (what multiplies a decoded code) over the blocks with a nonzero amax."},
		{"NAME-hadamard", "a recipe applied after a random Hadamard rotation along each row; its figures are measured in the rotated basis."},
	}
}

// Threshold says which measure decides the keep-in-BF16 lists and at what
// level.
func Threshold(min float64) string {
	return fmt.Sprintf("keep in BF16: a tensor whose worst 1×%d block has an SQNR below %.4g dB under the recipe (worst block, not the whole tensor: see the legend), or that the recipe cannot quantize",
		scan.MetricsBlock, min)
}

// LayoutLine says how the tensors were viewed.
func LayoutLine(layout string) string {
	return fmt.Sprintf("layout %s: each tensor is read as a matrix of one row per output channel (the view printed with it)", layout)
}

// WorstText lists a summary's worst tensors, or says why there are none.
func WorstText(names []string, esc func(string) string) string {
	esc = orPlain(esc)
	if len(names) == 0 {
		return "worst: none (every tensor is exact or all zero)"
	}
	return "worst: " + esc(strings.Join(names, ", "))
}

// KeepText lists a summary's tensors to keep in BF16, each with the
// reason: how far its worst block falls below min, or why the recipe
// skipped it.
func KeepText(keep []scan.Keep, min float64, esc func(string) string) string {
	esc = orPlain(esc)
	if len(keep) == 0 {
		return "keep in BF16: none"
	}
	parts := make([]string, len(keep))
	for i, k := range keep {
		if k.Skipped != "" {
			parts[i] = esc(k.Tensor) + " (not quantized: " + esc(k.Skipped) + ")"
			continue
		}
		parts[i] = fmt.Sprintf("%s (worst block %s dB, %s dB below %.4g)", esc(k.Tensor), dB(k.WorstBlockSQNR), dB(min-k.WorstBlockSQNR), min)
	}
	return "keep in BF16: " + strings.Join(parts, ", ")
}

// RiskText lists the tensors a recipe flushes or clips (what, "flushed"
// or "clipped"), with the share of values and of energy, or "" when
// there are none.
func RiskText(what string, risks []scan.Risk, esc func(string) string) string {
	esc = orPlain(esc)
	if len(risks) == 0 {
		return ""
	}
	parts := make([]string, len(risks))
	for i, r := range risks {
		parts[i] = fmt.Sprintf("%s (%s%% of values, %s%% of energy)", esc(r.Tensor), pct(r.Values), pct(r.Energy))
	}
	return what + ": " + strings.Join(parts, ", ")
}

// RiskIntro introduces the lists of flushed and clipped tensors.
func RiskIntro() string {
	return fmt.Sprintf("Range risks: tensors of which a recipe flushes at least %.4g%% of the values to zero, or clips any, with the share of the tensor's energy (Σx²) those values carry, to judge whether they matter.", scan.FlushRisk)
}

// Tensors counts tensors: "1 tensor", "5 tensors".
func Tensors(n int) string {
	if n == 1 {
		return "1 tensor"
	}
	return fmt.Sprintf("%d tensors", n)
}

// dB writes a level in dB with one decimal.
func dB(v float64) string { return fmt.Sprintf("%.1f", v) }

// pct writes a percentage with enough digits to tell small ones apart.
func pct(v float64) string {
	switch {
	case v == 0:
		return "0"
	case math.Abs(v) < 0.01:
		return fmt.Sprintf("%.2g", v)
	case math.Abs(v) < 10:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.1f", v)
}
