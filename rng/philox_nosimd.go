//go:build !(goexperiment.simd && amd64)

package rng

// fillWide is fill3 where Go's experimental SIMD package is not built in
// (see philox_simd.go).
func fillWide(dst []uint32, block, hi, s0, s1 uint32, keys *[20]uint32) []uint32 {
	return fill3(dst, block, hi, s0, s1, keys)
}
