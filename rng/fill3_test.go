package rng

import (
	"math"
	"testing"
)

// TestFillThreeBlocksAcrossCarries checks the three-block body of Fill
// against Bits at every offset of a carry into counter word 1 and of the
// 2^64 index wrap, for every length from 0 to 80 words.
func TestFillThreeBlocksAcrossCarries(t *testing.T) {
	var starts []uint64
	for _, edge := range []uint64{1 << 34, 2 << 34, math.MaxUint64 - 3} {
		for k := uint64(0); k < 64; k += 1 {
			starts = append(starts, edge-k)
		}
	}
	starts = append(starts, 0, 1, 2, 3, 1000)
	for _, start := range starts {
		for n := 0; n <= 80; n += 1 + n/8 {
			dst := make([]uint32, n)
			fillSerial(dst, 9, 1<<40+3, start)
			for j := range dst {
				if want := Bits(9, 1<<40+3, start+uint64(j)); dst[j] != want {
					t.Fatalf("start %d, %d words: word %d is %#x, want %#x", start, n, j, dst[j], want)
				}
			}
		}
	}
}
