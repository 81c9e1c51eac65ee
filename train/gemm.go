package train

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"github.com/fp8lab/fp8lab/internal/parallel"
)

// Matrix products run on gonum's blas32 Sgemm: pure Go (assembly kernels on
// amd64, plain Go under WebAssembly) and about 5× faster than a plain
// i-k-j loop on the 2-core machine (2.0–2.5 against 0.4 GFLOPS on
// 1024×64×256 under load; see the commit that added it).

// gemmNT computes c (M,N) = beta·c + a (M,K) · bᵀ, where b is (N,K): both
// operands are laid out with the contraction dimension K contiguous, the
// layout every quantized operand uses here.
func gemmNT(c, a, b []float32, M, K, N int, beta float32) {
	blas32.Gemm(blas.NoTrans, blas.Trans, 1,
		blas32.General{Rows: M, Cols: K, Stride: K, Data: a},
		blas32.General{Rows: N, Cols: K, Stride: K, Data: b},
		beta, blas32.General{Rows: M, Cols: N, Stride: N, Data: c})
}

// transpose writes dst (C,R) = srcᵀ for src (R,C).
func transpose(dst, src []float32, R, C int) {
	const tile = 32 // cache-sized tiles keep both sides' accesses local
	for i0 := 0; i0 < R; i0 += tile {
		for j0 := 0; j0 < C; j0 += tile {
			for i := i0; i < min(i0+tile, R); i++ {
				for j := j0; j < min(j0+tile, C); j++ {
					dst[j*R+i] = src[i*C+j]
				}
			}
		}
	}
}

// parallelRange calls fn(i) for every i in [0,n), spread over the cores by
// the project's one parallel-for (internal/parallel) with work elements of
// work in all. Each index must write only its own data, so the result does
// not depend on the scheduling. A panic in fn is a bug; it is raised again
// on the caller's goroutine, where it can be recovered, rather than killing
// the process from a worker.
func parallelRange(n, work int, fn func(i int)) {
	err := parallel.Chunks(n, 1, work, func(lo, hi int) error {
		for i := lo; i < hi; i++ {
			fn(i)
		}
		return nil
	})
	if err != nil {
		panic(err)
	}
}
