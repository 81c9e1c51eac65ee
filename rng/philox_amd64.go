//go:build amd64 && !purego

package rng

import "golang.org/x/sys/cpu"

// wideOK says whether fillWide may use AVX2 on this CPU.
var wideOK = cpu.X86.HasAVX2

// fillWide fills dst with whole Philox4x32-10 blocks, starting at the block
// whose counter is (block, hi, s0, s1), while at least 12 words remain and
// the blocks share counter word 1 (block + i does not wrap), and returns
// the rest of dst. With AVX2 it computes eight blocks at a time (fillAVX2),
// the rest with fill3.
func fillWide(dst []uint32, block, hi, s0, s1 uint32, keys *[20]uint32) []uint32 {
	if wideOK {
		n := len(dst)
		dst = fillAVX2(dst, block, hi, s0, s1, keys)
		next := uint64(block) + uint64(n-len(dst))/4
		if next > 0xFFFFFFFF {
			return dst // the next block carries into word 1: the caller's
		}
		block = uint32(next)
	}
	return fill3(dst, block, hi, s0, s1, keys)
}

// fillAVX2 fills dst with whole blocks, eight per iteration of
// philoxAVX2 (philox_amd64.s), while at least 32 words remain and block +
// 7 does not wrap, and returns the rest of dst.
func fillAVX2(dst []uint32, block, hi, s0, s1 uint32, keys *[20]uint32) []uint32 {
	iters := min(len(dst)/32, int((uint64(0xFFFFFFFF)-uint64(block)+1)/8))
	if iters == 0 {
		return dst
	}
	philoxAVX2(&dst[0], iters, block, hi, s0, s1, keys)
	return dst[32*iters:]
}

// philoxAVX2 writes iters × 32 words at dst: eight blocks per iteration
// from block on, under counter words (hi, s0, s1) and round keys keys.
//
//go:noescape
func philoxAVX2(dst *uint32, iters int, block, hi, s0, s1 uint32, keys *[20]uint32)
