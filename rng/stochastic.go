package rng

import (
	"errors"
	"fmt"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/parallel"
)

// ErrInvalidArgument reports a nil format, mismatched lengths or a
// random-bit count outside 1..32. Wrapped errors carry details; test with
// errors.Is.
var ErrInvalidArgument = errors.New("rng: invalid argument")

// encodeChunk is how many elements share one buffer of random words: small
// enough to stay in the L1 cache next to the data, large enough that the
// per-call checks of the codec do not matter.
const encodeChunk = 2048

// EncodeStochastic rounds src stochastically into dst (same length) in
// format f, element i using the low r bits (1..32) of Bits(seed, stream, i)
// as fp8's Format.EncodeStochastic does: the bits are added just below the
// last kept mantissa bit and the sum is truncated, so E[decode(dst[i])] =
// src[i] whenever r covers the bits that are dropped.
//
// The result depends only on (seed, stream, i, src[i], r), never on the
// number of cores or the chunking, so it can be reproduced bit for bit by a
// CUDA kernel using the same mapping. Use a distinct stream per tensor: see
// the package documentation for why a shared seed correlates rounding.
func EncodeStochastic(f *fp8.Format, dst []uint8, src []float32, seed, stream uint64, r int) error {
	return Stream{Seed: seed, ID: stream}.Encode(f, dst, src, 0, r)
}

// Encode is EncodeStochastic for elements start, start+1, ... of the
// stream: src[j] uses the random word Bits(Seed, ID, start+j). Splitting a
// tensor into parts and encoding each part with its own start gives exactly
// the result of encoding the whole tensor at once.
func (s Stream) Encode(f *fp8.Format, dst []uint8, src []float32, start uint64, r int) error {
	if f == nil {
		return fmt.Errorf("%w: nil format", ErrInvalidArgument)
	}
	if err := checkEncodeArgs(len(dst), len(src), r); err != nil {
		return err
	}
	mode := fp8.Mode{Round: fp8.Stochastic, RandomBits: r}
	// Chunks start on multiples of 4: each Philox block is computed once.
	return parallel.Chunks(len(src), 4, len(src), func(lo, hi int) error {
		var random [encodeChunk]uint32
		for i := lo; i < hi; i += encodeChunk {
			j := min(i+encodeChunk, hi)
			buf := random[:j-i]
			fillSerial(buf, s.Seed, s.ID, start+uint64(i))
			if err := f.EncodeSliceStochastic32(dst[i:j], src[i:j], buf, mode); err != nil {
				return s.locate(f, src, buf, i, j, start, mode, err)
			}
		}
		return nil
	})
}

// locate names the first failing element of src[lo:hi] after the codec
// reported err for that chunk (whose indices it counts from lo).
func (s Stream) locate(f *fp8.Format, src []float32, random []uint32, lo, hi int, start uint64, mode fp8.Mode, err error) error {
	for i := lo; i < hi; i++ {
		if _, e := f.EncodeStochastic(float64(src[i]), random[i-lo], mode); e != nil {
			return fmt.Errorf("rng: element %d (stream index %d): %w", i, start+uint64(i), e)
		}
	}
	return fmt.Errorf("rng: elements %d..%d: %w", lo, hi-1, err)
}

// EncodeWide rounds src stochastically into the 16-bit format w (fp8.BF16 or
// fp8.FP16), element j using the low r bits of Bits(Seed, ID, start+j), with
// the same rule as Encode. Out-of-range values saturate at ±Max; NaN stays NaN.
func (s Stream) EncodeWide(w *fp8.Wide, dst []uint16, src []float32, start uint64, r int) error {
	if w == nil {
		return fmt.Errorf("%w: nil format", ErrInvalidArgument)
	}
	if err := checkEncodeArgs(len(dst), len(src), r); err != nil {
		return err
	}
	var random [encodeChunk]uint32
	for i := 0; i < len(src); i += encodeChunk {
		j := min(i+encodeChunk, len(src))
		buf := random[:j-i]
		fillSerial(buf, s.Seed, s.ID, start+uint64(i))
		for k := i; k < j; k++ {
			c, err := w.EncodeStochastic(float64(src[k]), buf[k-i], r)
			if err != nil {
				return fmt.Errorf("rng: element %d: %w", k, err)
			}
			dst[k] = c
		}
	}
	return nil
}

// checkEncodeArgs validates the arguments shared by the slice encoders.
func checkEncodeArgs(nDst, nSrc, r int) error {
	if nDst != nSrc {
		return fmt.Errorf("%w: dst has %d elements, src %d", ErrInvalidArgument, nDst, nSrc)
	}
	return checkRandomBits(r)
}

// DefaultRandomBits is the number of random bits used where none is given:
// all 32 bits of a Philox word, enough for unbiased rounding of every float32.
const DefaultRandomBits = 32

// checkRandomBits validates a random-bit count.
func checkRandomBits(r int) error {
	if r < 1 || r > 32 {
		return fmt.Errorf("%w: random bits must be in 1..32, got %d", ErrInvalidArgument, r)
	}
	return nil
}
