//go:build goexperiment.simd && amd64

package rng

import "simd/archsimd"

// wideOK says whether fillWide may use AVX2 on this CPU.
var wideOK = archsimd.X86.AVX2()

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

// roundAVX2 is one Philox round of four blocks, one per 64-bit lane, each
// state word in the low half of its lane: VPMULUDQ multiplies only the low
// halves, so the high halves may hold garbage, and a round is two
// multiplies, two shifts and four xors. The key is xored into the
// passed-through word first, off the multiply-shift-xor path from one
// round to the next (0.63–0.70 against 0.74–0.85 ns/word). The shifts take
// their count from a vector (s32, 32 in every lane): ShiftAllRight(32)
// moves the count into an XMM register with a legacy-SSE MOVQ, and the
// switch between SSE and AVX made the loop 12× slower than the scalar one
// on the development VM.
func roundAVX2(c0, c1, c2, c3, k0, k1, s32 archsimd.Uint64x4, m0, m1 archsimd.Uint32x8) (archsimd.Uint64x4, archsimd.Uint64x4, archsimd.Uint64x4, archsimd.Uint64x4) {
	p0 := c0.AsUint32x8().MulEvenWiden(m0)
	p1 := c2.AsUint32x8().MulEvenWiden(m1)
	return p1.ShiftRight(s32).Xor(c1.Xor(k0)), p1, p0.ShiftRight(s32).Xor(c3.Xor(k1)), p0
}

// storeAVX2 writes four blocks whose lanes hold blocks 0, 2, 1, 3 (the
// order that makes the interleaves below put them side by side) to d; low
// is 2^32-1 and s32 is 32 in every lane.
func storeAVX2(d *[16]uint32, c0, c1, c2, c3, low, s32 archsimd.Uint64x4) {
	w01 := c0.And(low).Or(c1.ShiftLeft(s32)) // words 0, 1 of each block
	w23 := c2.And(low).Or(c3.ShiftLeft(s32)) // words 2, 3
	w01.InterleaveLoGrouped(w23).AsUint32x8().Store((*[8]uint32)(d[:8]))
	w01.InterleaveHiGrouped(w23).AsUint32x8().Store((*[8]uint32)(d[8:]))
}

// fillAVX2 fills dst with whole blocks, eight per iteration in two
// interleaved vectors (two independent multiply chains hide the multiply
// latency), while at least 32 words remain and block + 7 does not wrap,
// and returns the rest of dst.
func fillAVX2(dst []uint32, block, hi, s0, s1 uint32, keys *[20]uint32) []uint32 {
	m0 := archsimd.BroadcastUint32x8(philoxM0)
	m1 := archsimd.BroadcastUint32x8(philoxM1)
	one := archsimd.BroadcastUint64x4(uint64(hi))
	two := archsimd.BroadcastUint64x4(uint64(s0))
	three := archsimd.BroadcastUint64x4(uint64(s1))
	step := archsimd.LoadUint64x4(&[4]uint64{0, 2, 1, 3})
	four := archsimd.BroadcastUint64x4(4)
	s32 := archsimd.BroadcastUint64x4(32)
	low := archsimd.BroadcastUint64x4(0xFFFFFFFF)
	var k [20]archsimd.Uint64x4 // the round keys, one per lane
	for i, key := range keys {
		k[i] = archsimd.BroadcastUint64x4(uint64(key))
	}
	for b := uint64(block); len(dst) >= 32 && b+7 <= 0xFFFFFFFF; b += 8 {
		a0 := archsimd.BroadcastUint64x4(b).Add(step)
		b0 := a0.Add(four)
		a1, a2, a3 := one, two, three
		b1, b2, b3 := one, two, three
		// The ten rounds unrolled: a loop makes the register allocator
		// shuffle and spill the state between iterations.
		a0, a1, a2, a3 = roundAVX2(a0, a1, a2, a3, k[0], k[1], s32, m0, m1)
		b0, b1, b2, b3 = roundAVX2(b0, b1, b2, b3, k[0], k[1], s32, m0, m1)
		a0, a1, a2, a3 = roundAVX2(a0, a1, a2, a3, k[2], k[3], s32, m0, m1)
		b0, b1, b2, b3 = roundAVX2(b0, b1, b2, b3, k[2], k[3], s32, m0, m1)
		a0, a1, a2, a3 = roundAVX2(a0, a1, a2, a3, k[4], k[5], s32, m0, m1)
		b0, b1, b2, b3 = roundAVX2(b0, b1, b2, b3, k[4], k[5], s32, m0, m1)
		a0, a1, a2, a3 = roundAVX2(a0, a1, a2, a3, k[6], k[7], s32, m0, m1)
		b0, b1, b2, b3 = roundAVX2(b0, b1, b2, b3, k[6], k[7], s32, m0, m1)
		a0, a1, a2, a3 = roundAVX2(a0, a1, a2, a3, k[8], k[9], s32, m0, m1)
		b0, b1, b2, b3 = roundAVX2(b0, b1, b2, b3, k[8], k[9], s32, m0, m1)
		a0, a1, a2, a3 = roundAVX2(a0, a1, a2, a3, k[10], k[11], s32, m0, m1)
		b0, b1, b2, b3 = roundAVX2(b0, b1, b2, b3, k[10], k[11], s32, m0, m1)
		a0, a1, a2, a3 = roundAVX2(a0, a1, a2, a3, k[12], k[13], s32, m0, m1)
		b0, b1, b2, b3 = roundAVX2(b0, b1, b2, b3, k[12], k[13], s32, m0, m1)
		a0, a1, a2, a3 = roundAVX2(a0, a1, a2, a3, k[14], k[15], s32, m0, m1)
		b0, b1, b2, b3 = roundAVX2(b0, b1, b2, b3, k[14], k[15], s32, m0, m1)
		a0, a1, a2, a3 = roundAVX2(a0, a1, a2, a3, k[16], k[17], s32, m0, m1)
		b0, b1, b2, b3 = roundAVX2(b0, b1, b2, b3, k[16], k[17], s32, m0, m1)
		a0, a1, a2, a3 = roundAVX2(a0, a1, a2, a3, k[18], k[19], s32, m0, m1)
		b0, b1, b2, b3 = roundAVX2(b0, b1, b2, b3, k[18], k[19], s32, m0, m1)
		storeAVX2((*[16]uint32)(dst[:16]), a0, a1, a2, a3, low, s32)
		storeAVX2((*[16]uint32)(dst[16:32]), b0, b1, b2, b3, low, s32)
		dst = dst[32:]
	}
	archsimd.ClearAVXUpperBits()
	return dst
}
