package rng

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
)

// FuzzEncodeStochastic checks the bulk stochastic encoder against the scalar
// codec with the documented random words, for arbitrary float32 bit
// patterns (NaN, Inf, subnormals included), formats, streams and bit counts.
func FuzzEncodeStochastic(f *testing.F) {
	f.Add([]byte{0, 0, 128, 63, 0, 0, 192, 127, 1, 0, 0, 0}, uint64(1), uint64(2), uint64(3), uint8(8), uint8(0))
	f.Add([]byte{0, 0, 128, 255, 255, 255, 127, 127}, uint64(0), uint64(0), uint64(math.MaxUint64), uint8(32), uint8(6))
	presets := fp8.Presets()
	f.Fuzz(func(t *testing.T, data []byte, seed, stream, start uint64, r uint8, which uint8) {
		format := presets[int(which)%len(presets)]
		src := make([]float32, len(data)/4)
		for i := range src {
			src[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
		}
		bits := int(r % 34) // includes the invalid 0 and 33
		dst := make([]uint8, len(src))
		err := NewStream(seed, stream).Encode(format, dst, src, start, bits)
		if bits < 1 || bits > 32 {
			if !errors.Is(err, ErrInvalidArgument) {
				t.Fatalf("r=%d: want ErrInvalidArgument, got %v", bits, err)
			}
			return
		}
		mode := fp8.Mode{Round: fp8.Stochastic, RandomBits: bits}
		firstErr := -1
		for i, x := range src {
			want, e := format.EncodeStochastic(float64(x), Bits(seed, stream, start+uint64(i)), mode)
			if e != nil {
				firstErr = i
				break
			}
			if err == nil && dst[i] != want {
				t.Fatalf("%s r=%d element %d (%g): got %#02x, want %#02x", format, bits, i, x, dst[i], want)
			}
		}
		if (firstErr >= 0) != (err != nil) {
			t.Fatalf("%s: scalar error at %d, bulk error %v", format, firstErr, err)
		}
	})
}

func FuzzFill(f *testing.F) {
	f.Add(uint64(0), uint64(0), uint64(0), uint16(9))
	f.Add(uint64(math.MaxUint64), uint64(1<<40), uint64(math.MaxUint64-3), uint16(13))
	f.Fuzz(func(t *testing.T, seed, stream, start uint64, n uint16) {
		dst := make([]uint32, n%300)
		Fill(dst, seed, stream, start)
		for i, w := range dst {
			if want := Bits(seed, stream, start+uint64(i)); w != want {
				t.Fatalf("word %d: %08x, want %08x", i, w, want)
			}
		}
	})
}
