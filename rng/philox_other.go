//go:build !amd64 || purego

package rng

// fillWide is fill3 where there is no AVX2 body (philox_amd64.s).
func fillWide(dst []uint32, block, hi, s0, s1 uint32, keys *[20]uint32) []uint32 {
	return fill3(dst, block, hi, s0, s1, keys)
}
