package scaling

import (
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/parallel"
)

// BenchmarkGoalTensorwisePasses splits tensorwise quantization of the
// 2048×2048 matrix of BenchmarkGoalQuantize into its two passes and times
// each, interleaved on all cores, against plain EncodeSlice32 into a
// reused buffer: the amax pass (Amax), the scaled encode pass
// (EncodeScaledSlice32 with one scale), the memory-floor loop of
// fp8's benchmarks (reads 4 bytes and writes 1 per value) and QuantizeInto
// itself. It says how far tensorwise / plain encode (goal ≤ 1.5) can fall
// with two passes: to about amax/encode + scaled/encode.
func BenchmarkGoalTensorwisePasses(b *testing.B) {
	x, err := RandomNormal(2048, 2048, 1, 1)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]uint8, x.Len())
	q := new(Quantized)
	scale := float32(fp8.E4M3FN.Max() / 8)
	names := []string{"encode", "amax", "scaled", "floor", "tensorinto"}
	fns := []func() error{
		func() error { return fp8.E4M3FN.EncodeSlice32(dst, x.Data, fp8.Mode{}) },
		func() error { _, err := Amax(x); return err },
		func() error {
			return parallel.For(x.Len(), func(lo, hi int) error {
				return fp8.E4M3FN.EncodeScaledSlice32(dst[lo:hi], x.Data[lo:hi], []float32{scale}, hi-lo, fp8.Mode{})
			})
		},
		func() error {
			return parallel.For(x.Len(), func(lo, hi int) error {
				d := dst[lo:hi]
				for i, v := range x.Data[lo:hi] {
					d[i] = uint8(math.Float32bits(v) >> 24)
				}
				return nil
			})
		},
		func() error { return QuantizeInto(q, x, fp8.E4M3FN, PerTensor, Options{}) },
	}
	best := make([]time.Duration, len(fns))
	for i := range best {
		best[i] = math.MaxInt64
	}
	for b.Loop() {
		for i, fn := range fns {
			runtime.GC()
			t0 := time.Now()
			if err := fn(); err != nil {
				b.Fatal(err)
			}
			best[i] = min(best[i], time.Since(t0))
		}
	}
	for i := 1; i < len(fns); i++ {
		b.ReportMetric(float64(best[i])/float64(best[0]), names[i]+"/encode")
	}
	b.ReportMetric(float64(best[1]+best[2])/float64(best[0]), "amax+scaled/encode")
	b.ReportMetric(float64(best[0].Nanoseconds())/float64(x.Len()), "encode-ns/value")
}
