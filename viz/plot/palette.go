package plot

import (
	"fmt"
	"image/color"
	"math"
)

// NamedColor is a colour with a human-readable name, for legends and docs.
type NamedColor struct {
	Name  string
	Color color.RGBA
}

// The Okabe–Ito colours (Okabe & Ito 2008, "Color Universal Design"), which
// stay distinguishable for the common forms of colour-vision deficiency.
var (
	Black         = color.RGBA{0x00, 0x00, 0x00, 0xff}
	Orange        = color.RGBA{0xe6, 0x9f, 0x00, 0xff}
	SkyBlue       = color.RGBA{0x56, 0xb4, 0xe9, 0xff}
	BluishGreen   = color.RGBA{0x00, 0x9e, 0x73, 0xff}
	Yellow        = color.RGBA{0xf0, 0xe4, 0x42, 0xff}
	Blue          = color.RGBA{0x00, 0x72, 0xb2, 0xff}
	Vermillion    = color.RGBA{0xd5, 0x5e, 0x00, 0xff}
	ReddishPurple = color.RGBA{0xcc, 0x79, 0xa7, 0xff}
)

// OkabeIto lists the eight Okabe–Ito colours in their published order.
var OkabeIto = [8]NamedColor{
	{"black", Black},
	{"orange", Orange},
	{"sky blue", SkyBlue},
	{"bluish green", BluishGreen},
	{"yellow", Yellow},
	{"blue", Blue},
	{"vermillion", Vermillion},
	{"reddish purple", ReddishPurple},
}

// seriesOrder is the order Categorical hands out colours in: strongest
// contrast on a white background first, yellow (weak on white) late.
var seriesOrder = [8]color.RGBA{Blue, Vermillion, BluishGreen, Orange, ReddishPurple, SkyBlue, Black, Yellow}

// Categorical returns the colour for series i (cycling after eight), drawn
// from the Okabe–Ito palette in an order suited to a white background.
// Negative i is treated as its absolute value.
func Categorical(i int) color.RGBA {
	if i < 0 {
		i = -i
		if i < 0 { // math.MinInt
			i = 0
		}
	}
	return seriesOrder[i%len(seriesOrder)]
}

// WithAlpha returns the opaque colour c at opacity a (0 transparent, 255
// opaque), premultiplied as color.RGBA requires. The alpha of c is ignored.
func WithAlpha(c color.RGBA, a uint8) color.RGBA {
	mul := func(v uint8) uint8 { return uint8((uint32(v)*uint32(a) + 127) / 255) }
	return color.RGBA{mul(c.R), mul(c.G), mul(c.B), a}
}

// Mix returns the colour a fraction t of the way from a to b (t clamped to
// [0, 1]), interpolating each premultiplied channel linearly.
func Mix(a, b color.RGBA, t float64) color.RGBA {
	if !(t > 0) { // also catches NaN
		return a
	}
	if t >= 1 {
		return b
	}
	lerp := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + (float64(y)-float64(x))*t)) }
	return color.RGBA{lerp(a.R, b.R), lerp(a.G, b.G), lerp(a.B, b.B), lerp(a.A, b.A)}
}

// Hex returns the opaque colour 0xRRGGBB.
func Hex(rgb uint32) color.RGBA {
	return color.RGBA{uint8(rgb >> 16), uint8(rgb >> 8), uint8(rgb), 0xff}
}

// ColorMap maps a position t in [0, 1] to a colour by linear interpolation
// between evenly spaced control points. Build one with NewColorMap; the
// package provides Viridis, BlueWhiteRed and Grays.
type ColorMap struct {
	name  string
	stops []color.RGBA
	lut   [lutMax + 1]color.RGBA
}

// lutMax is the largest colour LUT index. The LUT has an odd number of
// entries so that t = 0.5 (zero on a symmetric diverging scale) has an
// exact entry.
const lutMax = 256

// NewColorMap returns a colour map through the given control points, evenly
// spaced from t=0 to t=1. It needs at least two stops.
func NewColorMap(name string, stops []color.RGBA) (*ColorMap, error) {
	if len(stops) < 2 {
		return nil, fmt.Errorf("plot: colour map %q: %w: need at least 2 stops, got %d", name, ErrEmptyData, len(stops))
	}
	m := &ColorMap{name: name, stops: append([]color.RGBA(nil), stops...)}
	for i := range m.lut {
		m.lut[i] = m.interpolate(float64(i) / lutMax)
	}
	return m, nil
}

