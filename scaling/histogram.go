package scaling

import (
	"fmt"
	"math"
)

// Histogram counts magnitudes per binade: Counts[i] is the number of values
// with 2^(MinExp+i) <= |x| < 2^(MinExp+i+1). A binade is what one exponent
// code of a floating-point format covers, so the histogram shows at a glance
// how many of a format's binades the data needs.
type Histogram struct {
	MinExp int   `json:"min_exp"`
	Counts []int `json:"counts"`
	// Below and Above count nonzero finite values outside the bins.
	Below int `json:"below"`
	Above int `json:"above"`
	// Zeros and NonFinite count the values that have no binade.
	Zeros     int `json:"zeros"`
	NonFinite int `json:"non_finite"`
}

// binade returns floor(log2 |x|) for a nonzero finite x.
func binade(x float64) int {
	_, e := math.Frexp(x)
	return e - 1
}

// Log2Histogram counts the magnitudes of data in the binades minExp..maxExp.
func Log2Histogram(data []float32, minExp, maxExp int) (Histogram, error) {
	if minExp > maxExp || minExp < -1100 || maxExp > 1100 {
		return Histogram{}, fmt.Errorf("%w: binades %d..%d", ErrOptions, minExp, maxExp)
	}
	h := Histogram{MinExp: minExp, Counts: make([]int, maxExp-minExp+1)}
	for _, v := range data {
		x := float64(v)
		switch {
		case math.IsNaN(x) || math.IsInf(x, 0):
			h.NonFinite++
		case x == 0:
			h.Zeros++
		default:
			e := binade(x)
			switch {
			case e < minExp:
				h.Below++
			case e > maxExp:
				h.Above++
			default:
				h.Counts[e-minExp]++
			}
		}
	}
	return h, nil
}

// binadeRange returns the smallest and largest binade of the nonzero finite
// values of the slices, and false when there are none.
func binadeRange(data ...[]float32) (lo, hi int, ok bool) {
	for _, d := range data {
		for _, v := range d {
			x := float64(v)
			if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
				continue
			}
			e := binade(x)
			if !ok {
				lo, hi, ok = e, e, true
			}
			lo, hi = min(lo, e), max(hi, e)
		}
	}
	return lo, hi, ok
}
