package train

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestBlockedGemm checks the WebAssembly build's matrix product against a
// float64 reference in all four operand layouts, with shapes that are and
// are not multiples of its 4×4 blocks, and with beta 0 and 1.
func TestBlockedGemm(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, sh := range [][3]int{{8, 16, 12}, {7, 5, 9}, {1, 3, 1}, {33, 64, 18}} {
		M, K, N := sh[0], sh[1], sh[2]
		for _, aK := range []bool{true, false} {
			for _, bK := range []bool{true, false} {
				for _, beta := range []float32{0, 1} {
					t.Run(fmt.Sprintf("%dx%dx%d/aK=%v/bK=%v/beta=%v", M, K, N, aK, bK, beta), func(t *testing.T) {
						op := make([][]float64, 2) // op(a) (M,K) and op(b) (K,N) as float64
						a, b := make([]float32, M*K), make([]float32, K*N)
						op[0], op[1] = make([]float64, M*K), make([]float64, K*N)
						for i := range M {
							for k := range K {
								v := float32(r.NormFloat64())
								op[0][i*K+k] = float64(v)
								if aK {
									a[i*K+k] = v
								} else {
									a[k*M+i] = v
								}
							}
						}
						for k := range K {
							for j := range N {
								v := float32(r.NormFloat64())
								op[1][k*N+j] = float64(v)
								if bK {
									b[j*K+k] = v
								} else {
									b[k*N+j] = v
								}
							}
						}
						c := make([]float32, M*N)
						for i := range c {
							c[i] = float32(r.NormFloat64())
						}
						old := append([]float32(nil), c...)
						blockedGemm(c, a, b, aK, bK, M, K, N, beta, nil, nil)
						for i := range M {
							for j := range N {
								var want, mag float64
								for k := range K {
									want += op[0][i*K+k] * op[1][k*N+j]
									mag += math.Abs(op[0][i*K+k] * op[1][k*N+j])
								}
								want += float64(beta) * float64(old[i*N+j])
								mag += math.Abs(float64(old[i*N+j]))
								// float32 sums of K terms: within K ulps of the magnitudes' sum.
								assert.InDelta(t, want, float64(c[i*N+j]), float64(K+1)*mag*0x1p-24, "c[%d,%d]", i, j)
							}
						}
					})
				}
			}
		}
	}
}

// BenchmarkBlockedGemm compares the WebAssembly build's product with
// gonum's on the classroom configuration's MLP shape (256 tokens, 32 →
// 128); run it under GOOS=js GOARCH=wasm (go_js_wasm_exec) too.
func BenchmarkBlockedGemm(b *testing.B) {
	M, K, N := 256, 32, 128
	a, bb, c := gemmOperands(M, K, N)
	for _, impl := range []string{"gonum", "blocked"} {
		b.Run(fmt.Sprintf("%s/%dx%dx%d", impl, M, K, N), func(b *testing.B) {
			for range b.N {
				if impl == "gonum" {
					gemmNT(c, a, bb, M, K, N, 0)
				} else {
					blockedGemm(c, a, bb, true, true, M, K, N, 0, nil, nil)
				}
			}
			b.ReportMetric(2*float64(M*K*N)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
		})
	}
}
