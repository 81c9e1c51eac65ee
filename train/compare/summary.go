package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/fp8lab/fp8lab/train"
)

// Row summarizes one recipe's runs over the seeds.
type Row struct {
	Recipe string `json:"recipe"`
	Seeds  int    `json:"seeds"` // runs that finished
	// Final validation loss (nats per byte): mean, sample standard
	// deviation, smallest and largest over the seeds.
	ValMean float64 `json:"val_mean"`
	ValStd  float64 `json:"val_std"`
	ValMin  float64 `json:"val_min"`
	ValMax  float64 `json:"val_max"`
	// Perplexity per byte, exp(validation loss): of the mean loss, and of
	// the smallest and largest.
	PPL    float64 `json:"ppl"`
	PPLMin float64 `json:"ppl_min"`
	PPLMax float64 `json:"ppl_max"`
	// GapPct is the mean final validation loss relative to the baseline's,
	// in percent (0 for the baseline itself).
	GapPct float64 `json:"gap_pct"`
	// PPLGapPct is the same for the perplexity of the mean losses.
	PPLGapPct float64 `json:"ppl_gap_pct"`
	// Reach is the first evaluated step at which the mean validation loss
	// over the seeds is at most the baseline's final mean; 0 if never.
	Reach int `json:"reach"`
	// Overflow and Underflow are summed over every operand, product,
	// layer, step and seed.
	Overflow  int64 `json:"overflow"`
	Underflow int64 `json:"underflow"`
	// Finals are the final validation losses seed by seed, in the order of
	// the set's seeds, and TrainFinals their final training losses
	// (FinalTrain); nil unless every seed finished.
	Finals      []float64 `json:"finals,omitempty"`
	TrainFinals []float64 `json:"train_finals,omitempty"`
	// Diverged counts the runs an Inf or a NaN stopped (train.NonFiniteError),
	// and DivergedAt is the earliest step one stopped at.
	Diverged   int `json:"diverged,omitempty"`
	DivergedAt int `json:"diverged_at,omitempty"`
	// Curve is the mean validation loss over the seeds at each evaluated step.
	Curve []train.EvalPoint `json:"curve"`
	// Seconds is the mean wall time of a run.
	Seconds float64 `json:"seconds"`
}

// MarshalJSON writes the row with its numbers that are not finite (a
// recipe without a finished run has NaNs, see Summarize) as 0: JSON has
// no NaN, and Seeds 0 says there is nothing to read.
func (r Row) MarshalJSON() ([]byte, error) {
	type plain Row
	p := plain(r)
	for _, v := range []*float64{&p.ValMean, &p.ValStd, &p.ValMin, &p.ValMax, &p.PPL, &p.PPLMin, &p.PPLMax,
		&p.GapPct, &p.PPLGapPct, &p.Seconds} {
		if math.IsNaN(*v) || math.IsInf(*v, 0) {
			*v = 0
		}
	}
	return json.Marshal(p)
}

// Summary is the comparison table.
type Summary struct {
	Baseline string `json:"baseline"`
	Rows     []Row  `json:"rows"`
}

// Row returns the row of a recipe, or nil.
func (s *Summary) Row(recipe string) *Row {
	if s == nil {
		return nil
	}
	for i := range s.Rows {
		if s.Rows[i].Recipe == recipe {
			return &s.Rows[i]
		}
	}
	return nil
}

// DefaultBaseline returns bf16 when it is among the recipes, else fp32,
// else the first recipe.
func DefaultBaseline(recipes []string) string {
	for _, want := range []string{"bf16", "fp32"} {
		for _, r := range recipes {
			if r == want {
				return r
			}
		}
	}
	if len(recipes) == 0 {
		return ""
	}
	return recipes[0]
}

// Summarize computes the table of a set against the baseline recipe
// (DefaultBaseline when empty). Runs that did not finish (cut short or
// never started) are left out; a recipe without a finished run has a row
// of NaNs.
func Summarize(set *Set, baseline string) (*Summary, error) {
	if set == nil {
		return nil, fmt.Errorf("compare: no runs to summarize")
	}
	if baseline == "" {
		baseline = DefaultBaseline(set.Recipes)
	}
	sum := &Summary{Baseline: baseline}
	for i, name := range set.Recipes {
		row := Row{Recipe: name}
		var finals, trainFinals []float64
		var curves [][]train.EvalPoint
		for j := range set.Seeds {
			r := set.Run(i, j)
			if r != nil && r.Diverged != nil {
				row.Diverged++
				if row.DivergedAt == 0 || r.Diverged.Step < row.DivergedAt {
					row.DivergedAt = r.Diverged.Step
				}
			}
			if r == nil || len(r.Val) == 0 || len(r.TrainLoss) != set.Steps {
				continue
			}
			finals = append(finals, r.FinalVal())
			trainFinals = append(trainFinals, FinalTrain(r))
			curves = append(curves, r.Val)
			row.Seconds += r.Seconds
			for _, sp := range r.Stats {
				for _, o := range sp.Operands {
					row.Overflow += o.Overflow
					row.Underflow += o.Underflow
				}
			}
		}
		row.Seeds = len(finals)
		if row.Seeds == len(set.Seeds) {
			row.Finals, row.TrainFinals = finals, trainFinals
		}
		row.ValMean, row.ValStd, row.ValMin, row.ValMax = stats(finals)
		row.PPL, row.PPLMin, row.PPLMax = math.Exp(row.ValMean), math.Exp(row.ValMin), math.Exp(row.ValMax)
		if row.Seeds > 0 {
			row.Seconds /= float64(row.Seeds)
			row.Curve = meanCurve(curves)
		}
		sum.Rows = append(sum.Rows, row)
	}
	base := sum.Row(baseline)
	if base == nil {
		return nil, fmt.Errorf("compare: baseline %q is not among the recipes", baseline)
	}
	for i := range sum.Rows {
		r := &sum.Rows[i]
		r.GapPct = 100 * (r.ValMean - base.ValMean) / base.ValMean
		r.PPLGapPct = 100 * (r.PPL - base.PPL) / base.PPL
		for _, p := range r.Curve {
			if p.Loss <= base.ValMean {
				r.Reach = p.Step
				break
			}
		}
	}
	return sum, nil
}

