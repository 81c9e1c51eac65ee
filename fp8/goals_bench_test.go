package fp8

import (
	"math"
	"runtime"
	"testing"
	"time"
)

// The goals of issue 14 as ratios, each against its baseline timed in the
// same loop: every iteration runs the baseline and the candidates once, in
// turn, and each ratio is that of the fastest runs, so that load from other
// processes on a shared machine hits both sides alike. `go tool task
// bench-encode` runs them with -count and prints the ranges.

// memoryFloor reads 4 bytes and writes 1 byte per value and does nothing
// else: the bound on any float32 -> 8-bit encoder.
//
//go:noinline
func memoryFloor(dst []uint8, src []float32) {
	dst = dst[:len(src)]
	for i, x := range src {
		dst[i] = uint8(math.Float32bits(x) >> 24)
	}
}

// interleaved runs every fn once per iteration of b, in turn, with
// GOMAXPROCS procs (0: unchanged), and returns the fastest time of each.
func interleaved(b *testing.B, procs int, fns ...func()) []time.Duration {
	if procs > 0 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	}
	best := make([]time.Duration, len(fns))
	for i := range best {
		best[i] = math.MaxInt64
	}
	for b.Loop() {
		for i, fn := range fns {
			t0 := time.Now()
			fn()
			best[i] = min(best[i], time.Since(t0))
		}
	}
	return best
}

func ratio(a, b time.Duration) float64 { return float64(a) / float64(b) }

func nsPerValue(d time.Duration, n int) float64 { return float64(d.Nanoseconds()) / float64(n) }

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// BenchmarkGoalNearest: nearest-even saturating encode of 1M activations to
// E4M3FN and E5M2 on one core against the memory floor (goal ≤ 2.0).
// EncodeSlice32 uses the lookup table (table32.go); the arithmetic kernels
// it replaced for long slices are timed beside it (arith).
func BenchmarkGoalNearest(b *testing.B) {
	src := benchInput(1 << 20)
	dst := make([]uint8, len(src))
	arith := func(f *Format) {
		if _, err := f.encodeNearest32(dst, src, Mode{}); err != nil {
			panic(err)
		}
	}
	t := interleaved(b, 1,
		func() { memoryFloor(dst, src) },
		func() { must(E4M3FN.EncodeSlice32(dst, src, Mode{})) },
		func() { must(E5M2.EncodeSlice32(dst, src, Mode{})) },
		func() { arith(E4M3FN) },
		func() { arith(E5M2) },
	)
	b.ReportMetric(nsPerValue(t[0], len(src)), "floor-ns/value")
	b.ReportMetric(nsPerValue(t[1], len(src)), "e4m3-ns/value")
	b.ReportMetric(ratio(t[1], t[0]), "E4M3FN/floor")
	b.ReportMetric(ratio(t[2], t[0]), "E5M2/floor")
	b.ReportMetric(ratio(t[3], t[0]), "E4M3FN-arith/floor")
	b.ReportMetric(ratio(t[4], t[0]), "E5M2-arith/floor")
}

// BenchmarkGoalModes: toward zero and non-saturating (goal ≤ 1.2), stochastic
// with the random words given (no goal of its own: Philox is timed in
// dither's BenchmarkEncodeRatio), all against nearest-even, one core, E4M3FN
// and E5M2.
func BenchmarkGoalModes(b *testing.B) {
	src := benchInput(1 << 20)
	random := benchRandom(len(src))
	dst := make([]uint8, len(src))
	sr := Mode{Round: Stochastic, RandomBits: 32}
	for _, f := range []*Format{E4M3FN, E5M2} {
		b.Run(f.Name(), func(b *testing.B) {
			t := interleaved(b, 1,
				func() { must(f.EncodeSlice32(dst, src, Mode{})) },
				func() { must(f.EncodeSlice32(dst, src, Mode{Round: TowardZero})) },
				func() { must(f.EncodeSlice32(dst, src, Mode{Overflow: NoSaturate})) },
				func() { must(f.EncodeSliceStochastic32(dst, src, random, sr)) },
			)
			b.ReportMetric(ratio(t[1], t[0]), "zero/nearest")
			b.ReportMetric(ratio(t[2], t[0]), "nosat/nearest")
			b.ReportMetric(ratio(t[3], t[0]), "stochastic-given/nearest")
		})
	}
}

// BenchmarkGoalFloat64: EncodeSlice of float64 inputs against EncodeSlice32
// of the same values, one core (goal ≤ 1.5).
func BenchmarkGoalFloat64(b *testing.B) {
	src := benchInput(1 << 20)
	src64 := make([]float64, len(src))
	for i, x := range src {
		src64[i] = float64(x) * (1 + 0x1p-30) // not float32 values: every bit counts
	}
	dst := make([]uint8, len(src))
	t := interleaved(b, 1,
		func() { must(E4M3FN.EncodeSlice32(dst, src, Mode{})) },
		func() { must(E4M3FN.EncodeSlice(dst, src64, Mode{})) },
	)
	b.ReportMetric(nsPerValue(t[1], len(src)), "f64-ns/value")
	b.ReportMetric(ratio(t[1], t[0]), "float64/float32")
}

// BenchmarkGoalParallel: 4M values on all cores against one (goal ≥ 1.8 on 2).
func BenchmarkGoalParallel(b *testing.B) {
	src := benchInput(1 << 22)
	dst := make([]uint8, len(src))
	cores := runtime.GOMAXPROCS(0)
	var one, all time.Duration = math.MaxInt64, math.MaxInt64
	for b.Loop() {
		runtime.GOMAXPROCS(1)
		t0 := time.Now()
		must(E4M3FN.EncodeSlice32(dst, src, Mode{}))
		one = min(one, time.Since(t0))
		runtime.GOMAXPROCS(cores)
		t0 = time.Now()
		must(E4M3FN.EncodeSlice32(dst, src, Mode{}))
		all = min(all, time.Since(t0))
	}
	b.ReportMetric(ratio(one, all), "speedup")
	b.ReportMetric(float64(cores), "cores")
}
