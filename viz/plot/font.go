package plot

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"strings"
	"sync"

	"github.com/fp8lab/fp8lab/viz/plot/internal/observe"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Font names one of the embedded Go fonts.
type Font int

// The embedded fonts. The zero value is FontRegular.
const (
	FontRegular Font = iota // Go Regular, proportional sans-serif.
	FontBold                // Go Bold, for titles.
	FontMono                // Go Mono, for bit patterns and code.
)

// String returns the font's name.
func (f Font) String() string {
	switch f {
	case FontRegular:
		return "Go Regular"
	case FontBold:
		return "Go Bold"
	case FontMono:
		return "Go Mono"
	}
	return fmt.Sprintf("Font(%d)", int(f))
}

// ttf returns the font's TrueType bytes, or nil for an unknown font.
func (f Font) ttf() []byte {
	switch f {
	case FontRegular:
		return goregular.TTF
	case FontBold:
		return gobold.TTF
	case FontMono:
		return gomono.TTF
	}
	return nil
}

// HAlign is the horizontal alignment of text relative to its anchor point.
type HAlign int

// Horizontal alignments. The zero value is AlignLeft.
const (
	AlignLeft   HAlign = iota // The anchor is at the start of the text.
	AlignCenter               // The anchor is at the middle of the advance width.
	AlignRight                // The anchor is at the end of the text.
)

// VAlign is the vertical alignment of text relative to its anchor point.
type VAlign int

// Vertical alignments. The zero value is AlignBaseline.
const (
	AlignBaseline VAlign = iota // The anchor is on the baseline.
	AlignTop                    // The anchor is at the top of the line (ascent).
	AlignMiddle                 // The anchor is half the cap height above the baseline.
	AlignBottom                 // The anchor is at the bottom of the line (descent).
)

// Text size limits; sizes outside are clamped, NaN and zero mean DefaultTextSize.
const (
	DefaultTextSize = 14.0
	MinTextSize     = 4.0
	MaxTextSize     = 256.0
)

// TextStyle says how to draw a line of text.
type TextStyle struct {
	Font   Font
	Size   float64    // Pixel size of the em square; 0 means DefaultTextSize.
	Color  color.RGBA // The zero value (transparent) means opaque black.
	Align  HAlign
	VAlign VAlign
}

// TextExtent is the size of a laid-out line of text in whole pixels.
type TextExtent struct {
	Width   int // Advance width.
	Ascent  int // Font ascent above the baseline.
	Descent int // Font descent below the baseline.
	Cap     int // Cap height above the baseline.
}

// Height is Ascent+Descent.
func (e TextExtent) Height() int { return e.Ascent + e.Descent }

// normalizedSize clamps a requested size into [MinTextSize, MaxTextSize] in
// 1/64 pixel steps, so that nearly equal sizes share one cached face.
func normalizedSize(size float64) float64 {
	if math.IsNaN(size) || size <= 0 {
		size = DefaultTextSize
	}
	size = math.Min(math.Max(size, MinTextSize), MaxTextSize)
	return math.Round(size*64) / 64
}

func (st TextStyle) color() color.RGBA {
	if st.Color == (color.RGBA{}) {
		return color.RGBA{A: 0xff}
	}
	return st.Color
}

// glyphImage is a rasterised glyph at an integer dot position.
type glyphImage struct {
	mask    *image.Alpha // Bounds relative to the dot; nil for blank glyphs.
	advance int
}

// cachedFace is one font at one size, with its rasterised glyphs. The
// underlying opentype face is not safe for concurrent use, so every access
// holds mu; the cached masks are immutable once stored and are drawn without
// the lock.
type cachedFace struct {
	mu      sync.Mutex
	face    font.Face
	glyphs  map[rune]glyphImage
	kerns   map[[2]rune]int
	ascent  int
	descent int
	cap     int
}

type faceKey struct {
	font Font
	size float64
}

var (
	fontMu    sync.Mutex
	parsed    = map[Font]*opentype.Font{}
	faceCache = map[faceKey]*cachedFace{}
)

// parsedFont returns the parsed font; fontMu must be held.
func parsedFont(f Font) (*opentype.Font, error) {
	if p, ok := parsed[f]; ok {
		return p, nil
	}
	src := f.ttf()
	if src == nil {
		return nil, fmt.Errorf("plot: unknown font %v", f)
	}
	p, err := opentype.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("plot: parse %v: %w", f, err)
	}
	parsed[f] = p
	return p, nil
}

