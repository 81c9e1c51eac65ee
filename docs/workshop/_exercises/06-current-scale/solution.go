//go:build solutions

// Package scale is workshop exercise 6: the current (dynamic) scaling rule.
package scale

import (
	"math"

	"github.com/fp8lab/fp8lab/fp8"
)

// Scale returns the per-tensor encode scale of torchao's current scaling for
// data in format f: f.Max() / max(amax, 1e-12), computed in float64 and
// stored as float32, so that q = enc(x · scale) puts amax at Max.
func Scale(data []float32, f *fp8.Format) (float32, error) {
	amax := 0.0
	for _, v := range data {
		amax = math.Max(amax, math.Abs(float64(v)))
	}
	return float32(f.Max() / math.Max(amax, 1e-12)), nil
}
