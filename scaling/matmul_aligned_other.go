//go:build !amd64 || purego

package scaling

// alignedRun is alignedRunGo where there is no assembly kernel.
func alignedRun(c []float32, a, b []float32, ldb, group, m int) {
	alignedRunGo(c, a, b, ldb, group, m)
}
