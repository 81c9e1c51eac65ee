package viz

import (
	"fmt"
	"image"
	"strings"
	"testing"

	"github.com/fp8lab/fp8lab/viz/plot"
	"github.com/fp8lab/fp8lab/viz/plot/plottest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// factSizes are the pictures TestFactsIndependentOfSize draws every scene
// at: the smallest layout, the figures' size, and a phone's canvas.
var factSizes = []struct {
	w, h int
	d    Display
}{
	{MinWidth, MinHeight, Display{}},
	{1280, 720, Display{}},
	{1071, 3456, Display{PixelRatio: 3}},
}

// withoutPositions drops the facts that are places in the picture (keys
// ending in _x or _y), which follow its size by design.
func withoutPositions(m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		if !strings.HasSuffix(k, "_x") && !strings.HasSuffix(k, "_y") {
			out[k] = v
		}
	}
	return out
}

// The numbers a scene reports are the same whatever size it is drawn at:
// every scene, at its defaults and in every view it offers, has the same
// Facts (places in the picture aside) and the same explanation after
// rendering at 480×270, 1280×720 and a phone's canvas.
func TestFactsIndependentOfSize(t *testing.T) {
	for _, name := range Names() {
		sets := []map[string]string{nil}
		if name == "dither" {
			sets = append(sets, map[string]string{"view": "blurred"})
		}
		for _, set := range sets {
			var first map[string]string
			var firstText []string
			for i, sz := range factSizes {
				s, err := New(name)
				require.NoError(t, err)
				require.NoError(t, SetAll(s, set))
				require.NoError(t, RenderFor(s, image.NewRGBA(image.Rect(0, 0, sz.w, sz.h)), sz.d), "%s at %dx%d", name, sz.w, sz.h)
				facts, text := withoutPositions(s.Facts()), s.Explain().Paragraphs()
				if i == 0 {
					first, firstText = facts, text
					continue
				}
				assert.Equal(t, first, facts, "%s %v: facts at %dx%d against %dx%d", name, set, sz.w, sz.h, factSizes[0].w, factSizes[0].h)
				assert.Equal(t, firstText, text, "%s %v: explanation at %dx%d", name, set, sz.w, sz.h)
			}
		}
	}
}

// Every axis that carries data (a linear or logarithmic scale; not the
// categories of a bar chart, nor a strip that shows no scale) has at
// least three labelled ticks and a label naming it, in every scene at
// every size the product draws it at.
func TestAxesReadable(t *testing.T) {
	for _, name := range Names() {
		if why, ok := axesPending[name]; ok {
			t.Logf("%s: not checked: %s", name, why)
			continue
		}
		for _, sz := range textSizes {
			s, err := New(name)
			require.NoError(t, err)
			var axes []*plottest.Axes
			stop := plottest.ObserveAxes(func(a *plottest.Axes) { axes = append(axes, a) })
			err = RenderFor(s, image.NewRGBA(image.Rect(0, 0, sz.w, sz.h)), sz.d)
			stop()
			require.NoError(t, err)
			for _, a := range axes {
				xt, yt := a.TickLabels()
				xl, yl := a.AxisLabels()
				for _, ax := range []struct {
					which string
					s     plot.Scale
					ticks []string
					label string
				}{{"x", a.X, xt, xl}, {"y", a.Y, yt, yl}} {
					if !carriesData(ax.s) {
						continue
					}
					where := fmt.Sprintf("%s at %dx%d (%s): the %s axis at %v", name, sz.w, sz.h, sz.what, ax.which, a.Plot)
					if ax.which == "x" && sharesX(a, axes) {
						continue
					}
					assert.GreaterOrEqual(t, len(ax.ticks), 3, "%s has tick labels %q", where, ax.ticks)
					assert.NotEmpty(t, ax.label, "%s has no label", where)
				}
			}
		}
	}
}

// axesPending lists the scenes TestAxesReadable leaves out, and why.
var axesPending = map[string]string{}

