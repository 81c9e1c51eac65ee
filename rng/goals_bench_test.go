package rng

import (
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/fp8lab/fp8lab/fp8"
)

// BenchmarkGoalStochasticPhilox times, interleaved on one core, E4M3FN
// nearest-even encoding (EncodeSlice32) and stochastic encoding with the
// Philox words generated on the way (EncodeStochastic, r = 32) of the same
// 1M activations (normal, σ = 40, every 997th ×1000), and reports the ratio
// of the fastest runs (issue 14 goal ≤ 1.5), with Philox alone for scale.
func BenchmarkGoalStochasticPhilox(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	src := benchInput(1 << 20)
	for i := range src {
		src[i] *= 40.0 / 64
		if i%997 == 0 {
			src[i] *= 1000
		}
	}
	dst := make([]uint8, len(src))
	words := make([]uint32, encodeChunk)
	var nearest, stochastic, philox time.Duration = math.MaxInt64, math.MaxInt64, math.MaxInt64
	for b.Loop() {
		t0 := time.Now()
		if err := fp8.E4M3FN.EncodeSlice32(dst, src, fp8.Mode{}); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if err := EncodeStochastic(fp8.E4M3FN, dst, src, 1, 2, 32); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		for i := 0; i < len(src); i += len(words) {
			fillSerial(words, 1, 2, uint64(i))
		}
		nearest, stochastic, philox = min(nearest, t1.Sub(t0)), min(stochastic, t2.Sub(t1)), min(philox, time.Since(t2))
	}
	n := float64(len(src))
	b.ReportMetric(float64(nearest.Nanoseconds())/n, "nearest-ns/value")
	b.ReportMetric(float64(philox.Nanoseconds())/n, "philox-ns/word")
	b.ReportMetric(float64(stochastic)/float64(nearest), "stochastic-philox/nearest")
}
