package dither

import (
	"image"
	"image/color"
)

// fillFast converts the concrete image types of the standard decoders
// straight from their pixel buffers, without an interface call and a color
// value per pixel, giving the same values as luminance(img.At(x, y)). It
// reports false for other types.
func fillFast(g *Gray, img image.Image) bool {
	w := g.width
	switch m := img.(type) {
	case *image.Gray:
		for y := 0; y < g.height; y++ {
			row := m.Pix[y*m.Stride : y*m.Stride+w]
			out := g.pix[y*w : (y+1)*w]
			for x, v := range row {
				out[x] = float32(v) / 255
			}
		}
	case *image.Gray16:
		for y := 0; y < g.height; y++ {
			row := m.Pix[y*m.Stride : y*m.Stride+2*w]
			out := g.pix[y*w : (y+1)*w]
			for x := range out {
				v := uint32(row[2*x])<<8 | uint32(row[2*x+1])
				out[x] = luma16(v, v, v)
			}
		}
	case *image.RGBA:
		for y := 0; y < g.height; y++ {
			row := m.Pix[y*m.Stride : y*m.Stride+4*w]
			out := g.pix[y*w : (y+1)*w]
			for x := range out {
				p := row[4*x : 4*x+3]
				out[x] = luma16(uint32(p[0])*0x101, uint32(p[1])*0x101, uint32(p[2])*0x101)
			}
		}
	case *image.RGBA64:
		for y := 0; y < g.height; y++ {
			row := m.Pix[y*m.Stride : y*m.Stride+8*w]
			out := g.pix[y*w : (y+1)*w]
			for x := range out {
				p := row[8*x : 8*x+6]
				out[x] = luma16(be16(p[0:]), be16(p[2:]), be16(p[4:]))
			}
		}
	case *image.NRGBA:
		for y := 0; y < g.height; y++ {
			row := m.Pix[y*m.Stride : y*m.Stride+4*w]
			out := g.pix[y*w : (y+1)*w]
			for x := range out {
				p := row[4*x : 4*x+4]
				out[x] = lumaOf(color.NRGBA{p[0], p[1], p[2], p[3]}.RGBA())
			}
		}
	case *image.NRGBA64:
		for y := 0; y < g.height; y++ {
			row := m.Pix[y*m.Stride : y*m.Stride+8*w]
			out := g.pix[y*w : (y+1)*w]
			for x := range out {
				p := row[8*x : 8*x+8]
				c := color.NRGBA64{uint16(be16(p[0:])), uint16(be16(p[2:])), uint16(be16(p[4:])), uint16(be16(p[6:]))}
				out[x] = lumaOf(c.RGBA())
			}
		}
	case *image.YCbCr:
		b := m.Rect
		for y := 0; y < g.height; y++ {
			out := g.pix[y*w : (y+1)*w]
			for x := range out {
				yi, ci := m.YOffset(b.Min.X+x, b.Min.Y+y), m.COffset(b.Min.X+x, b.Min.Y+y)
				out[x] = lumaOf(color.YCbCr{m.Y[yi], m.Cb[ci], m.Cr[ci]}.RGBA())
			}
		}
	default:
		return false
	}
	return true
}

// lumaOf is luma16 on the results of a concrete color's RGBA method.
func lumaOf(r, g, b, _ uint32) float32 { return luma16(r, g, b) }

// be16 reads a big-endian 16-bit channel.
func be16(p []byte) uint32 { return uint32(p[0])<<8 | uint32(p[1]) }
