package plot

import (
	"image"
	"image/color"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// inkBounds returns the bounding box of pixels that differ from bg.
func inkBounds(img *image.RGBA, bg color.RGBA) image.Rectangle {
	var r image.Rectangle
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			if img.RGBAAt(x, y) != bg {
				r = r.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return r
}

var white = color.RGBA{0xff, 0xff, 0xff, 0xff}

func TestMeasureText(t *testing.T) {
	for _, f := range []Font{FontRegular, FontBold, FontMono} {
		e := MeasureText("2⁻⁹ E4M3FN", TextStyle{Font: f, Size: 14})
		assert.Positive(t, e.Width, f.String())
		assert.Positive(t, e.Ascent)
		assert.Positive(t, e.Descent)
		assert.Positive(t, e.Cap)
		assert.Less(t, e.Cap, e.Ascent)
		assert.Equal(t, e.Ascent+e.Descent, e.Height())
	}
	small := MeasureText("448", TextStyle{Size: 12})
	big := MeasureText("448", TextStyle{Size: 24})
	assert.Greater(t, big.Width, small.Width)
	assert.Greater(t, big.Height(), small.Height())
	assert.Zero(t, MeasureText("", TextStyle{}).Width)
	// Mono digits all have the same advance.
	assert.Equal(t, MeasureText("1111", TextStyle{Font: FontMono}).Width, MeasureText("8888", TextStyle{Font: FontMono}).Width)
	// Bad sizes fall back instead of failing.
	assert.Equal(t, MeasureText("x", TextStyle{Size: DefaultTextSize}), MeasureText("x", TextStyle{Size: math.NaN()}))
	assert.Equal(t, MeasureText("x", TextStyle{Size: MaxTextSize}), MeasureText("x", TextStyle{Size: 1e9}))
}

func TestGoFontsHaveSuperscripts(t *testing.T) {
	cf, err := faceFor(FontRegular, 14)
	require.NoError(t, err)
	for _, r := range "⁰¹²³⁴⁵⁶⁷⁸⁹⁻×−∞" {
		g := cf.glyph(r)
		assert.NotNil(t, g.mask, "%q", r)
		assert.Positive(t, g.advance, "%q", r)
	}
}

func TestDrawTextAlignment(t *testing.T) {
	st := TextStyle{Size: 16, Color: Black}
	e := MeasureText("Hello", st)
	for _, c := range []struct {
		h    HAlign
		v    VAlign
		want image.Rectangle
	}{
		{AlignLeft, AlignTop, image.Rect(100, 50, 100+e.Width, 50+e.Height())},
		{AlignRight, AlignBaseline, image.Rect(100-e.Width, 50-e.Ascent, 100, 50+e.Descent)},
		{AlignCenter, AlignBottom, image.Rect(100-e.Width/2, 50-e.Height(), 100-e.Width/2+e.Width, 50)},
	} {
		st.Align, st.VAlign = c.h, c.v
		img := NewCanvas(200, 100, white)
		box := DrawText(img, "Hello", 100, 50, st)
		assert.Equal(t, c.want, box)
		ink := inkBounds(img, white)
		require.False(t, ink.Empty())
		assert.True(t, ink.In(box.Inset(-1)), "ink %v outside box %v", ink, box)
	}
	// AlignMiddle centres capitals on the anchor.
	st.Align, st.VAlign = AlignLeft, AlignMiddle
	img := NewCanvas(200, 100, white)
	DrawText(img, "HEH", 10, 50, st)
	ink := inkBounds(img, white)
	assert.InDelta(t, 50, float64(ink.Min.Y+ink.Max.Y)/2, 1.5)
}

func TestDrawTextRotated(t *testing.T) {
	st := TextStyle{Size: 16, Color: Black, Align: AlignCenter, VAlign: AlignTop}
	e := MeasureText("count", st)
	img := NewCanvas(100, 200, white)
	box := DrawTextRotated(img, "count", 10, 100, st)
	assert.Equal(t, e.Height(), box.Dx())
	assert.Equal(t, e.Width, box.Dy())
	assert.Equal(t, 10, box.Min.X)
	assert.InDelta(t, 100, float64(box.Min.Y+box.Max.Y)/2, 1)
	ink := inkBounds(img, white)
	require.False(t, ink.Empty())
	assert.True(t, ink.In(box))
	assert.Greater(t, ink.Dy(), ink.Dx(), "rotated text is taller than wide")
}

func TestDrawTextClipsAndIgnoresBadInput(t *testing.T) {
	img := NewCanvas(40, 20, white)
	sub := img.SubImage(image.Rect(0, 0, 20, 20)).(*image.RGBA)
	DrawText(sub, "WWWWWWWW", 0, 0, TextStyle{VAlign: AlignTop})
	for y := range 20 {
		for x := 20; x < 40; x++ {
			require.Equal(t, white, img.RGBAAt(x, y), "pixel %d,%d outside the clip", x, y)
		}
	}
	assert.NotPanics(t, func() {
		DrawText(nil, "x", 0, 0, TextStyle{})
		DrawText(img, "x", math.NaN(), 0, TextStyle{})
		DrawTextRotated(img, "x", math.Inf(1), 0, TextStyle{})
		DrawText(img, "x", 1e12, -1e12, TextStyle{})
		DrawText(img, "x", 0, 0, TextStyle{Font: Font(99)})
	})
}

func TestNewFace(t *testing.T) {
	f, err := NewFace(FontBold, 20)
	require.NoError(t, err)
	assert.Positive(t, f.Metrics().Ascent.Ceil())
	_, err = NewFace(Font(42), 12)
	assert.Error(t, err)
}

// TestTextConcurrent draws text from many goroutines at once; run with
// -race to check the shared face cache.
func TestTextConcurrent(t *testing.T) {
	want := NewCanvas(120, 30, white)
	DrawText(want, "E5M2 57344", 2, 2, TextStyle{Size: 15, VAlign: AlignTop})
	var wg sync.WaitGroup
	results := make([]*image.RGBA, 16)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			img := NewCanvas(120, 30, white)
			DrawText(img, "E5M2 57344", 2, 2, TextStyle{Size: 15, VAlign: AlignTop})
			MeasureText("other text ⁻¹", TextStyle{Size: float64(10 + i)})
			results[i] = img
		}()
	}
	wg.Wait()
	for _, img := range results {
		assert.Equal(t, want.Pix, img.Pix)
	}
}

// WrapText keeps every word, in order, and no line wider than the width
// unless it is one word.
func TestWrapText(t *testing.T) {
	ts := TextStyle{Size: 16}
	s := "rotating a row spreads an outlier over the block, shrinking amax so the scale fits the bulk"
	for _, w := range []int{40, 120, 300, 2000} {
		lines := WrapText(s, w, ts)
		assert.Equal(t, strings.Fields(s), strings.Fields(strings.Join(lines, " ")), "width %d", w)
		for _, l := range lines {
			if strings.Contains(l, " ") {
				assert.LessOrEqual(t, MeasureText(l, ts).Width, w, "%q", l)
			}
		}
	}
	assert.Len(t, WrapText(s, 2000, ts), 1)
	assert.Empty(t, WrapText("  ", 100, ts))
}
