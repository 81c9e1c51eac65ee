package rng

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
)

// benchInput is 1M float32 values spread over E4M3FN's range (and a few
// beyond), the workload of the encode benchmarks.
func benchInput(n int) []float32 {
	rng := rand.New(rand.NewPCG(1, 2))
	src := make([]float32, n)
	for i := range src {
		src[i] = float32(rng.NormFloat64() * 64)
	}
	return src
}

// BenchmarkEncode compares stochastic encoding (Philox included) with
// nearest encoding of the same 1M float32 values, in the same run: the
// baseline is E4M3FN.EncodeSlice32, the target a ratio under 2. Run with
// -cpu 1,2,... to see both serial and parallel numbers.
func BenchmarkEncode(b *testing.B) {
	const n = 1 << 20
	src := benchInput(n)
	dst := make([]uint8, n)
	report := func(b *testing.B) {
		b.SetBytes(4 * n)
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/value")
	}
	b.Run("nearest/E4M3FN", func(b *testing.B) {
		for b.Loop() {
			if err := fp8.E4M3FN.EncodeSlice32(dst, src, fp8.Mode{}); err != nil {
				b.Fatal(err)
			}
		}
		report(b)
	})
	for _, r := range []int{8, 32} {
		b.Run(fmt.Sprintf("stochastic/E4M3FN/r=%d", r), func(b *testing.B) {
			for b.Loop() {
				if err := EncodeStochastic(fp8.E4M3FN, dst, src, 1, 2, r); err != nil {
					b.Fatal(err)
				}
			}
			report(b)
		})
	}
	b.Run("stochastic/E5M2/r=32", func(b *testing.B) {
		for b.Loop() {
			if err := EncodeStochastic(fp8.E5M2, dst, src, 1, 2, 32); err != nil {
				b.Fatal(err)
			}
		}
		report(b)
	})
	random := make([]uint32, n)
	b.Run("philox-fill", func(b *testing.B) {
		for b.Loop() {
			Fill(random, 1, 2, 0)
		}
		report(b)
	})
	b.Run("codec-only/E4M3FN/r=32", func(b *testing.B) {
		mode := fp8.Mode{Round: fp8.Stochastic, RandomBits: 32}
		for b.Loop() {
			if err := fp8.E4M3FN.EncodeSliceStochastic32(dst, src, random, mode); err != nil {
				b.Fatal(err)
			}
		}
		report(b)
	})
}

// BenchmarkFillSerial measures Philox on one core: words per nanosecond.
func BenchmarkFillSerial(b *testing.B) {
	buf := make([]uint32, 4096)
	for b.Loop() {
		fillSerial(buf, 1, 2, 0)
	}
	b.SetBytes(4 * 4096)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/4096, "ns/word")
}
