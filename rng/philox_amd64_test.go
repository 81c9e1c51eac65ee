//go:build amd64 && !purego

package rng

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// checkAVX2 runs fillAVX2 from block b under counter words (hi, s0, s1) and
// key k, and compares every block it wrote with philoxReference (a loop
// over math/bits.Mul32, independent of both fill paths).
func checkAVX2(t *testing.T, b, hi, s0, s1 uint32, k [2]uint32, words int) {
	t.Helper()
	keys := philoxKeys(k[0], k[1])
	dst := make([]uint32, words)
	rest := fillAVX2(dst, b, hi, s0, s1, &keys)
	done := (len(dst) - len(rest)) / 4
	require.Equal(t, len(dst)-len(rest), 4*done, "whole blocks only")
	if words >= 32 && uint64(b)+7 <= math.MaxUint32 {
		require.Positive(t, done, "block %#x, %d words: nothing written", b, words)
	}
	for j := range done {
		want := philoxReference([4]uint32{b + uint32(j), hi, s0, s1}, k, PhiloxRounds)
		got := [4]uint32(dst[4*j : 4*j+4])
		if got != want {
			t.Fatalf("block %#x+%d counter (%#x, %#x, %#x) key %#x: got %08x, want %08x", b, j, hi, s0, s1, k, got, want)
		}
	}
}

// TestFillAVX2KnownAnswers puts each Random123 known-answer counter in every
// lane position of the eight-block vector pair that can hold it without
// block word 0 wrapping.
func TestFillAVX2KnownAnswers(t *testing.T) {
	if !wideOK {
		t.Skip("no AVX2")
	}
	for _, v := range philoxKAT {
		for p := range uint32(8) {
			first := uint64(v.ctr[0]) - uint64(p)
			if first > uint64(v.ctr[0]) || first+7 > math.MaxUint32 {
				continue // the vector pair would wrap
			}
			keys := philoxKeys(v.key[0], v.key[1])
			dst := make([]uint32, 32)
			require.Empty(t, fillAVX2(dst, uint32(first), v.ctr[1], v.ctr[2], v.ctr[3], &keys))
			require.Equal(t, v.want, [4]uint32(dst[4*p:4*p+4]), "KAT %08x in lane %d", v.ctr, p)
		}
	}
}

// TestFillAVX2MatchesReference compares the AVX2 body with the scalar
// reference on 2^20 blocks: counters and keys at the edges of their range
// and at random, starting blocks at every lane offset and at the top of
// counter word 0, and lengths that are not multiples of the vector pair.
func TestFillAVX2MatchesReference(t *testing.T) {
	if !wideOK {
		t.Skip("no AVX2")
	}
	r := rand.New(rand.NewPCG(14, 2))
	edges := []uint32{0, 1, 0x7FFFFFFF, 0x80000000, math.MaxUint32}
	blocks := 0
	for _, e := range edges {
		for p := range uint32(16) {
			checkAVX2(t, e+p, e, e, e, [2]uint32{e, e}, 4*64+4*(int(p)%5))
			checkAVX2(t, math.MaxUint32-7-p, e, ^e, e, [2]uint32{^e, e}, 4*64)
			blocks += 128
		}
	}
	for blocks < 1<<20 {
		checkAVX2(t, r.Uint32(), r.Uint32(), r.Uint32(), r.Uint32(), [2]uint32{r.Uint32(), r.Uint32()}, 4*4096)
		blocks += 4096
	}
}