// mustColorMap is for the package's own constant tables only.
func mustColorMap(name string, rgb []uint32) *ColorMap {
	stops := make([]color.RGBA, len(rgb))
	for i, v := range rgb {
		stops[i] = Hex(v)
	}
	m, err := NewColorMap(name, stops)
	if err != nil {
		panic(err) // unreachable: the tables below have many stops
	}
	return m
}

// Name returns the map's name.
func (m *ColorMap) Name() string {
	if !m.ready() {
		return ""
	}
	return m.name
}

// Stops returns a copy of the control points.
func (m *ColorMap) Stops() []color.RGBA {
	if !m.ready() {
		return nil
	}
	return append([]color.RGBA(nil), m.stops...)
}

func (m *ColorMap) interpolate(t float64) color.RGBA {
	n := len(m.stops) - 1
	f := t * float64(n)
	i := int(math.Floor(f))
	if i >= n {
		return m.stops[n]
	}
	if i < 0 {
		return m.stops[0]
	}
	return Mix(m.stops[i], m.stops[i+1], f-float64(i))
}

// ready reports whether m was made by NewColorMap (or is one of the
// package's maps): nil and the zero ColorMap give NaNColor, nil and "".
func (m *ColorMap) ready() bool { return m != nil && len(m.stops) > 0 }

// At returns the colour at position t, clamped to [0, 1]. NaN gives
// NaNColor.
func (m *ColorMap) At(t float64) color.RGBA {
	if !m.ready() {
		return NaNColor
	}
	if math.IsNaN(t) {
		return NaNColor
	}
	return m.interpolate(math.Min(math.Max(t, 0), 1))
}

// LUT returns the map sampled at 257 evenly spaced positions (entry i is
// At(i/256)), for fast per-pixel lookups. The slice is shared: do not
// modify it.
func (m *ColorMap) LUT() []color.RGBA {
	if !m.ready() {
		return nil
	}
	return m.lut[:]
}

// Index returns the LUT index for t: round(256·t) clamped to [0, 256], and
// -1 for NaN.
func (m *ColorMap) Index(t float64) int {
	if math.IsNaN(t) {
		return -1
	}
	return lutIndex(t)
}

func lutIndex(t float64) int {
	if !(t > 0) {
		return 0
	}
	if t >= 1 {
		return lutMax
	}
	return int(t*lutMax + 0.5)
}

// NaNColor marks missing or NaN values in colour-mapped images (mid grey, so
// it reads as "no data" in both viridis and the diverging map).
var NaNColor = color.RGBA{0x99, 0x99, 0x99, 0xff}

// Viridis is matplotlib's perceptually uniform sequential map (van der Walt &
// Smith), built from every fifth entry of its published 256-entry table; the
// linear interpolation stays within 1/255 of the table.
var Viridis = mustColorMap("viridis", []uint32{
	0x440154, 0x46085c, 0x471063, 0x481769, 0x481d6f, 0x482475, 0x472a7a, 0x46307e,
	0x453781, 0x433d84, 0x414287, 0x3f4889, 0x3d4e8a, 0x3a538b, 0x38598c, 0x355e8d,
	0x33638d, 0x31688e, 0x2e6d8e, 0x2c718e, 0x2a768e, 0x297b8e, 0x27808e, 0x25848e,
	0x23898e, 0x218e8d, 0x20928c, 0x1f978b, 0x1e9c89, 0x1fa188, 0x21a585, 0x24aa83,
	0x28ae80, 0x2eb37c, 0x35b779, 0x3dbc74, 0x46c06f, 0x50c46a, 0x5ac864, 0x65cb5e,
	0x70cf57, 0x7cd250, 0x89d548, 0x95d840, 0xa2da37, 0xb0dd2f, 0xbddf26, 0xcae11f,
	0xd8e219, 0xe5e419, 0xf1e51d, 0xfde725,
})

// BlueWhiteRed is the ColorBrewer 11-class RdBu diverging scheme (Cynthia
// Brewer, colorbrewer2.org; marked colour-blind safe) ordered from dark blue
// (t=0, negative) through near-white (t=0.5, zero) to dark red (t=1,
// positive), for signed errors.
var BlueWhiteRed = mustColorMap("RdBu_r", []uint32{
	0x053061, 0x2166ac, 0x4393c3, 0x92c5de, 0xd1e5f0, 0xf7f7f7,
	0xfddbc7, 0xf4a582, 0xd6604d, 0xb2182b, 0x67001f,
})

// Grays maps 0 to black and 1 to white, for images such as dithering results.
var Grays = mustColorMap("grays", []uint32{0x000000, 0xffffff})
