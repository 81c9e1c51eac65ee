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
// order, seed j in a[j] and b[j]). It returns the gap, a's mean loss
// against b's in percent; the spread, the largest per-seed gap
// 100·(a[j]−b[j])/b[j] minus the smallest, in percentage points; and
// resolved, whether the gap is an effect by the training lab's rule
// (compare.Judge): at least two seeds, |gap| at least 0.3%, and |gap|
// larger than the spread. Empty or unequal slices are an error.
func Gap(a, b []float64) (gapPct, spreadPct float64, resolved bool, err error) {
	if len(a) == 0 || len(a) != len(b) {
		return 0, 0, false, errors.New("want one loss per seed for both recipes")
	}
	mean := func(v []float64) float64 {
		s := 0.0
		for _, x := range v {
			s += x
		}
		return s / float64(len(v))
	}
	perSeed := make([]float64, len(a))
	for j := range a {
		perSeed[j] = 100 * (a[j] - b[j]) / b[j]
	}
	gapPct = 100 * (mean(a) - mean(b)) / mean(b)
	spreadPct = slices.Max(perSeed) - slices.Min(perSeed)
	g := math.Abs(gapPct)
	return gapPct, spreadPct, len(a) >= 2 && g >= 0.3 && g > spreadPct, nil
}
