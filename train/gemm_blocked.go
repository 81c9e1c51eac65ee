package train

// blockedGemm is the matrix product of the WebAssembly build, where
// gonum's Sgemm has no assembly kernels and measured slower than a plain
// loop (0.08 against 0.12 GFLOPS on 1024×64×256 under node, on the loaded
// 2-core machine): both operands are packed K-contiguous, then a 4×4
// register-blocked kernel keeps sixteen sums in locals, each summed in
// order of k. It computes c (M,N) = beta·c + op(a)·op(b), where op(a) is
// (M,K), given K-contiguous (aK) or as (K,M); op(b) is (K,N), given
// K-contiguous as (N,K) (bK) or as (K,N). pa and pb are scratch space,
// grown as needed and returned.
func blockedGemm(c, a, b []float32, aK, bK bool, M, K, N int, beta float32, pa, pb []float32) ([]float32, []float32) {
	if !aK {
		pa = grow(pa, M*K)
		transpose(pa, a, K, M)
		a = pa
	}
	if !bK {
		pb = grow(pb, N*K)
		transpose(pb, b, K, N)
		b = pb
	}
	kernelNT(c, a, b, M, K, N, beta)
	return pa, pb
}

// grow returns s with length n, reallocated when too short.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// put stores a sum into c: beta·c + s (just s when beta is 0, so that
// stale NaNs in c do not leak in).
func put(c []float32, i int, s, beta float32) {
	if beta == 0 {
		c[i] = s
	} else {
		c[i] = beta*c[i] + s
	}
}

// kernelNT computes c (M,N) = beta·c + a (M,K) · bᵀ for b (N,K).
func kernelNT(c, a, b []float32, M, K, N int, beta float32) {
	i := 0
	for ; i+4 <= M; i += 4 {
		a0 := a[i*K : i*K+K]
		a1 := a[(i+1)*K : (i+1)*K+K][:len(a0)]
		a2 := a[(i+2)*K : (i+2)*K+K][:len(a0)]
		a3 := a[(i+3)*K : (i+3)*K+K][:len(a0)]
		j := 0
		for ; j+4 <= N; j += 4 {
			b0 := b[j*K : j*K+K][:len(a0)]
			b1 := b[(j+1)*K : (j+1)*K+K][:len(a0)]
			b2 := b[(j+2)*K : (j+2)*K+K][:len(a0)]
			b3 := b[(j+3)*K : (j+3)*K+K][:len(a0)]
			var s00, s01, s02, s03, s10, s11, s12, s13, s20, s21, s22, s23, s30, s31, s32, s33 float32
			for k, x0 := range a0 {
				x1, x2, x3 := a1[k], a2[k], a3[k]
				y0, y1, y2, y3 := b0[k], b1[k], b2[k], b3[k]
				s00 += x0 * y0
				s01 += x0 * y1
				s02 += x0 * y2
				s03 += x0 * y3
				s10 += x1 * y0
				s11 += x1 * y1
				s12 += x1 * y2
				s13 += x1 * y3
				s20 += x2 * y0
				s21 += x2 * y1
				s22 += x2 * y2
				s23 += x2 * y3
				s30 += x3 * y0
				s31 += x3 * y1
				s32 += x3 * y2
				s33 += x3 * y3
			}
			r0, r1, r2, r3 := i*N+j, (i+1)*N+j, (i+2)*N+j, (i+3)*N+j
			put(c, r0, s00, beta)
			put(c, r0+1, s01, beta)
			put(c, r0+2, s02, beta)
			put(c, r0+3, s03, beta)
			put(c, r1, s10, beta)
			put(c, r1+1, s11, beta)
			put(c, r1+2, s12, beta)
			put(c, r1+3, s13, beta)
			put(c, r2, s20, beta)
			put(c, r2+1, s21, beta)
			put(c, r2+2, s22, beta)
			put(c, r2+3, s23, beta)
			put(c, r3, s30, beta)
			put(c, r3+1, s31, beta)
			put(c, r3+2, s32, beta)
			put(c, r3+3, s33, beta)
		}
		for ; j < N; j++ {
			bj := b[j*K : j*K+K][:len(a0)]
			var s0, s1, s2, s3 float32
			for k, y := range bj {
				s0 += a0[k] * y
				s1 += a1[k] * y
				s2 += a2[k] * y
				s3 += a3[k] * y
			}
			put(c, i*N+j, s0, beta)
			put(c, (i+1)*N+j, s1, beta)
			put(c, (i+2)*N+j, s2, beta)
			put(c, (i+3)*N+j, s3, beta)
		}
	}
	for ; i < M; i++ {
		ai := a[i*K : i*K+K]
		for j := 0; j < N; j++ {
			bj := b[j*K : j*K+K][:len(ai)]
			var s float32
			for k, x := range ai {
				s += x * bj[k]
			}
			put(c, i*N+j, s, beta)
		}
	}
}
