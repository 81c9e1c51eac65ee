//go:build !js

package train

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// matmul computes c (M,N) = beta·c + op(a)·op(b) with gonum's Sgemm (its
// assembly kernels make it the fastest here): op(a) is (M,K), given
// K-contiguous (aK) or as (K,M); op(b) is (K,N), given K-contiguous as
// (N,K) (bK) or as (K,N).
func (e *linearEngine) matmul(c, a, b []float32, aK, bK bool, M, K, N int, beta float32) {
	ta, ga := blas.NoTrans, blas32.General{Rows: M, Cols: K, Stride: K, Data: a}
	if !aK {
		ta, ga = blas.Trans, blas32.General{Rows: K, Cols: M, Stride: M, Data: a}
	}
	tb, gb := blas.Trans, blas32.General{Rows: N, Cols: K, Stride: K, Data: b}
	if !bK {
		tb, gb = blas.NoTrans, blas32.General{Rows: K, Cols: N, Stride: N, Data: b}
	}
	blas32.Gemm(ta, tb, 1, ga, gb, beta, blas32.General{Rows: M, Cols: N, Stride: N, Data: c})
}
