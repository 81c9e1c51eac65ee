package dither

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEmptyImagesAreErrors: a zero-value Gray used to divide by zero in
// Dither and Quantizer.Frame (issue 12 item 7; package quality's test has
// the measures).
func TestEmptyImagesAreErrors(t *testing.T) {
	empty := &Gray{}
	good, err := NewGray(2, 2)
	require.NoError(t, err)
	opts := Options{Levels: 2}
	_, err = Dither(empty, opts)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, err = Dither(empty, Options{Levels: 2, Method: Stochastic, Frames: 4})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	q, err := NewQuantizer(opts)
	require.NoError(t, err)
	assert.ErrorIs(t, q.Frame(&Gray{}, empty, 0), ErrInvalidArgument)
	assert.ErrorIs(t, q.Frame(&Gray{}, good, 0), ErrInvalidArgument)
	assert.ErrorIs(t, empty.EncodePNG(&bytes.Buffer{}), ErrInvalidArgument)
	// A zero-value or nil Quantizer is refused, not dereferenced.
	_, err = (&Quantizer{}).Dither(good)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	var nilQ *Quantizer
	assert.ErrorIs(t, nilQ.Frame(good, good, 0), ErrInvalidArgument)
}

// TestFromImageShortPalette: a paletted image whose indices run past its
// palette used to panic in image.Paletted.At (issue 12 item 7).
func TestFromImageShortPalette(t *testing.T) {
	p := image.NewPaletted(image.Rect(0, 0, 3, 2), color.Palette{color.Gray{0}, color.Gray{255}})
	p.Pix[4] = 7
	_, err := FromImage(p)
	require.ErrorIs(t, err, ErrInvalidArgument)
	assert.Contains(t, err.Error(), "color 7 of a 2-color palette")
	_, err = FromImage(image.NewPaletted(image.Rect(0, 0, 2, 2), nil))
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, err = FromImage(image.NewPaletted(image.Rect(0, 0, 2, 2), color.Palette{nil}))
	assert.ErrorIs(t, err, ErrInvalidArgument)
	p.Pix[4] = 1
	g, err := FromImage(p)
	require.NoError(t, err)
	assert.Equal(t, float32(1), g.At(1, 1))
}

// TestFromImageFastPaths: the typed fast paths give exactly what the
// generic luminance(img.At(x, y)) gives, sub-images included.
func TestFromImageFastPaths(t *testing.T) {
	r := image.Rect(0, 0, 7, 5)
	imgs := []image.Image{
		image.NewGray(r), image.NewGray16(r), image.NewRGBA(r), image.NewRGBA64(r),
		image.NewNRGBA(r), image.NewNRGBA64(r),
		image.NewYCbCr(r, image.YCbCrSubsampleRatio420), image.NewYCbCr(r, image.YCbCrSubsampleRatio444),
	}
	for k, img := range imgs {
		for y := 0; y < r.Dy(); y++ {
			for x := 0; x < r.Dx(); x++ {
				c := color.NRGBA64{uint16(x * 9001), uint16(y * 13007), uint16((x + y) * 7919), uint16(65535 - x*3000)}
				switch m := img.(type) {
				case *image.YCbCr:
					yy, cb, cr := color.RGBToYCbCr(uint8(x*37), uint8(y*51), uint8(x*y*11))
					m.Y[m.YOffset(x, y)] = yy
					m.Cb[m.COffset(x, y)], m.Cr[m.COffset(x, y)] = cb, cr
				case interface{ Set(int, int, color.Color) }:
					m.Set(x, y, c)
				}
			}
		}
		sub := img.(interface {
			SubImage(image.Rectangle) image.Image
		}).SubImage(image.Rect(1, 1, 6, 4))
		for _, src := range []image.Image{img, sub} {
			g, err := FromImage(src)
			require.NoError(t, err)
			b := src.Bounds()
			for y := b.Min.Y; y < b.Max.Y; y++ {
				for x := b.Min.X; x < b.Max.X; x++ {
					require.Equal(t, luminance(src.At(x, y)), g.At(x-b.Min.X, y-b.Min.Y), "image %d %T (%d, %d)", k, src, x, y)
				}
			}
		}
	}
}

// TestLoadGrayPixelLimit: a small file claiming a large image is refused
// from its header by the default limit; LoadGrayLimit raises it (issue 12
// item 9).
func TestLoadGrayPixelLimit(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewGray16(image.Rect(0, 0, 4097, 4096))))
	data := buf.Bytes()
	_, err := LoadGray(bytes.NewReader(data))
	require.ErrorIs(t, err, ErrInvalidArgument)
	assert.Contains(t, err.Error(), "over the limit")
	g, err := LoadGrayLimit(bytes.NewReader(data), 4097*4096)
	require.NoError(t, err)
	assert.Equal(t, 4097, g.Width())
	_, err = LoadGrayLimit(bytes.NewReader(data), 0)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, err = LoadGrayLimit(bytes.NewReader(data), MaxPixels+1)
	assert.ErrorIs(t, err, ErrInvalidArgument)
}

// TestLoadGray16BitAllocations: converting a decoded 16-bit image takes
// no allocation per pixel (it used to go through img.At and an interface
// value per pixel: 1.4 GB for 8192²).
func TestLoadGray16BitAllocations(t *testing.T) {
	r := image.Rect(0, 0, 256, 256)
	for _, img := range []draw.Image{image.NewGray16(r), image.NewRGBA64(r), image.NewNRGBA64(r)} {
		for y := 0; y < 256; y++ {
			for x := 0; x < 256; x++ {
				img.Set(x, y, color.RGBA64{uint16(x*257 + 1), uint16(y*255 + 3), 999, 0xFFFF})
			}
		}
		allocs := testing.AllocsPerRun(3, func() {
			_, err := FromImage(img)
			require.NoError(t, err)
		})
		assert.LessOrEqual(t, allocs, 4.0, "%T", img)
	}
}
