package rng

// The constants of Philox4x32 (Salmon, Moraes, Dror and Shaw, "Parallel
// random numbers: as easy as 1, 2, 3", SC'11), as in Random123 and cuRAND.
const (
	philoxM0 = 0xD2511F53 // multiplier applied to counter word 0
	philoxM1 = 0xCD9E8D57 // multiplier applied to counter word 2
	philoxW0 = 0x9E3779B9 // key schedule increment of key word 0 (golden ratio)
	philoxW1 = 0xBB67AE85 // key schedule increment of key word 1 (sqrt(3) - 1)
)

// PhiloxRounds is the number of rounds of the generator used throughout the
// package: Philox4x32-10, the variant Random123 recommends and cuRAND ships.
const PhiloxRounds = 10

// Philox4x32 computes the Philox4x32-10 block function: it encrypts the
// 128-bit counter ctr under the 64-bit key and returns four 32-bit words.
// It is a pure function, the same in Go, WASM and CUDA, and matches the
// known-answer vectors published with Random123 (tests/kat_vectors).
//
// One round maps (c0, c1, c2, c3) under key (k0, k1) to
//
//	hi0:lo0 = M0 * c0   (64-bit product)
//	hi1:lo1 = M1 * c2
//	(hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0)
//
// and the key is bumped by (W0, W1) between rounds.
func Philox4x32(ctr [4]uint32, key [2]uint32) [4]uint32 {
	a, b, c, d := philox(ctr[0], ctr[1], ctr[2], ctr[3], key[0], key[1])
	return [4]uint32{a, b, c, d}
}

// philoxRound is one Philox round; it is small enough to be inlined.
func philoxRound(c0, c1, c2, c3, k0, k1 uint32) (uint32, uint32, uint32, uint32) {
	p0 := uint64(philoxM0) * uint64(c0)
	p1 := uint64(philoxM1) * uint64(c2)
	return uint32(p1>>32) ^ c1 ^ k0, uint32(p1), uint32(p0>>32) ^ c3 ^ k1, uint32(p0)
}

// philox is Philox4x32-10 with the ten rounds unrolled and the key schedule
// computed inline, so that the compiler keeps everything in registers.
func philox(c0, c1, c2, c3, k0, k1 uint32) (uint32, uint32, uint32, uint32) {
	c0, c1, c2, c3 = philoxRound(c0, c1, c2, c3, k0, k1)
	k0, k1 = k0+philoxW0, k1+philoxW1
	c0, c1, c2, c3 = philoxRound(c0, c1, c2, c3, k0, k1)
	k0, k1 = k0+philoxW0, k1+philoxW1
	c0, c1, c2, c3 = philoxRound(c0, c1, c2, c3, k0, k1)
	k0, k1 = k0+philoxW0, k1+philoxW1
	c0, c1, c2, c3 = philoxRound(c0, c1, c2, c3, k0, k1)
	k0, k1 = k0+philoxW0, k1+philoxW1
	c0, c1, c2, c3 = philoxRound(c0, c1, c2, c3, k0, k1)
	k0, k1 = k0+philoxW0, k1+philoxW1
	c0, c1, c2, c3 = philoxRound(c0, c1, c2, c3, k0, k1)
	k0, k1 = k0+philoxW0, k1+philoxW1
	c0, c1, c2, c3 = philoxRound(c0, c1, c2, c3, k0, k1)
	k0, k1 = k0+philoxW0, k1+philoxW1
	c0, c1, c2, c3 = philoxRound(c0, c1, c2, c3, k0, k1)
	k0, k1 = k0+philoxW0, k1+philoxW1
	c0, c1, c2, c3 = philoxRound(c0, c1, c2, c3, k0, k1)
	k0, k1 = k0+philoxW0, k1+philoxW1
	return philoxRound(c0, c1, c2, c3, k0, k1)
}
