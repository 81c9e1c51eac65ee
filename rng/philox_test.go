package rng

import (
	"math"
	"math/bits"
	"runtime"
	"testing"

	"github.com/fp8lab/fp8lab/internal/parallel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat"
)

// The Philox4x32-10 known-answer vectors of Random123 (tests/kat_vectors,
// the three "philox4x32 10" lines), published with Salmon et al., SC'11.
// Columns: counter (4 words), key (2 words), expected output (4 words).
var philoxKAT = []struct {
	ctr  [4]uint32
	key  [2]uint32
	want [4]uint32
}{
	{[4]uint32{0, 0, 0, 0}, [2]uint32{0, 0}, [4]uint32{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
	{[4]uint32{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, [2]uint32{0xffffffff, 0xffffffff}, [4]uint32{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
	{[4]uint32{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, [2]uint32{0xa4093822, 0x299f31d0}, [4]uint32{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
}

func TestPhilox4x32KnownAnswers(t *testing.T) {
	for _, v := range philoxKAT {
		assert.Equal(t, v.want, Philox4x32(v.ctr, v.key), "ctr %08x key %08x", v.ctr, v.key)
		assert.Equal(t, v.want, philoxReference(v.ctr, v.key, PhiloxRounds))
	}
}

// philoxReference is Philox4x32-R written the way Random123 writes it: a
// loop with math/bits.Mul32 and the key bumped before every round but the
// first. It checks that the unrolled version computes the same function on
// inputs beyond the three published vectors.
func philoxReference(ctr [4]uint32, key [2]uint32, rounds int) [4]uint32 {
	for r := 0; r < rounds; r++ {
		if r > 0 {
			key[0] += 0x9E3779B9
			key[1] += 0xBB67AE85
		}
		hi0, lo0 := bits.Mul32(0xD2511F53, ctr[0])
		hi1, lo1 := bits.Mul32(0xCD9E8D57, ctr[2])
		ctr = [4]uint32{hi1 ^ ctr[1] ^ key[0], lo1, hi0 ^ ctr[3] ^ key[1], lo0}
	}
	return ctr
}

func TestPhiloxMatchesLoopReference(t *testing.T) {
	x := [4]uint32{1, 2, 3, 4}
	k := [2]uint32{5, 6}
	for i := 0; i < 1000; i++ {
		got := Philox4x32(x, k)
		require.Equal(t, philoxReference(x, k, 10), got)
		x, k = got, [2]uint32{got[1] ^ k[0], got[3] + k[1]} // walk through varied inputs
	}
}

// TestBitsLayout checks Bits against a direct Philox call with the counter
// and key layout the package documentation gives (and CUDA kernels copy).
func TestBitsLayout(t *testing.T) {
	cases := []struct{ seed, stream, index uint64 }{
		{0, 0, 0}, {0, 0, 1}, {0, 0, 2}, {0, 0, 3}, {0, 0, 4},
		{42, 7, 12345}, {0xDEADBEEFCAFEF00D, 0x0123456789ABCDEF, 0xFEDCBA9876543210},
		{1, 1 << 32, 1 << 34}, {math.MaxUint64, math.MaxUint64, math.MaxUint64},
	}
	for _, c := range cases {
		ctr := [4]uint32{uint32(c.index / 4), uint32((c.index / 4) >> 32), uint32(c.stream), uint32(c.stream >> 32)}
		key := [2]uint32{uint32(c.seed), uint32(c.seed >> 32)}
		want := philoxReference(ctr, key, 10)[c.index%4]
		assert.Equal(t, want, Bits(c.seed, c.stream, c.index), "%+v", c)
		assert.Equal(t, want, NewStream(c.seed, c.stream).Bits(c.index))
	}
	// Seed 0, stream 0, indices 0..3 are the first known-answer vector.
	for i := uint64(0); i < 4; i++ {
		assert.Equal(t, philoxKAT[0].want[i], Bits(0, 0, i))
	}
}

func TestFillMatchesBits(t *testing.T) {
	for _, start := range []uint64{0, 1, 2, 3, 5, 1<<34 - 3, math.MaxUint64 - 6} {
		for _, n := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 63, 1000} {
			dst := make([]uint32, n)
			Fill(dst, 99, 3, start)
			for j := range dst {
				require.Equal(t, Bits(99, 3, start+uint64(j)), dst[j], "start %d n %d j %d", start, n, j)
			}
		}
	}
}

func TestFillParallelMatchesSerial(t *testing.T) {
	const n = 3*parallel.MinWork + 11
	serial := make([]uint32, n)
	fillSerial(serial, 7, 8, 5)
	for _, procs := range []int{2, 3, 8} {
		prev := runtime.GOMAXPROCS(procs)
		par := make([]uint32, n)
		Fill(par, 7, 8, 5)
		runtime.GOMAXPROCS(prev)
		require.Equal(t, serial, par, "GOMAXPROCS=%d", procs)
	}
}

// TestStreamsIndependent bounds the correlation between the random words
// of neighbouring seeds, streams and index ranges. For independent uniform
// words the sample correlation of n pairs has standard deviation 1/sqrt(n);
// the bound is 5 standard deviations (a false alarm about once in 1.7
// million runs, and the seeds are fixed, so the test is deterministic).
func TestStreamsIndependent(t *testing.T) {
	const n = 1 << 16
	words := func(seed, stream, start uint64) []float64 {
		buf := make([]uint32, n)
		Fill(buf, seed, stream, start)
		out := make([]float64, n)
		for i, w := range buf {
			out[i] = float64(w)
		}
		return out
	}
	base := words(1, 0, 0)
	others := map[string][]float64{
		"seed+1":      words(2, 0, 0),
		"seed<<32":    words(1<<32|1, 0, 0),
		"stream+1":    words(1, 1, 0),
		"stream<<32":  words(1, 1<<32, 0),
		"index+1":     words(1, 0, 1),
		"index+4":     words(1, 0, 4),
		"index+2^34":  words(1, 0, 1<<34),
		"seed xor hi": words(1^1<<63, 0, 0),
	}
	bound := 5 / math.Sqrt(n)
	for name, o := range others {
		c := stat.Correlation(base, o, nil)
		assert.Less(t, math.Abs(c), bound, "%s: correlation %.5f", name, c)
	}
	// Each bit position is fair: the count of ones is within 5 sigma of n/2.
	buf := make([]uint32, n)
	Fill(buf, 1, 0, 0)
	for b := 0; b < 32; b++ {
		ones := 0
		for _, w := range buf {
			ones += int(w >> b & 1)
		}
		assert.InDelta(t, n/2, ones, 5*math.Sqrt(n)/2, "bit %d", b)
	}
}

// curandPhilox emulates the state logic of cuRAND's
// curandStatePhilox4_32_10_t as its header (curand_philox4x32_x.h) writes
// it: curand_init(seed, subsequence, offset) zeroes the counter, sets the
// key from the seed, adds subsequence to counter words 2..3
// (Philox_State_Incr_hi), then skips offset words: STATE = offset mod 4 and
// offset/4 added to counter words 0..3 with carries (Philox_State_Incr);
// curand() returns output[STATE] of the block at the counter.
type curandPhilox struct {
	ctr   [4]uint32
	key   [2]uint32
	state int
}

func curandInit(seed, subsequence, offset uint64) *curandPhilox {
	s := &curandPhilox{key: [2]uint32{uint32(seed), uint32(seed >> 32)}}
	// Philox_State_Incr_hi(s, subsequence)
	nlo, nhi := uint32(subsequence), uint32(subsequence>>32)
	s.ctr[2] += nlo
	if s.ctr[2] < nlo {
		nhi++
	}
	s.ctr[3] += nhi
	// skipahead(offset)
	s.state += int(offset & 3)
	n := offset / 4
	if s.state > 3 {
		n++
		s.state -= 4
	}
	// Philox_State_Incr(s, n)
	nlo, nhi = uint32(n), uint32(n>>32)
	s.ctr[0] += nlo
	if s.ctr[0] < nlo {
		nhi++
	}
	s.ctr[1] += nhi
	if nhi <= s.ctr[1] {
		return s
	}
	if s.ctr[2]++; s.ctr[2] != 0 {
		return s
	}
	s.ctr[3]++
	return s
}

func (s *curandPhilox) first() uint32 { return Philox4x32(s.ctr, s.key)[s.state] }

// TestBitsIsCurandFirstOutput checks the documented claim that Bits(seed,
// stream, i) is the first curand() value after curand_init(seed, stream, i)
// for cuRAND's Philox state, as emulated from cuRAND's source above.
func TestBitsIsCurandFirstOutput(t *testing.T) {
	for _, seed := range []uint64{0, 1, 0xDEADBEEF12345678} {
		for _, stream := range []uint64{0, 1, 77, 1 << 32, math.MaxUint64} {
			for _, i := range []uint64{0, 1, 2, 3, 4, 5, 1000, 1<<34 + 3, math.MaxUint64} {
				assert.Equal(t, curandInit(seed, stream, i).first(), Bits(seed, stream, i), "seed %d stream %d index %d", seed, stream, i)
			}
		}
	}
}

// TestFillAcrossCounterCarries covers the places where Fill's two-block
// fast path must step aside: the low counter word wrapping and the index
// wrapping around 2^64.
func TestFillAcrossCounterCarries(t *testing.T) {
	for _, start := range []uint64{4*(1<<32-3) + 1, 4 * (1<<32 - 2), 4*(1<<33-1) - 6, math.MaxUint64 - 40} {
		dst := make([]uint32, 64)
		Fill(dst, 5, 6, start)
		for j := range dst {
			require.Equal(t, Bits(5, 6, start+uint64(j)), dst[j], "start %d j %d", start, j)
		}
	}
}

func TestStreamMethodsMatchFunctions(t *testing.T) {
	s := NewStream(3, 4)
	a := make([]uint32, 37)
	b := make([]uint32, 37)
	s.Fill(a, 11)
	Fill(b, 3, 4, 11)
	assert.Equal(t, b, a)
	assert.Equal(t, Bits(3, 4, 11), s.Bits(11))
}

// TestFillShortAllocatesNothing checks the documented promise: a slice
// short enough to be filled inline costs no allocation.
func TestFillShortAllocatesNothing(t *testing.T) {
	buf := make([]uint32, 1000)
	assert.Zero(t, testing.AllocsPerRun(50, func() { Fill(buf, 1, 2, 3) }))
}
