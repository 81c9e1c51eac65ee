package scaling

import (
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/fp8lab/fp8lab/fp8"
)

// BenchmarkGoalQuantize times, interleaved in one loop on all cores, plain
// E4M3FN.EncodeSlice32 of a 2048×2048 float32 matrix and Quantize with each
// granularity, and reports the ratios of the fastest runs: tensorwise
// against plain encode (goal ≤ 1.5), the others against tensorwise (≤ 1.2);
// then tensorwise with error statistics, fused (QuantizeWithStats) and by
// a decode pass (Quantize, then Measure), against plain tensorwise.
//
// Like with like: "tensor/encode" is the allocating Quantize against
// EncodeSlice32 into a reused buffer (the old, unequal metric);
// "tensor/encode-alloc" lets both allocate their codes, and
// "tensorinto/encode" lets both reuse them (QuantizeInto).
func BenchmarkGoalQuantize(b *testing.B) {
	x, err := RandomNormal(2048, 2048, 1, 1)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]uint8, x.Len())
	grans := []Granularity{PerTensor, PerRow, Tile1x128, Block128, MX}
	names := []string{"tensor", "row", "tile1x128", "block128", "mx"}
	best := make([]time.Duration, len(grans)+5)
	reused := new(Quantized)
	for i := range best {
		best[i] = math.MaxInt64
	}
	for b.Loop() {
		runtime.GC() // before every timed call: no call pays for another's garbage
		t0 := time.Now()
		if err := fp8.E4M3FN.EncodeSlice32(dst, x.Data, fp8.Mode{}); err != nil {
			b.Fatal(err)
		}
		best[0] = min(best[0], time.Since(t0))
		for i, g := range grans {
			runtime.GC()
			t0 := time.Now()
			if _, err := Quantize(x, fp8.E4M3FN, g, Options{}); err != nil {
				b.Fatal(err)
			}
			best[i+1] = min(best[i+1], time.Since(t0))
		}
		// Error statistics: fused into the encode pass, and the decode pass.
		runtime.GC()
		t0 = time.Now()
		if _, _, err := QuantizeWithStats(x, fp8.E4M3FN, PerTensor, Options{}); err != nil {
			b.Fatal(err)
		}
		best[len(grans)+1] = min(best[len(grans)+1], time.Since(t0))
		runtime.GC()
		t0 = time.Now()
		q, err := Quantize(x, fp8.E4M3FN, PerTensor, Options{})
		if err == nil {
			_, err = Measure(x, q)
		}
		if err != nil {
			b.Fatal(err)
		}
		best[len(grans)+2] = min(best[len(grans)+2], time.Since(t0))
		// Like with like: both allocate, and both reuse their codes.
		runtime.GC()
		t0 = time.Now()
		if err := fp8.E4M3FN.EncodeSlice32(make([]uint8, x.Len()), x.Data, fp8.Mode{}); err != nil {
			b.Fatal(err)
		}
		best[len(grans)+3] = min(best[len(grans)+3], time.Since(t0))
		runtime.GC()
		t0 = time.Now()
		if err := QuantizeInto(reused, x, fp8.E4M3FN, PerTensor, Options{}); err != nil {
			b.Fatal(err)
		}
		best[len(grans)+4] = min(best[len(grans)+4], time.Since(t0))
	}
	b.ReportMetric(float64(best[1])/float64(best[0]), "tensor/encode")
	b.ReportMetric(float64(best[1])/float64(best[len(grans)+3]), "tensor/encode-alloc")
	b.ReportMetric(float64(best[len(grans)+4])/float64(best[0]), "tensorinto/encode")
	for i := 1; i < len(grans); i++ {
		b.ReportMetric(float64(best[i+1])/float64(best[1]), names[i]+"/tensor")
	}
	b.ReportMetric(float64(best[len(grans)+1])/float64(best[1]), "withstats/tensor")
	b.ReportMetric(float64(best[len(grans)+2])/float64(best[1]), "quantize+measure/tensor")
}
