package rng

import (
	"github.com/fp8lab/fp8lab/internal/parallel"
)

// Stream names one independent sequence of random words: all the random
// bits of one tensor (or one image frame) under one seed. Word i of the
// stream is Bits(Seed, ID, i); see the package documentation for the exact
// Philox counter and key layout. The zero Stream is valid (seed 0, stream 0).
type Stream struct {
	Seed uint64 // the experiment's or training run's seed: the Philox key
	ID   uint64 // which tensor, layer or frame: the high half of the Philox counter
}

// NewStream returns the stream id of seed. Give every tensor that is rounded
// stochastically its own id (a layer number, a parameter index): tensors that
// share both seed and id see the same random word at the same element index,
// so their rounding errors are correlated instead of independent.
func NewStream(seed, id uint64) Stream { return Stream{Seed: seed, ID: id} }

// Bits returns the random word of element index in this stream.
func (s Stream) Bits(index uint64) uint32 { return Bits(s.Seed, s.ID, index) }

// Fill writes the words of elements start, start+1, ... into dst.
func (s Stream) Fill(dst []uint32, start uint64) { Fill(dst, s.Seed, s.ID, start) }

// Bits returns the random word for element index of stream under seed:
//
//	key     = (uint32(seed), uint32(seed >> 32))
//	counter = (uint32(index >> 2), uint32(index >> 34), uint32(stream), uint32(stream >> 32))
//	Bits    = Philox4x32(counter, key)[index & 3]
//
// By cuRAND's definition of curand_init's skip-ahead, this is the value
// curand() returns first after curand_init(seed, stream, index, &state)
// with a curandStatePhilox4_32_10_t.
func Bits(seed, stream, index uint64) uint32 {
	a, b, c, d := philox(uint32(index>>2), uint32(index>>34), uint32(stream), uint32(stream>>32), uint32(seed), uint32(seed>>32))
	switch index & 3 {
	case 0:
		return a
	case 1:
		return b
	case 2:
		return c
	}
	return d
}

// Fill writes Bits(seed, stream, start+j) into dst[j] for every j. It makes
// one Philox call per four words, allocates nothing for short slices and
// splits long ones across the available cores by internal/parallel's rule,
// chunks starting on multiples of 4 so that each Philox block is computed
// once; the result does not depend on how the work is split. Indices wrap
// around modulo 2^64.
func Fill(dst []uint32, seed, stream, start uint64) {
	if parallel.Workers(len(dst)) == 1 {
		fillSerial(dst, seed, stream, start) // inline: no closure to allocate
		return
	}
	err := parallel.Chunks(len(dst), 4, len(dst), func(lo, hi int) error {
		fillSerial(dst[lo:hi], seed, stream, start+uint64(lo))
		return nil
	})
	if err != nil {
		// fillSerial cannot fail: a panic in it is a bug, raised again here,
		// on the caller's goroutine, instead of in a worker.
		panic(err)
	}
}

// fillSerial is Fill on the calling goroutine.
func fillSerial(dst []uint32, seed, stream, start uint64) {
	k0, k1 := uint32(seed), uint32(seed>>32)
	s0, s1 := uint32(stream), uint32(stream>>32)
	// Head: elements before the next multiple of 4.
	for len(dst) > 0 && start&3 != 0 {
		dst[0] = Bits(seed, stream, start)
		dst = dst[1:]
		start++
	}
	// Body: whole Philox blocks, several at a time while their counters
	// differ only in word 0 (fillWide: eight per iteration with AVX2 on
	// amd64, else three per scalar iteration); one block across each carry
	// into word 1 (and the wrap of the 62-bit block index, which is such a
	// carry). block counts the 4-word block index.
	block := start >> 2
	keys := philoxKeys(k0, k1)
	for len(dst) >= 12 {
		n := len(dst)
		dst = fillWide(dst, uint32(block), uint32(block>>32), s0, s1, &keys)
		block = (block + uint64(n-len(dst))/4) & (1<<62 - 1) // the last block may carry
		if len(dst) < 12 {
			break
		}
		a, b, c, d := philox(uint32(block), uint32(block>>32), s0, s1, k0, k1)
		dst[0], dst[1], dst[2], dst[3] = a, b, c, d
		dst = dst[4:]
		block = (block + 1) & (1<<62 - 1) // indices wrap modulo 2^64
	}
	for len(dst) >= 4 {
		a, b, c, d := philox(uint32(block), uint32(block>>32), s0, s1, k0, k1)
		dst[0], dst[1], dst[2], dst[3] = a, b, c, d
		dst = dst[4:]
		block = (block + 1) & (1<<62 - 1) // indices wrap modulo 2^64
	}
	// Tail.
	start = block << 2
	for i := range dst {
		dst[i] = Bits(seed, stream, start+uint64(i))
	}
}
