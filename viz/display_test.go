package viz

import (
	"fmt"
	"image"
	"testing"

	"github.com/fp8lab/fp8lab/viz/plot/plottest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every scene renders without error at phone sizes (upright and in
// landscape), at the sizes of a projector's canvas and at the smallest size.
func TestEveryScenePhoneAndProjectorSizes(t *testing.T) {
	sizes := []image.Point{{343, 642}, {339, 1094}, {300, 960}, {320, 560}, {390, 700}, {375, 560}, {MinDisplayWidth, MinDisplayHeight}, {MinWidth, MinHeight}, {780, 300}, {686, 1284}, {980, 570}, {1880, 930}}
	if testing.Short() {
		sizes = []image.Point{{343, 642}, {339, 1094}, {MinDisplayWidth, MinDisplayHeight}, {980, 570}}
	}
	for _, name := range Names() {
		for _, sz := range sizes {
			t.Run(fmt.Sprintf("%s/%dx%d", name, sz.X, sz.Y), func(t *testing.T) {
				s, err := New(name)
				require.NoError(t, err)
				dst := image.NewRGBA(image.Rect(0, 0, sz.X, sz.Y))
				require.NoError(t, RenderFor(s, dst, Display{}))
				requireNotBlank(t, dst)
				ClickFor(s, sz.X/2, sz.Y/2, sz.X, sz.Y, Display{})
				big := image.NewRGBA(image.Rect(0, 0, 2*sz.X, 2*sz.Y))
				require.NoError(t, RenderFor(s, big, Display{PixelRatio: 2}))
				require.NoError(t, RenderFor(s, dst, Display{TextScale: PresentationTextScale}))
			})
		}
	}
}

// The smallest chart text is at least MinTextCSS CSS pixels on the canvases
// of the scene page at 1024×768 and 1920×1080, at pixel ratios 1 to 3.
func TestSmallestTextReadable(t *testing.T) {
	for _, css := range []image.Point{{960, 560}, {980, 570}, {1280, 800}, {1880, 930}, {1024, 768}, {1920, 1080}, {ReadableWidth, ReadableHeight}} {
		for _, r := range []float64{1, 1.25, 1.5, 2, 3} {
			d := Display{PixelRatio: r}
			w, h := int(float64(css.X)*r), int(float64(css.Y)*r)
			px := SmallestText(w, h, d) / r
			assert.GreaterOrEqual(t, px, float64(MinTextCSS)-1e-9, "%v CSS px at ratio %v: %.1f px", css, r, px)
			assert.Greater(t, SmallestText(w, h, Display{PixelRatio: r, TextScale: PresentationTextScale}), SmallestText(w, h, d))
		}
	}
	// Thumbnails shrink their text.
	assert.Less(t, SmallestText(480, 270, Display{}), float64(MinTextCSS))
}

// requireNotBlank fails when a picture is one colour.
func requireNotBlank(t *testing.T, img *image.RGBA) {
	t.Helper()
	first := [4]byte(img.Pix[:4])
	for i := 4; i+3 < len(img.Pix); i += 4 {
		if [4]byte(img.Pix[i:i+4]) != first {
			return
		}
	}
	t.Fatalf("the picture is blank")
}

// Below MinDisplayWidth×MinDisplayHeight CSS pixels RenderFor refuses.
func TestRenderForTooSmall(t *testing.T) {
	s, err := New("explorer")
	require.NoError(t, err)
	assert.Error(t, RenderFor(s, image.NewRGBA(image.Rect(0, 0, MinDisplayWidth-1, 400)), Display{}))
	assert.NoError(t, RenderFor(s, image.NewRGBA(image.Rect(0, 0, 2*MinDisplayWidth, 2*MinDisplayHeight)), Display{PixelRatio: 2}))
}

// The smallest text each scene really draws (legends, fitted labels and
// captions included, measured by renderProbed) is at least MinTextCSS CSS
// pixels on the scene page's canvases at 1024×768 and 1920×1080 and on a
// phone's tall canvas (390×844 viewport: 339×1094 CSS pixels, stacked), and
// the style's promise (SmallestText) holds for what is drawn.
func TestSmallestTextDrawn(t *testing.T) {
	cases := []struct {
		w, h int
		r    float64
	}{{980, 570, 1}, {1880, 930, 1}, {339, 1094, 3}, {339, 1094, 1}, {640, 2048, 1}}
	if testing.Short() {
		cases = cases[:3]
	}
	for _, c := range cases {
		least, where := 1e9, ""
		for _, name := range Names() {
			s, err := New(name)
			require.NoError(t, err)
			dst := image.NewRGBA(image.Rect(0, 0, int(float64(c.w)*c.r), int(float64(c.h)*c.r)))
			d := Display{PixelRatio: c.r}
			px, text, err := renderProbed(s, dst, d)
			require.NoError(t, err, "%s at %dx%d@%gx", name, c.w, c.h, c.r)
			assert.GreaterOrEqual(t, px, float64(MinTextCSS)-0.05, "%s at %dx%d@%gx: %q is %.1f CSS px", name, c.w, c.h, c.r, text, px)
			assert.GreaterOrEqual(t, px, SmallestText(dst.Rect.Dx(), dst.Rect.Dy(), d)/c.r-0.05, "%s: %q below the style's smallest", name, text)
			if px < least {
				least, where = px, name+" "+text
			}
		}
		t.Logf("%dx%d CSS px at %gx: smallest text %.1f CSS px (%s)", c.w, c.h, c.r, least, where)
	}
}

// A tall, narrow picture stacks a scene's parts at its own size (no
// scaling down), a wider or shorter one does not; renderProbed reports text
// shrunk with a picture laid out larger.
func TestStackedLayout(t *testing.T) {
	assert.True(t, laysOut(339, 1094))
	assert.False(t, laysOut(339, 642), "too short to stack")
	assert.Equal(t, 1.0, enlargement(339, 1094, Display{}))
	assert.Equal(t, 1.0, enlargement(1017, 3282, Display{PixelRatio: 3}))
	assert.Greater(t, enlargement(339, 642, Display{}), 1.0)
	assert.True(t, stacks(339, 1094, Display{}))
	assert.False(t, stacks(700, 2240, Display{}), "wide enough for columns")
	assert.False(t, stacks(980, 570, Display{}))
	st := newStyle(339, 1094, Display{})
	parts, err := st.columns(image.Rect(0, 0, 339, 1000), 10, 1, 1)
	require.NoError(t, err)
	assert.Equal(t, 339, parts[0].Dx(), "stacked parts take the whole width")
	st = newStyle(980, 570, Display{})
	parts, err = st.columns(image.Rect(0, 0, 980, 500), 10, 1, 1)
	require.NoError(t, err)
	assert.Equal(t, 500, parts[0].Dy(), "side by side on a wide picture")
	s, err := New("range")
	require.NoError(t, err)
	small, _, err := renderProbed(s, image.NewRGBA(image.Rect(0, 0, 339, 642)), Display{})
	require.NoError(t, err)
	assert.Less(t, small, float64(MinTextCSS), "a short phone canvas is laid out larger and shrunk")
}

// renderProbed renders like RenderFor and measures what it drew: the size,
// in CSS pixels as the reader sees them (after any scaling down), of the
// smallest text in the picture, and that text. Legends, fitted labels and
// wrapped captions count; text clipped out of the picture does not.
func renderProbed(s Scene, dst *image.RGBA, d Display) (css float64, text string, err error) {
	var size float64
	k, err := renderLaidOut(dst, d, func(target *image.RGBA) (err error) {
		size, text = plottest.ProbeText(target, func() { err = renderWith(s, target, d) })
		return err
	})
	if k == 0 {
		return 0, "", err
	}
	return size / k / d.ratio(), text, err
}
