//go:build amd64 && !purego

package fp8

// mulBlocksVec writes dst[j] = src[j]·scales[j/bc] for whole blocks:
// len(dst) = len(src) = len(scales)·bc, bc a positive multiple of 8.
//
//go:noescape
func mulBlocksVec(dst, src, scales []float32, bc int)
