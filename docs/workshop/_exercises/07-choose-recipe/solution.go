//go:build solutions

// Package choose is workshop exercise 7: choosing a recipe, or when is a
// difference in loss real?
package choose

import (
	"errors"
	"math"
	"slices"
)

// Gap compares recipe a with recipe b from their final validation losses,
// one per seed (the same seeds, so the same initial weights and data
// order). It returns the gap, a's mean loss against b's in percent; the
// spread, the larger of the two ranges (largest minus smallest loss) in
// percent of b's mean; and resolved, whether the gap is larger than the spread.
func Gap(a, b []float64) (gapPct, spreadPct float64, resolved bool, err error) {
	if len(a) == 0 || len(b) == 0 {
		return 0, 0, false, errors.New("no losses")
	}
	mean := func(v []float64) float64 {
		s := 0.0
		for _, x := range v {
			s += x
		}
		return s / float64(len(v))
	}
	spread := func(v []float64) float64 { return slices.Max(v) - slices.Min(v) }
	ma, mb := mean(a), mean(b)
	gapPct = 100 * (ma - mb) / mb
	spreadPct = 100 * max(spread(a), spread(b)) / mb
	return gapPct, spreadPct, math.Abs(gapPct) > spreadPct, nil
}
