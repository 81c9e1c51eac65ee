package train

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/fp8lab/fp8lab/internal/cmdline"
	"github.com/fp8lab/fp8lab/internal/testenv"
)

// BenchmarkStep times one training step (forward, backward, AdamW) per
// configuration and recipe; ms/step is the figure the reference budget is
// sized by. Recipes with emulated accumulation are left out of the
// reference configuration (seconds a step).
func BenchmarkStep(b *testing.B) {
	c, err := GoSourceCorpus(cmdline.GoRoot(), 1<<20)
	if err != nil {
		b.Fatal(err)
	}
	for _, cfg := range []Config{Classroom(), Reference()} {
		for _, name := range []string{"fp32", "bf16", "tensorwise", "rowwise", "mxfp8", "nvfp4", "deepseek"} {
			if cfg.Name == "reference" && name == "deepseek" {
				continue
			}
			b.Run(cfg.Name+"/"+name, func(b *testing.B) {
				r, err := RecipeByName(name)
				if err != nil {
					b.Fatal(err)
				}
				tr, err := NewTrainer(cfg, r, 1, 1000, c)
				if err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				for range b.N {
					if _, err := tr.Step(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/step")
			})
		}
	}
}

// BenchmarkStepRatio times the quantized recipes' steps against the
// float32 step in the same run (issue 16 asks for at most 1.5×, issue 30
// for at most 2.5× where the accumulator is emulated): each
// iteration trains one float32 step and one step of the recipe, from the
// same weights and batches, so load on the machine falls on both alike.
// It reports x-fp32, the recipe's median step time over float32's, beside
// both medians: on the shared VM other work stalls single steps by up to
// several times, which a mean would carry into the ratio. x-fp32-cpu is
// the ratio of the process's CPU time (all threads) spent in the steps,
// which other processes' load does not inflate.
func BenchmarkStepRatio(b *testing.B) {
	c, err := GoSourceCorpus(cmdline.GoRoot(), 1<<20)
	if err != nil {
		b.Fatal(err)
	}
	for _, cfg := range []Config{Classroom(), Reference()} {
		for _, name := range []string{"bf16", "tensorwise", "rowwise", "mxfp8", "nvfp4", "deepseek", "fast-accum-bwd"} {
			b.Run(cfg.Name+"/"+name, func(b *testing.B) {
				var trainers [2]*Trainer
				for i, n := range []string{"fp32", name} {
					r, err := RecipeByName(n)
					if err != nil {
						b.Fatal(err)
					}
					if trainers[i], err = NewTrainer(cfg, r, 1, 1000, c); err != nil {
						b.Fatal(err)
					}
				}
				var steps [2][]time.Duration
				var cpu [2]time.Duration
				b.ResetTimer()
				for range b.N {
					for i, tr := range trainers {
						start, startCPU := time.Now(), testenv.ProcessCPU()
						if _, err := tr.Step(); err != nil {
							b.Fatal(err)
						}
						steps[i] = append(steps[i], time.Since(start))
						cpu[i] += testenv.ProcessCPU() - startCPU
					}
				}
				fp32, quantized := median(steps[0]), median(steps[1])
				b.ReportMetric(float64(quantized)/float64(fp32), "x-fp32")
				if cpu[0] > 0 {
					b.ReportMetric(float64(cpu[1])/float64(cpu[0]), "x-fp32-cpu")
				}
				b.ReportMetric(fp32.Seconds()*1000, "fp32-ms/step")
				b.ReportMetric(quantized.Seconds()*1000, "ms/step")
			})
		}
	}
}

// median returns the middle duration (the mean of the middle two for an
// even count); d is sorted in place.
func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	n := len(d)
	if n%2 == 1 {
		return d[n/2]
	}
	return (d[n/2-1] + d[n/2]) / 2
}

// naiveGemm is the plain i-k-j loop gonum is compared with:
// c (M,N) = a (M,K) · b (K,N).
func naiveGemm(c, a, b []float32, M, K, N int) {
	clear(c)
	for i := 0; i < M; i++ {
		ci := c[i*N : (i+1)*N]
		for p := 0; p < K; p++ {
			av := a[i*K+p]
			for j, bv := range b[p*N : (p+1)*N] {
				ci[j] += av * bv
			}
		}
	}
}

// BenchmarkGemm compares gonum's Sgemm with the naive loop on the
// reference configuration's MLP shape (a step's tokens, 64 → 256).
func BenchmarkGemm(b *testing.B) {
	ref := Reference()
	M, K, N := ref.TokensPerStep(), ref.Width, 4*ref.Width
	a, bb, c := gemmOperands(M, K, N)
	for _, impl := range []string{"gonum", "naive"} {
		b.Run(fmt.Sprintf("%s/%dx%dx%d", impl, M, K, N), func(b *testing.B) {
			for range b.N {
				if impl == "gonum" {
					gemmNT(c, a, bb, M, K, N, 0) // bb read as (N,K): same work
				} else {
					naiveGemm(c, a, bb, M, K, N)
				}
			}
			b.ReportMetric(2*float64(M*K*N)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
		})
	}
}

// gemmOperands returns seeded normal operands a (M,K) and b (K,N, or N,K:
// the same count) and an output c (M,N) for the GEMM benchmarks.
func gemmOperands(M, K, N int) (a, b, c []float32) {
	r := rand.New(rand.NewPCG(1, 1))
	a, b, c = make([]float32, M*K), make([]float32, K*N), make([]float32, M*N)
	for i := range a {
		a[i] = float32(r.NormFloat64())
	}
	for i := range b {
		b[i] = float32(r.NormFloat64())
	}
	return a, b, c
}

// BenchmarkPrepare times the rounding of one operand (quantize, dequantize,
// statistics) on the classroom configuration's largest activation, 256
// tokens × 128 channels, given K-major (the forward product's input) and
// as stored (K, other) (the weight gradient's), in ns per element.
func BenchmarkPrepare(b *testing.B) {
	N, C := 256, 128
	x, _, _ := gemmOperands(N, C, 1)
	for _, name := range []string{"tensorwise", "rowwise", "mxfp8"} {
		for _, kmajor := range []bool{true, false} {
			layout := "kmajor"
			if !kmajor {
				layout = "stored"
			}
			b.Run(name+"/"+layout, func(b *testing.B) {
				r, err := RecipeByName(name)
				if err != nil {
					b.Fatal(err)
				}
				e, err := newLinearEngine(Classroom(), r, 1)
				if err != nil {
					b.Fatal(err)
				}
				product, K, other := 0, C, N // forward input: (N, C), K = C
				if !kmajor {
					product, K, other = 2, N, C // weight-gradient input: K = N
				}
				for range b.N {
					if _, err := e.prepare(0, product, 0, x, K, other, kmajor); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*N*C), "ns/element")
			})
		}
	}
}
