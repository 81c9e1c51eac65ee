//go:build !solutions

// Package choose is workshop exercise 7: choosing a recipe, or when is a
// difference in loss real?
package choose

import "errors"

// Gap compares recipe a with recipe b from their final validation losses,
// one per seed (the same seeds, so the same initial weights and data
// order). It returns the gap, a's mean loss against b's in percent; the
// spread, the larger of the two ranges (largest minus smallest loss) in
// percent of b's mean; and resolved, whether the gap is larger than the spread.
func Gap(a, b []float64) (gapPct, spreadPct float64, resolved bool, err error) {
	return 0, 0, false, errors.New("exercise: write this function — see README.md")
}
