package dither

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/png"
	"math"
	"strconv"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
)

func FuzzParseMethod(f *testing.F) {
	for _, s := range []string{"nearest", "stochastic", "bayer2", "bayer4", "bayer8", "floyd", " FS ", "bayer16", "", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMethod(s)
		if err != nil {
			if !errors.Is(err, ErrUnknownMethod) {
				t.Fatalf("%q: error %v does not wrap ErrUnknownMethod", s, err)
			}
			return
		}
		if !m.Valid() {
			t.Fatalf("%q parsed to invalid %v", s, m)
		}
		back, err := ParseMethod(m.String())
		if err != nil || back != m {
			t.Fatalf("%q -> %v -> %v, %v", s, m, back, err)
		}
	})
}

func FuzzParseLevels(f *testing.F) {
	for _, s := range []string{"2", "256", "65536", "65537", "1", "-3", " 7 ", "0x10", "1e3", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, err := ParseLevels(s)
		if err != nil {
			if !errors.Is(err, ErrInvalidArgument) {
				t.Fatalf("%q: error %v does not wrap ErrInvalidArgument", s, err)
			}
			return
		}
		if k < 2 || k > MaxLevels {
			t.Fatalf("%q -> %d out of range", s, k)
		}
		if back, err := ParseLevels(strconv.Itoa(k)); err != nil || back != k {
			t.Fatalf("%q -> %d -> %d, %v", s, k, back, err)
		}
		if _, err := NewQuantizer(Options{Levels: k}); err != nil {
			t.Fatalf("levels %d accepted by ParseLevels but not by NewQuantizer: %v", k, err)
		}
	})
}

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

// FuzzLoadGray feeds arbitrary bytes to the image loader: it must return an
// image or an error, never panic, and never exceed MaxPixels.
func FuzzLoadGray(f *testing.F) {
	var buf bytes.Buffer
	_ = png.Encode(&buf, image.NewGray(image.Rect(0, 0, 3, 2)))
	f.Add(buf.Bytes())
	f.Add([]byte("\xff\xd8\xff"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := LoadGray(bytes.NewReader(data))
		if err != nil {
			return
		}
		if g.Width()*g.Height() > MaxPixels || len(g.Pix()) != g.Width()*g.Height() {
			t.Fatalf("bad image %dx%d with %d pixels", g.Width(), g.Height(), len(g.Pix()))
		}
	})
}
