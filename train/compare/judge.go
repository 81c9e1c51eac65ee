package compare

import (
	"fmt"
	"math"

	"github.com/fp8lab/fp8lab/train"
)

// Difference is recipe A measured against recipe B over the same seeds.
type Difference struct {
	A, B string
	// GapPct is A's mean final validation loss (or perplexity) relative to
	// B's, in percent.
	GapPct float64
	// SpreadPct is the larger of A's and B's spread over the seeds (largest
	// minus smallest final value), in percent of B's mean.
	SpreadPct float64
}

// Resolved reports whether the gap is larger than the spread over seeds:
// only then does the sign of the gap mean anything at this size.
func (d Difference) Resolved() bool { return math.Abs(d.GapPct) > d.SpreadPct }

// Diff measures recipe a against recipe b, on the validation loss or (ppl)
// on the perplexity.
func (s *Summary) Diff(a, b string, ppl bool) (Difference, error) {
	ra, rb := s.Row(a), s.Row(b)
	if ra == nil || rb == nil || ra.Seeds == 0 || rb.Seeds == 0 {
		return Difference{}, fmt.Errorf("compare: %s against %s: not both measured", a, b)
	}
	d := Difference{A: a, B: b}
	if ppl {
		d.GapPct = 100 * (ra.PPL - rb.PPL) / rb.PPL
		d.SpreadPct = 100 * max(ra.PPLMax-ra.PPLMin, rb.PPLMax-rb.PPLMin) / rb.PPL
	} else {
		d.GapPct = 100 * (ra.ValMean - rb.ValMean) / rb.ValMean
		d.SpreadPct = 100 * max(ra.ValMax-ra.ValMin, rb.ValMax-rb.ValMin) / rb.ValMean
	}
	return d, nil
}

// OperandTotals sums a run's operand statistics over its steps: one entry
// per layer, product and operand, in the order they first appear, with
// the largest amax.
func OperandTotals(res *train.Result) []train.OperandStats {
	type key struct{ layer, product, operand string }
	index := map[key]int{}
	var out []train.OperandStats
	for _, sp := range res.Stats {
		for _, o := range sp.Operands {
			k := key{o.Layer, o.Product, o.Operand}
			i, ok := index[k]
			if !ok {
				i = len(out)
				index[k] = i
				out = append(out, train.OperandStats{Layer: o.Layer, Product: o.Product, Operand: o.Operand})
			}
			t := &out[i]
			t.Amax = max(t.Amax, o.Amax)
			t.Overflow += o.Overflow
			t.Underflow += o.Underflow
			t.Elements += o.Elements
		}
	}
	return out
}
