package dither

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGrayBasics(t *testing.T) {
	g, err := NewGray(3, 2)
	require.NoError(t, err)
	assert.Equal(t, 3, g.Width())
	assert.Equal(t, 2, g.Height())
	g.Set(2, 1, 0.5)
	g.Set(3, 1, 9) // outside: ignored
	g.Set(-1, 0, 9)
	assert.Equal(t, float32(0.5), g.At(2, 1))
	assert.Equal(t, float32(0.5), g.Pix()[5])
	assert.Equal(t, float32(0), g.At(5, 5))
	c := g.Clone()
	c.Set(0, 0, 1)
	assert.Equal(t, float32(0), g.At(0, 0), "clone is a copy")

	for _, size := range [][2]int{{0, 1}, {1, 0}, {-1, 5}, {MaxPixels, 2}} {
		_, err := NewGray(size[0], size[1])
		assert.ErrorIs(t, err, ErrInvalidArgument, "%v", size)
	}
	_, err = GrayFromPixels(2, 2, []float32{1, 2, 3})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	src := []float32{0, 0.25, 0.5, 1}
	g2, err := GrayFromPixels(2, 2, src)
	require.NoError(t, err)
	src[0] = 1
	assert.Equal(t, float32(0), g2.At(0, 0), "pixels are copied")

	var nilGray *Gray
	assert.Equal(t, 0, nilGray.Width())
	assert.Equal(t, 0, nilGray.Height())
	assert.Nil(t, nilGray.Pix())
	assert.Nil(t, nilGray.Clone())
	assert.Equal(t, float32(0), nilGray.At(0, 0))
	nilGray.Set(0, 0, 1)
	assert.Equal(t, 0, nilGray.ToImage().Bounds().Dx())
	assert.ErrorIs(t, nilGray.EncodePNG(&bytes.Buffer{}), ErrInvalidArgument)
	assert.ErrorIs(t, g.EncodePNG(nil), ErrInvalidArgument)
}

func TestToImageRoundsAndClamps(t *testing.T) {
	g, err := GrayFromPixels(6, 1, []float32{-1, 0, 0.5, 1.0 / 255 * 0.49, 1, 7})
	require.NoError(t, err)
	g.Pix()[3] = float32(math.NaN())
	img := g.ToImage()
	assert.Equal(t, []uint8{0, 0, 128, 0, 255, 255}, img.Pix)
}

func TestPNGRoundTrip(t *testing.T) {
	g, err := Mystery(40, 30)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, g.EncodePNG(&buf))
	back, err := LoadGray(&buf)
	require.NoError(t, err)
	require.Equal(t, 40, back.Width())
	require.Equal(t, 30, back.Height())
	for i, v := range g.Pix() {
		require.InDelta(t, v, back.Pix()[i], 0.5/255+1e-6, "pixel %d", i)
	}
}

func TestLoadGrayColorAndJPEG(t *testing.T) {
	rgba := image.NewNRGBA(image.Rect(0, 0, 4, 1))
	rgba.Set(0, 0, color.NRGBA{255, 0, 0, 255})
	rgba.Set(1, 0, color.NRGBA{0, 255, 0, 255})
	rgba.Set(2, 0, color.NRGBA{0, 0, 255, 255})
	rgba.Set(3, 0, color.NRGBA{255, 255, 255, 0}) // transparent: black
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, rgba))
	g, err := LoadGray(&buf)
	require.NoError(t, err)
	assert.InDelta(t, 0.299, g.At(0, 0), 1e-3)
	assert.InDelta(t, 0.587, g.At(1, 0), 1e-3)
	assert.InDelta(t, 0.114, g.At(2, 0), 1e-3)
	assert.Equal(t, float32(0), g.At(3, 0))

	gray := image.NewGray(image.Rect(0, 0, 16, 16))
	for i := range gray.Pix {
		gray.Pix[i] = 200
	}
	buf.Reset()
	require.NoError(t, jpeg.Encode(&buf, gray, &jpeg.Options{Quality: 95}))
	g, err = LoadGray(&buf)
	require.NoError(t, err)
	assert.InDelta(t, 200.0/255, g.At(7, 7), 2.0/255)

	// A sub-image of an image.Gray goes through the fast path correctly.
	for i := range gray.Pix {
		gray.Pix[i] = uint8(i)
	}
	sub := gray.SubImage(image.Rect(3, 2, 6, 5))
	g, err = FromImage(sub)
	require.NoError(t, err)
	assert.Equal(t, float32(2*16+3)/255, g.At(0, 0))
	assert.Equal(t, float32(4*16+5)/255, g.At(2, 2))
}

func TestLoadGrayErrors(t *testing.T) {
	_, err := LoadGray(nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, err = LoadGray(strings.NewReader("not an image"))
	assert.Error(t, err)
	_, err = FromImage(nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	// A PNG header that claims a huge size is refused before decoding.
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1, 1))))
	data := buf.Bytes()
	data[16], data[17] = 0x7F, 0xFF // width = 0x7FFF0001
	_, err = LoadGray(bytes.NewReader(data))
	assert.Error(t, err)
}
