package dither

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	_ "image/jpeg" // LoadGray reads JPEG
	"image/png"
	"io"
	"math"
)

// MaxPixels bounds the size of a Gray image (64 megapixels), so that a
// corrupt or hostile file cannot make LoadGray allocate without limit.
const MaxPixels = 1 << 26

// MaxFileBytes bounds how much LoadGray reads from its reader.
const MaxFileBytes = 256 << 20

// Gray is a grayscale image of float32 luminance values, nominally in
// [0, 1] (0 black, 1 white), stored row by row. The size is fixed when the
// image is made; pixels are read and written through Pix, At and Set.
type Gray struct {
	width, height int
	pix           []float32
}

// NewGray returns a black width × height image.
func NewGray(width, height int) (*Gray, error) {
	if err := checkSize(width, height); err != nil {
		return nil, err
	}
	return &Gray{width: width, height: height, pix: make([]float32, width*height)}, nil
}

// GrayFromPixels returns a width × height image holding a copy of pix,
// which lists the pixels row by row (pix[y*width+x]).
func GrayFromPixels(width, height int, pix []float32) (*Gray, error) {
	if err := checkSize(width, height); err != nil {
		return nil, err
	}
	if len(pix) != width*height {
		return nil, fmt.Errorf("%w: %d pixels for a %dx%d image", ErrInvalidArgument, len(pix), width, height)
	}
	return &Gray{width: width, height: height, pix: append([]float32(nil), pix...)}, nil
}

func checkSize(width, height int) error {
	if width < 1 || height < 1 || width > MaxPixels || height > MaxPixels || width*height > MaxPixels {
		return fmt.Errorf("%w: image size %dx%d (1..%d pixels)", ErrInvalidArgument, width, height, MaxPixels)
	}
	return nil
}

// Width returns the number of columns.
func (g *Gray) Width() int {
	if g == nil {
		return 0
	}
	return g.width
}

// Height returns the number of rows.
func (g *Gray) Height() int {
	if g == nil {
		return 0
	}
	return g.height
}

// Pix returns the pixels row by row: pixel (x, y) is Pix()[y*Width()+x].
// The slice is the image's own storage: writes change the image.
func (g *Gray) Pix() []float32 {
	if g == nil {
		return nil
	}
	return g.pix
}

// At returns pixel (x, y), or 0 outside the image.
func (g *Gray) At(x, y int) float32 {
	if g == nil || x < 0 || y < 0 || x >= g.width || y >= g.height {
		return 0
	}
	return g.pix[y*g.width+x]
}

// Set sets pixel (x, y); it does nothing outside the image.
func (g *Gray) Set(x, y int, v float32) {
	if g == nil || x < 0 || y < 0 || x >= g.width || y >= g.height {
		return
	}
	g.pix[y*g.width+x] = v
}

// Clone returns a copy of the image (nil for nil).
func (g *Gray) Clone() *Gray {
	if g == nil {
		return nil
	}
	return &Gray{width: g.width, height: g.height, pix: append([]float32(nil), g.pix...)}
}

// Check reports a nil or empty image (such as a zero-value Gray), wrapping
// ErrInvalidArgument, or its first NaN or infinite pixel, wrapping ErrNaN.
// Every function that reads an image's pixels, here and in package
// quality, checks it first.
func (g *Gray) Check() error {
	if err := g.checkShape(); err != nil {
		return err
	}
	for i, v := range g.pix {
		if v != v || v > math.MaxFloat32 || v < -math.MaxFloat32 {
			return fmt.Errorf("%w: pixel (%d, %d) is %g", ErrNaN, i%g.width, i/g.width, v)
		}
	}
	return nil
}

// DefaultMaxLoadPixels is the largest image LoadGray decodes (16
// megapixels, 4096×4096): the size is read from the file's header first, so
// a small file that claims a huge image is refused before anything is
// decoded. LoadGrayLimit takes another limit, up to MaxPixels.
const DefaultMaxLoadPixels = 1 << 24

// checkShape reports a nil image, or one whose size is empty (a zero-value
// Gray) or does not match its pixels.
func (g *Gray) checkShape() error {
	if g == nil {
		return fmt.Errorf("%w: nil image", ErrInvalidArgument)
	}
	if g.width < 1 || g.height < 1 || len(g.pix) != g.width*g.height {
		return fmt.Errorf("%w: empty image (%dx%d); make images with NewGray, GrayFromPixels or LoadGray", ErrInvalidArgument, g.width, g.height)
	}
	return nil
}

// LoadGray decodes a PNG or JPEG image and converts it to luminance in
// [0, 1]: Y = 0.299 R + 0.587 G + 0.114 B on the stored (gamma-encoded)
// 16-bit channel values, the rule of image/color's GrayModel, with the
// image composited over black where it is transparent. Images over
// DefaultMaxLoadPixels pixels are refused with ErrInvalidArgument.
func LoadGray(r io.Reader) (*Gray, error) {
	return LoadGrayLimit(r, DefaultMaxLoadPixels)
}

