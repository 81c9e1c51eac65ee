package fp8

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/x448/float16"
)

// benchInput returns n float32 values spread like activations: normal with
// a few outliers, so every branch of the encoder is taken.
func benchInput(n int) []float32 {
	rng := rand.New(rand.NewPCG(7, 8))
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(rng.NormFloat64() * 40)
		if i%997 == 0 {
			xs[i] *= 1000
		}
	}
	return xs
}

func benchRandom(n int) []uint32 {
	rng := rand.New(rand.NewPCG(9, 10))
	r := make([]uint32, n)
	for i := range r {
		r[i] = rng.Uint32()
	}
	return r
}

// singleCore pins the benchmark to one core for the duration of b.
func singleCore(b *testing.B) {
	old := runtime.GOMAXPROCS(1)
	b.Cleanup(func() { runtime.GOMAXPROCS(old) })
}

func perValue(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/value")
}

// Baseline: x448/float16's Fromfloat32 over the same slice.
func BenchmarkFloat16Fromfloat32(b *testing.B) {
	singleCore(b)
	src := benchInput(1 << 20)
	dst := make([]uint16, len(src))
	b.SetBytes(int64(len(src)) * 4)
	for b.Loop() {
		for i, x := range src {
			dst[i] = uint16(float16.Fromfloat32(x))
		}
	}
	perValue(b, len(src))
}

func BenchmarkEncodeSlice32(b *testing.B) {
	src := benchInput(1 << 20)
	dst := make([]uint8, len(src))
	for _, f := range []*Format{E4M3FN, E5M2, E2M1} {
		b.Run(f.Name(), func(b *testing.B) {
			singleCore(b)
			b.SetBytes(int64(len(src)) * 4)
			for b.Loop() {
				_ = f.EncodeSlice32(dst, src, Mode{})
			}
			perValue(b, len(src))
		})
	}
}

func BenchmarkEncodeStochastic32(b *testing.B) {
	singleCore(b)
	src := benchInput(1 << 20)
	random := benchRandom(len(src))
	dst := make([]uint8, len(src))
	b.SetBytes(int64(len(src)) * 4)
	for b.Loop() {
		_ = E4M3FN.EncodeSliceStochastic32(dst, src, random, Mode{Round: Stochastic, RandomBits: 16})
	}
	perValue(b, len(src))
}

func BenchmarkEncodeScalar(b *testing.B) {
	singleCore(b)
	src := benchInput(1 << 16)
	var sink uint8
	for b.Loop() {
		for _, x := range src {
			c, _ := E4M3FN.Encode(float64(x), Mode{})
			sink ^= c
		}
	}
	perValue(b, len(src))
	_ = sink
}

func BenchmarkDecodeSlice32(b *testing.B) {
	singleCore(b)
	src := make([]uint8, 1<<20)
	for i := range src {
		src[i] = uint8(i * 7)
	}
	dst := make([]float32, len(src))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		_ = E4M3FN.DecodeSlice32(dst, src)
	}
	perValue(b, len(src))
}

// timeIt returns the best of rounds timings of fn.
func timeIt(rounds int, fn func()) time.Duration {
	best := time.Duration(1<<63 - 1)
	for i := 0; i < rounds; i++ {
		t0 := time.Now()
		fn()
		best = min(best, time.Since(t0))
	}
	return best
}

// BenchmarkRatios measures the goals of the codec as ratios against a
// baseline taken in the same run: encode vs x448/float16 (goal <= 1.0),
// stochastic vs nearest (goal <= 2.0) and 4M-value bulk encode on all cores
// vs one core (goal >= 1.7 on 2 cores).
func BenchmarkRatios(b *testing.B) {
	src := benchInput(1 << 22)
	dst := make([]uint8, len(src))
	dst16 := make([]uint16, len(src))
	random := benchRandom(len(src))
	cores := runtime.GOMAXPROCS(0)
	var vsFloat16, stochastic, speedup float64
	for b.Loop() {
		runtime.GOMAXPROCS(1)
		base := timeIt(3, func() {
			for i, x := range src {
				dst16[i] = uint16(float16.Fromfloat32(x))
			}
		})
		one := timeIt(3, func() { _ = E4M3FN.EncodeSlice32(dst, src, Mode{}) })
		sr := timeIt(3, func() {
			_ = E4M3FN.EncodeSliceStochastic32(dst, src, random, Mode{Round: Stochastic, RandomBits: 16})
		})
		runtime.GOMAXPROCS(cores)
		all := timeIt(3, func() { _ = E4M3FN.EncodeSlice32(dst, src, Mode{}) })
		vsFloat16 = float64(one) / float64(base)
		stochastic = float64(sr) / float64(one)
		speedup = float64(one) / float64(all)
	}
	b.ReportMetric(vsFloat16, "encode/float16")
	b.ReportMetric(stochastic, "stochastic/nearest")
	b.ReportMetric(speedup, "parallel-speedup")
	b.ReportMetric(float64(cores), "cores")
}
