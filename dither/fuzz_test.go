package dither

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"strconv"
	"testing"
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