// NewFace returns a new, unshared font.Face for f at the given pixel size
// with full hinting (integer advances). Use it where another library needs a
// font.Face; a face is not safe for concurrent use.
func NewFace(f Font, size float64) (font.Face, error) {
	fontMu.Lock()
	p, err := parsedFont(f)
	fontMu.Unlock()
	if err != nil {
		return nil, err
	}
	return opentype.NewFace(p, &opentype.FaceOptions{
		Size:    normalizedSize(size),
		DPI:     72,
		Hinting: font.HintingFull,
	})
}

// faceFor returns the shared cached face for f at size.
func faceFor(f Font, size float64) (*cachedFace, error) {
	key := faceKey{f, normalizedSize(size)}
	fontMu.Lock()
	defer fontMu.Unlock()
	if cf, ok := faceCache[key]; ok {
		return cf, nil
	}
	p, err := parsedFont(f)
	if err != nil {
		return nil, err
	}
	face, err := opentype.NewFace(p, &opentype.FaceOptions{Size: key.size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("plot: face %v %.2fpx: %w", f, key.size, err)
	}
	m := face.Metrics()
	cf := &cachedFace{
		face:    face,
		glyphs:  map[rune]glyphImage{},
		kerns:   map[[2]rune]int{},
		ascent:  m.Ascent.Ceil(),
		descent: m.Descent.Ceil(),
		cap:     m.CapHeight.Round(),
	}
	if cf.cap <= 0 {
		cf.cap = int(math.Round(0.7 * float64(cf.ascent)))
	}
	faceCache[key] = cf
	return cf, nil
}

// glyph returns the cached glyph for r, rasterising it on first use.
func (cf *cachedFace) glyph(r rune) glyphImage {
	cf.mu.Lock()
	defer cf.mu.Unlock()
	if g, ok := cf.glyphs[r]; ok {
		return g
	}
	dr, mask, maskp, adv, ok := cf.face.Glyph(fixed.Point26_6{}, r)
	if !ok {
		dr, mask, maskp, adv, ok = cf.face.Glyph(fixed.Point26_6{}, '\ufffd')
	}
	g := glyphImage{advance: adv.Round()}
	if ok && mask != nil && !dr.Empty() {
		a := image.NewAlpha(dr)
		draw.Draw(a, dr, mask, maskp, draw.Src)
		g.mask = a
	}
	cf.glyphs[r] = g
	return g
}

// kern returns the rounded kerning adjustment between r0 and r1.
func (cf *cachedFace) kern(r0, r1 rune) int {
	cf.mu.Lock()
	defer cf.mu.Unlock()
	key := [2]rune{r0, r1}
	if k, ok := cf.kerns[key]; ok {
		return k
	}
	k := cf.face.Kern(r0, r1).Round()
	cf.kerns[key] = k
	return k
}

// layout calls visit for every glyph of s with its integer pen x offset and
// returns the total advance width.
func (cf *cachedFace) layout(s string, visit func(g glyphImage, x int)) int {
	x := 0
	prev := rune(-1)
	for _, r := range s {
		if prev >= 0 {
			x += cf.kern(prev, r)
		}
		g := cf.glyph(r)
		if visit != nil {
			visit(g, x)
		}
		x += g.advance
		prev = r
	}
	return x
}

func (cf *cachedFace) extent(s string) TextExtent {
	return TextExtent{Width: cf.layout(s, nil), Ascent: cf.ascent, Descent: cf.descent, Cap: cf.cap}
}

// MeasureText returns the extent of s drawn in style st. It returns a zero
// extent only if the font cannot be loaded, which cannot happen for the
// embedded fonts.
func MeasureText(s string, st TextStyle) TextExtent {
	cf, err := faceFor(st.Font, st.Size)
	if err != nil {
		return TextExtent{}
	}
	return cf.extent(s)
}

// anchorOffset returns the position of the anchor point relative to the
// top-left corner of the text's line box (width x ascent+descent).
func anchorOffset(e TextExtent, h HAlign, v VAlign) (ax, ay int) {
	switch h {
	case AlignCenter:
		ax = e.Width / 2
	case AlignRight:
		ax = e.Width
	}
	switch v {
	case AlignTop:
		ay = 0
	case AlignMiddle:
		ay = e.Ascent - (e.Cap+1)/2
	case AlignBottom:
		ay = e.Ascent + e.Descent
	default:
		ay = e.Ascent
	}
	return ax, ay
}

// DrawText draws one line of text with its anchor at (x, y), aligned as st
// says, and returns the line box it occupies (advance width by ascent plus
// descent). The anchor is rounded to whole pixels, so text is crisp and
// deterministic. Text outside dst.Bounds() is clipped.
func DrawText(dst *image.RGBA, s string, x, y float64, st TextStyle) image.Rectangle {
	cf, err := faceFor(st.Font, st.Size)
	if err != nil || !finite(x) || !finite(y) {
		return image.Rectangle{}
	}
	e := cf.extent(s)
	ax, ay := anchorOffset(e, st.Align, st.VAlign)
	left := int(math.Round(x)) - ax
	top := int(math.Round(y)) - ay
	box := image.Rect(left, top, left+e.Width, top+e.Height())
	if dst == nil || !box.Overlaps(dst.Bounds()) {
		return box
	}
	baseline := top + e.Ascent
	observe.NoteText(dst, s, normalizedSize(st.Size), box, func() image.Rectangle {
		var ink image.Rectangle
		cf.layout(s, func(g glyphImage, gx int) {
			if g.mask != nil {
				ink = ink.Union(g.mask.Rect.Add(image.Pt(left+gx, baseline)))
			}
		})
		return ink
	})
	src := image.NewUniform(st.color())
	cf.layout(s, func(g glyphImage, gx int) {
		if g.mask == nil {
			return
		}
		mb := g.mask.Rect
		r := mb.Add(image.Pt(left+gx, baseline))
		draw.DrawMask(dst, r, src, image.Point{}, g.mask, mb.Min, draw.Over)
	})
	return box
}

// DrawTextRotated draws s rotated 90° counter-clockwise (reading from bottom
// to top), as used for y-axis labels. Alignment refers to the text's own
// axes: Align moves along the reading direction (AlignCenter centres the text
// vertically on y) and VAlign across it (AlignTop puts the tops of the
// letters, which face left, at x). It returns the rotated box it occupies.
func DrawTextRotated(dst *image.RGBA, s string, x, y float64, st TextStyle) image.Rectangle {
	cf, err := faceFor(st.Font, st.Size)
	if err != nil || !finite(x) || !finite(y) {
		return image.Rectangle{}
	}
	e := cf.extent(s)
	w, h := e.Width, e.Height()
	ax, ay := anchorOffset(e, st.Align, st.VAlign)
	// Unrotated (u, v) maps to rotated (v, w-1-u); the anchor (ax, ay) maps
	// to (ay, w-ax).
	left := int(math.Round(x)) - ay
	top := int(math.Round(y)) - (w - ax)
	box := image.Rect(left, top, left+h, top+w)
	if dst == nil || w == 0 || h == 0 || !box.Overlaps(dst.Bounds()) {
		return box
	}
	observe.NoteText(dst, s, normalizedSize(st.Size), box, func() image.Rectangle { return box })
	flat := image.NewAlpha(image.Rect(0, 0, w, h))
	opaque := image.Opaque
	cf.layout(s, func(g glyphImage, gx int) {
		if g.mask == nil {
			return
		}
		mb := g.mask.Rect
		draw.DrawMask(flat, mb.Add(image.Pt(gx, e.Ascent)), opaque, image.Point{}, g.mask, mb.Min, draw.Over)
	})
	rot := image.NewAlpha(image.Rect(0, 0, h, w))
	for v := 0; v < h; v++ {
		row := flat.Pix[v*flat.Stride : v*flat.Stride+w]
		for u, a := range row {
			rot.Pix[(w-1-u)*rot.Stride+v] = a
		}
	}
	draw.DrawMask(dst, box, image.NewUniform(st.color()), image.Point{}, rot, image.Point{}, draw.Over)
	return box
}

// finite reports whether v is neither NaN nor ±Inf.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// WrapText breaks s at spaces into lines no wider than width pixels in
// style ts. A single word wider than width gets a line of its own.
func WrapText(s string, width int, ts TextStyle) []string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(s) {
		try := w
		if cur != "" {
			try = cur + " " + w
		}
		if cur != "" && MeasureText(try, ts).Width > width {
			lines = append(lines, cur)
			cur = w
			continue
		}
		cur = try
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}
