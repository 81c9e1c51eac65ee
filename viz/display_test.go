package viz

import (
	"fmt"
	"image"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every scene renders without error at phone sizes (upright and in
// landscape), at the sizes of a projector's canvas and at the smallest size.
func TestEveryScenePhoneAndProjectorSizes(t *testing.T) {
	sizes := []image.Point{{343, 642}, {320, 560}, {390, 700}, {375, 560}, {MinDisplayWidth, MinDisplayHeight}, {MinWidth, MinHeight}, {780, 300}, {686, 1284}, {980, 570}, {1880, 930}}
	if testing.Short() {
		sizes = []image.Point{{343, 642}, {MinDisplayWidth, MinDisplayHeight}, {980, 570}}
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
