package compare

import (
	"fmt"
	"math"
	"slices"

	"github.com/fp8lab/fp8lab/train"
)

// Metric is what a Difference compares.
type Metric uint8

const (
	// ValLoss is the final validation loss (nats per byte).
	ValLoss Metric = iota
	// ValPPL is the final validation perplexity per byte, exp(ValLoss).
	ValPPL
	// TrainLoss is the mean training loss of the last TrainWindow steps:
	// what DeepSeek-V3's 0.25% bound is stated on.
	TrainLoss
)

var metricNames = [...]string{"validation loss", "perplexity per byte", "training loss"}

// String names the metric in a sentence.
func (m Metric) String() string {
	if int(m) < len(metricNames) {
		return metricNames[m]
	}
	return fmt.Sprintf("Metric(%d)", uint8(m))
}

// TrainWindow is how many of a run's last steps its final training loss
// averages: one step's batch is noisy, and runs of one seed see the same
// batches, so the window is paired too.
const TrainWindow = 20

// FinalTrain returns the mean training loss of a run's last TrainWindow
// steps (all of them when it has fewer), NaN when it has none (or no run).
func FinalTrain(r *train.Result) float64 {
	if r == nil {
		return math.NaN()
	}
	n := min(len(r.TrainLoss), TrainWindow)
	if n == 0 {
		return math.NaN()
	}
	var s float64
	for _, l := range r.TrainLoss[len(r.TrainLoss)-n:] {
		s += l
	}
	return s / float64(n)
}

// Difference is recipe A measured against recipe B over the same seeds.
// Runs of one seed share their initial weights and batches, so most of
// what the seed changes is common to both recipes: the difference is taken
// seed by seed, and its spread is how much those per-seed gaps disagree.
// Judge decides what it shows.
type Difference struct {
	A, B   string
	Metric Metric
	// GapPct is A's mean final metric relative to B's, in percent: the gap
	// of the table.
	GapPct float64
	// PerSeed is the same gap for each seed alone, in percent.
	PerSeed []float64
	// SpreadPct is the spread over seeds of the gap: the largest per-seed
	// gap minus the smallest, in percentage points.
	SpreadPct float64
}

// Diff measures recipe a against recipe b on metric m. Both need a
// finished run for every seed.
func (s *Summary) Diff(a, b string, m Metric) (Difference, error) {
	ra, rb := s.Row(a), s.Row(b)
	if ra == nil || rb == nil || ra.Finals == nil || rb.Finals == nil || len(ra.Finals) != len(rb.Finals) {
		return Difference{}, fmt.Errorf("compare: %s against %s: not both measured on every seed", a, b)
	}
	fa, fb := ra.Finals, rb.Finals
	if m == TrainLoss {
		fa, fb = ra.TrainFinals, rb.TrainFinals
	}
	return Gap(fa, fb, m, a, b), nil
}

// Gap measures final losses a against b, seed by seed (the same seeds in
// the same order, at least one), on the loss or (ValPPL) on exp(loss).
// Losses that are not seed by seed (none, or not as many) give NaN figures.
func Gap(a, b []float64, m Metric, nameA, nameB string) Difference {
	if len(a) == 0 || len(a) != len(b) {
		return Difference{A: nameA, B: nameB, GapPct: math.NaN(), SpreadPct: math.NaN()}
	}
	val := func(l float64) float64 {
		if m == ValPPL {
			return math.Exp(l)
		}
		return l
	}
	d := Difference{A: nameA, B: nameB, Metric: m}
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