// LoadGrayLimit is LoadGray with a limit on the number of pixels, 1 to
// MaxPixels. It reads the image's header first and refuses a larger image
// before decoding it, and reads at most MaxFileBytes.
func LoadGrayLimit(r io.Reader, maxPixels int) (*Gray, error) {
	if r == nil {
		return nil, fmt.Errorf("%w: nil reader", ErrInvalidArgument)
	}
	if maxPixels < 1 || maxPixels > MaxPixels {
		return nil, fmt.Errorf("%w: pixel limit %d outside 1..%d", ErrInvalidArgument, maxPixels, MaxPixels)
	}
	lr := &io.LimitedReader{R: r, N: MaxFileBytes + 1}
	var head bytes.Buffer // the bytes DecodeConfig consumed, replayed to Decode
	cfg, _, err := image.DecodeConfig(io.TeeReader(lr, &head))
	if err != nil {
		return nil, fmt.Errorf("dither: decoding image: %w", err)
	}
	if cfg.Width < 1 || cfg.Height < 1 {
		return nil, fmt.Errorf("%w: image size %dx%d is empty", ErrInvalidArgument, cfg.Width, cfg.Height)
	}
	if cfg.Width > maxPixels || cfg.Height > maxPixels || cfg.Width*cfg.Height > maxPixels {
		return nil, fmt.Errorf("%w: image size %dx%d is over the limit of %d pixels", ErrInvalidArgument, cfg.Width, cfg.Height, maxPixels)
	}
	img, _, err := image.Decode(io.MultiReader(&head, lr))
	if lr.N <= 0 {
		return nil, fmt.Errorf("%w: image file over %d bytes", ErrInvalidArgument, MaxFileBytes)
	}
	if err != nil {
		return nil, fmt.Errorf("dither: decoding image: %w", err)
	}
	return FromImage(img)
}

// FromImage converts any image to luminance as LoadGray does. The image
// types of the standard decoders (Gray, Gray16, RGBA, NRGBA, RGBA64,
// NRGBA64, YCbCr, Paletted) are read directly from their pixel buffers. A
// paletted image with an index outside its palette is an error.
func FromImage(img image.Image) (*Gray, error) {
	if img == nil {
		return nil, fmt.Errorf("%w: nil image", ErrInvalidArgument)
	}
	b := img.Bounds()
	g, err := NewGray(b.Dx(), b.Dy())
	if err != nil {
		return nil, err
	}
	if fillFast(g, img) {
		return g, nil
	}
	if p, ok := img.(*image.Paletted); ok {
		return g, fromPaletted(g, p)
	}
	i := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := img.At(x, y)
			if c == nil {
				return nil, fmt.Errorf("%w: image has no color at (%d, %d)", ErrInvalidArgument, x, y)
			}
			g.pix[i] = luminance(c)
			i++
		}
	}
	return g, nil
}

// fromPaletted converts a paletted image, refusing indices outside the
// palette (image.Paletted.At would panic on them).
func fromPaletted(g *Gray, p *image.Paletted) error {
	lum := make([]float32, len(p.Palette))
	for i, c := range p.Palette {
		if c == nil {
			return fmt.Errorf("%w: palette entry %d is nil", ErrInvalidArgument, i)
		}
		lum[i] = luminance(c)
	}
	for y := 0; y < g.height; y++ {
		row := p.Pix[y*p.Stride : y*p.Stride+g.width]
		for x, idx := range row {
			if int(idx) >= len(lum) {
				return fmt.Errorf("%w: pixel (%d, %d) uses color %d of a %d-color palette",
					ErrInvalidArgument, p.Rect.Min.X+x, p.Rect.Min.Y+y, idx, len(lum))
			}
			g.pix[y*g.width+x] = lum[idx]
		}
	}
	return nil
}

// luminance returns the Rec. 601 luma of c in [0, 1].
func luminance(c color.Color) float32 {
	if gc, ok := c.(color.Gray); ok {
		return float32(gc.Y) / 255
	}
	r, g, b, _ := c.RGBA() // premultiplied: transparent is over black
	return luma16(r, g, b)
}

// luma16 is image/color's GrayModel on 16-bit premultiplied channels,
// scaled to [0, 1].
func luma16(r, g, b uint32) float32 {
	y := (19595*r + 38470*g + 7471*b + 1<<15) >> 16
	return float32(y) / 0xFFFF
}

// ToImage converts the image to 8-bit grayscale: each value is clamped to
// [0, 1], multiplied by 255 and rounded to nearest (NaN becomes 0). A nil
// image gives an empty one.
func (g *Gray) ToImage() *image.Gray {
	if g == nil {
		return image.NewGray(image.Rectangle{})
	}
	out := image.NewGray(image.Rect(0, 0, g.width, g.height))
	for i, v := range g.pix {
		out.Pix[i] = to8(v)
	}
	return out
}

// to8 maps [0, 1] to 0..255, rounding to nearest and clamping.
func to8(v float32) uint8 {
	switch {
	case !(v > 0): // also NaN
		return 0
	case v >= 1:
		return 255
	}
	return uint8(v*255 + 0.5)
}

// EncodePNG writes the image as an 8-bit grayscale PNG (see ToImage).
func (g *Gray) EncodePNG(w io.Writer) error {
	if w == nil {
		return fmt.Errorf("%w: nil writer", ErrInvalidArgument)
	}
	if err := g.checkShape(); err != nil {
		return err
	}
	return png.Encode(w, g.ToImage())
}
