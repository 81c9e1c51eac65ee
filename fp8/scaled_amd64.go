//go:build amd64 && !purego

package fp8

import "golang.org/x/sys/cpu"

// haveVecMul selects the AVX2 multiply (scaled_amd64.s) for the scaled
// table encoder.
var haveVecMul = cpu.X86.HasAVX2

// mulBlocksVec writes dst[j] = src[j]·scales[j/bc] for whole blocks:
// len(dst) = len(src) = len(scales)·bc, bc a positive multiple of 8.
//
//go:noescape
func mulBlocksVec(dst, src, scales []float32, bc int)