// sharesX reports whether a's x axis is labelled by axes below it in the
// same picture showing the same x domain over the same columns (stacked
// plots of one time line, labelled at the foot): a with or without its
// own tick labels (plot.AxesOptions.SharedX).
func sharesX(a *plottest.Axes, all []*plottest.Axes) bool {
	lo, hi := a.X.Domain()
	for _, b := range all {
		blo, bhi := b.X.Domain()
		if xl, _ := b.AxisLabels(); b.Axes != a.Axes && xl != "" && !b.SharesX() && blo == lo && bhi == hi &&
			b.Plot.Min.X == a.Plot.Min.X && b.Plot.Max.X == a.Plot.Max.X && b.Plot.Min.Y >= a.Plot.Max.Y {
			return true
		}
	}
	return false
}

// carriesData reports whether a scale is a data axis: a scale of values
// (not categories) with labelled ticks.
func carriesData(s plot.Scale) bool {
	if _, ok := s.(plot.BandScale); ok {
		return false
	}
	for _, t := range s.Ticks() {
		if t.Label != "" {
			return true
		}
	}
	return false
}

// A canvas filling a 1920×1080 screen uses the room: its smallest text is
// larger than 16 CSS pixels (the 13–16 px it kept before), larger than at
// 1000×600, and presentation mode's larger still.
func TestTextGrowsWithRoom(t *testing.T) {
	base := SmallestText(1000, 600, Display{PixelRatio: 1})
	wide := SmallestText(1432, 889, Display{PixelRatio: 1})
	assert.Greater(t, wide, 16.0, "the 1920×1080 page's canvas")
	assert.Greater(t, wide, base)
	assert.Greater(t, SmallestText(1920, 987, Display{PixelRatio: 1, TextScale: PresentationTextScale}), wide)
}

// Dither shows its images at pixel scale: on a phone's canvas a centred
// crop of each at two CSS pixels (six device pixels) per image pixel, and
// the original's caption says so; on the 1920×1080 page's canvas the whole
// images, enlarged.
func TestDitherShowsPixels(t *testing.T) {
	for _, c := range []struct {
		w, h int
		d    Display
		crop bool
	}{{1105, 3537, Display{PixelRatio: 3}, true}, {1432, 889, Display{PixelRatio: 1}, false}} {
		s, err := New("dither")
		require.NoError(t, err)
		_, boxes := renderRecorded(t, s, image.Rect(0, 0, c.w, c.h), c.d)
		caption := ""
		for _, b := range boxes {
			if strings.HasPrefix(b.Text, "original") {
				caption = b.Text
			}
		}
		if c.crop {
			assert.Regexp(t, `^original: centre \d+×\d+$`, caption, "%dx%d", c.w, c.h)
		} else {
			assert.Equal(t, "original", caption, "%dx%d", c.w, c.h)
		}
	}
	st := newStyle(1105, 3537, Display{PixelRatio: 3})
	zoom, cw, ch := ditherZoom(st, Display{PixelRatio: 3}, 500, 400)
	assert.Equal(t, 6, zoom, "device pixels per image pixel on a phone")
	assert.Equal(t, []int{83, 66}, []int{cw, ch}, "the crop that fills 500×400 device pixels")
	zoom, cw, ch = ditherZoom(newStyle(1432, 889, Display{PixelRatio: 1}), Display{PixelRatio: 1}, 300, 250)
	assert.Equal(t, []int{2, ditherImgW, ditherImgH}, []int{zoom, cw, ch}, "the whole image, twice enlarged")
}

// A parameter moved by an animation names a bool parameter of its scene
// (the page leaves the moved one out of links while that is on).
func TestMovedByNamesABool(t *testing.T) {
	moved := 0
	for _, name := range Names() {
		s, err := New(name)
		require.NoError(t, err)
		kinds := map[string]ParamKind{}
		for _, p := range s.Params() {
			kinds[p.Name] = p.Kind
		}
		for _, p := range s.Params() {
			if p.MovedBy != "" {
				moved++
				assert.Equal(t, ParamBool, kinds[p.MovedBy], "%s.%s is moved by %q", name, p.Name, p.MovedBy)
			}
		}
	}
	assert.Positive(t, moved, "dither's frames are moved by Grow N live")
}
