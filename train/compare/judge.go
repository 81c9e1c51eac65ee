package compare

import (
	"fmt"
	"math"
	"slices"

	"github.com/fp8lab/fp8lab/train"
)

// Difference is recipe A measured against recipe B over the same seeds.
// Runs of one seed share their initial weights and batches, so most of
// what the seed changes is common to both recipes: the difference is taken
// seed by seed, and its spread is how much those per-seed gaps disagree.
type Difference struct {
	A, B string
	// GapPct is A's mean final validation loss (or perplexity) relative to
	// B's, in percent: the gap of the table.
	GapPct float64
	// PerSeed is the same gap for each seed alone, in percent.
	PerSeed []float64
	// SpreadPct is the spread over seeds of the gap: the largest per-seed
	// gap minus the smallest, in percentage points.
	SpreadPct float64
}

// Resolved reports whether the gap is larger than its spread over seeds:
// only then does its sign mean anything at this size.
func (d Difference) Resolved() bool { return math.Abs(d.GapPct) > d.SpreadPct }

// Diff measures recipe a against recipe b, on the validation loss or (ppl)
// on the perplexity. Both need a finished run for every seed.
func (s *Summary) Diff(a, b string, ppl bool) (Difference, error) {
	ra, rb := s.Row(a), s.Row(b)
	if ra == nil || rb == nil || ra.Finals == nil || rb.Finals == nil || len(ra.Finals) != len(rb.Finals) {
		return Difference{}, fmt.Errorf("compare: %s against %s: not both measured on every seed", a, b)
	}
	return Gap(ra.Finals, rb.Finals, ppl, a, b), nil
}

// Gap measures final losses a against b, seed by seed (the same seeds in
// the same order, at least one), on the loss or (ppl) on exp(loss). Losses
// that are not seed by seed (none, or not as many) give NaN figures.
func Gap(a, b []float64, ppl bool, nameA, nameB string) Difference {
	if len(a) == 0 || len(a) != len(b) {
		return Difference{A: nameA, B: nameB, GapPct: math.NaN(), SpreadPct: math.NaN()}
	}
	val := func(l float64) float64 {
		if ppl {
			return math.Exp(l)
		}
		return l
	}
	d := Difference{A: nameA, B: nameB}
	ma, _, _, _ := stats(a)
	mb, _, _, _ := stats(b)
	d.GapPct = 100 * (val(ma) - val(mb)) / val(mb)
	for j := range a {
		d.PerSeed = append(d.PerSeed, 100*(val(a[j])-val(b[j]))/val(b[j]))
	}
	lo, hi := slices.Min(d.PerSeed), slices.Max(d.PerSeed)
	d.SpreadPct = hi - lo
	return d
}

// OperandTotals sums a run's operand statistics over its steps: one entry
// per layer, product and operand, in the order they first appear, with
// the largest amax.
func OperandTotals(res *train.Result) []train.OperandStats {
	if res == nil {
		return nil
	}
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