// stats returns the mean, sample standard deviation (0 for one value),
// minimum and maximum; NaNs for no values.
func stats(v []float64) (mean, std, lo, hi float64) {
	if len(v) == 0 {
		n := math.NaN()
		return n, n, n, n
	}
	lo, hi = v[0], v[0]
	for _, x := range v {
		mean += x
		lo, hi = min(lo, x), max(hi, x)
	}
	mean /= float64(len(v))
	if len(v) > 1 {
		for _, x := range v {
			std += (x - mean) * (x - mean)
		}
		std = math.Sqrt(std / float64(len(v)-1))
	}
	return mean, std, lo, hi
}

// meanCurve averages curves evaluated at the same steps (the shortest
// length if they differ).
func meanCurve(curves [][]train.EvalPoint) []train.EvalPoint {
	n := len(curves[0])
	for _, c := range curves {
		n = min(n, len(c))
	}
	out := make([]train.EvalPoint, n)
	for k := range n {
		out[k].Step = curves[0][k].Step
		for _, c := range curves {
			out[k].Loss += c[k].Loss
		}
		out[k].Loss /= float64(len(curves))
	}
	return out
}

// Cell formats used by WriteTable; tests and reports format the same way.
const (
	LossFmt = "%.4f"
	PPLFmt  = "%.3f"
	GapFmt  = "%+.2f%%"
)

// Cells returns a row's table cells: recipe, validation loss (mean ± std
// [min, max]), perplexity [min, max], gap to the baseline, the step at
// which it reaches the baseline's final loss ("—" if never), overflow and
// underflow totals.
func (r *Row) Cells() []string {
	if r == nil {
		return nil
	}
	reach := "—"
	if r.Reach > 0 {
		reach = fmt.Sprint(r.Reach)
	}
	name := r.Recipe
	if r.Diverged > 0 {
		name += fmt.Sprintf(" (%d stopped by Inf/NaN, the first at step %d)", r.Diverged, r.DivergedAt)
	}
	if r.Seeds == 0 {
		return []string{name, "—", "—", "—", reach, fmt.Sprint(r.Overflow), fmt.Sprint(r.Underflow)}
	}
	return []string{
		name,
		fmt.Sprintf(LossFmt+" ± "+LossFmt+" ["+LossFmt+", "+LossFmt+"]", r.ValMean, r.ValStd, r.ValMin, r.ValMax),
		fmt.Sprintf(PPLFmt+" ["+PPLFmt+", "+PPLFmt+"]", r.PPL, r.PPLMin, r.PPLMax),
		fmt.Sprintf(GapFmt, r.GapPct),
		reach,
		fmt.Sprint(r.Overflow),
		fmt.Sprint(r.Underflow),
	}
}

// Header returns the column titles of Cells for a baseline.
func Header(baseline string) []string {
	return []string{"recipe", "val loss (mean ± std [min, max])", "perplexity [min, max]",
		"gap to " + baseline, "reaches " + baseline, "overflow", "underflow"}
}

// WriteTable prints the summary as an aligned text table, with a last
// column judging each recipe against the baseline (VerdictCell).
func (s *Summary) WriteTable(w io.Writer) error {
	if s == nil {
		return fmt.Errorf("compare: no summary")
	}
	rows := [][]string{append(Header(s.Baseline), "against "+s.Baseline)}
	for i := range s.Rows {
		rows = append(rows, append(s.Rows[i].Cells(), s.VerdictCell(s.Rows[i].Recipe)))
	}
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for c, cell := range r {
			width[c] = max(width[c], len([]rune(cell)))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for c, cell := range r {
			if c > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[c]-len([]rune(cell)))
			if c == 0 {
				b.WriteString(cell + pad)
			} else {
				b.WriteString(pad + cell)
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
