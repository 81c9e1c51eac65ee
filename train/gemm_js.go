//go:build js

package train

// matmul computes c (M,N) = beta·c + op(a)·op(b) (see the !js build) with
// blockedGemm: under WebAssembly gonum's Sgemm has no assembly kernels and
// the blocked kernel is about 5× faster (BenchmarkBlockedGemm under
// go_js_wasm_exec). Its sums run in another order than gonum's, so a run
// in the browser matches a native run to rounding, not bit for bit.
func (e *linearEngine) matmul(c, a, b []float32, aK, bK bool, M, K, N int, beta float32) {
	e.pack[0], e.pack[1] = blockedGemm(c, a, b, aK, bK, M, K, N, beta, e.pack[0], e.pack[1])
}
