package scan

import (
	"math/rand/v2"
	"testing"

	"github.com/fp8lab/fp8lab/scaling"
)

// BenchmarkDescribe times Describe on a 4096×4096 Gaussian tensor.
func BenchmarkDescribe(b *testing.B) {
	const rows, cols = 4096, 4096
	rng := rand.New(rand.NewPCG(5, 6))
	data := make([]float32, rows*cols)
	for i := range data {
		data[i] = float32(rng.NormFloat64() * 0.02)
	}
	x, err := scaling.FromSlice(rows, cols, data)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		Describe(x)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(data)), "ns/value")
}
