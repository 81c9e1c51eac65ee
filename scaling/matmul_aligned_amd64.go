//go:build amd64 && !purego

package scaling

// alignedRun runs eight columns with AVX2 (matmul_aligned_amd64.s) and
// fewer, or any on a CPU without AVX2, with alignedRunGo.
func alignedRun(c []float32, a, b []float32, ldb, group, m int) {
	if useAVX2 && len(c) == 8 && len(a) > 0 {
		_ = b[(len(a)-1)*ldb+7] // the kernel reads b[p*ldb : p*ldb+8] for every p
		alignedRunAVX2((*[8]float32)(c), a, &b[0], ldb, group, m)
		return
	}
	alignedRunGo(c, a, b, ldb, group, m)
}

// alignedRunAVX2 is alignedRunGo for eight columns, b pointing at b[0]
// (row stride ldb floats); len(a) > 0 and 1 ≤ group, 1 ≤ m ≤ 23.
//
//go:noescape
func alignedRunAVX2(c *[8]float32, a []float32, b *float32, ldb, group, m int)
