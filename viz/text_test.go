package viz

import (
	"image"
	"regexp"
	"testing"
	"time"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/fp8lab/fp8lab/viz/plot/plottest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// textSizes are the pictures the product draws scenes at, each with the
// display it draws them for (TestTextApart and TestAxesReadable check
// every one). The canvas sizes are those Chromium gives the scene pages
// (measured with the site's canvasInfo; presentation mode's canvas is the
// window less the strip of controls, one to three rows high); the desktop
// app's picture is 980 wide beside its 300-px panel, as short as 417 px in
// its default 1280×800 window when the explanation under it takes its
// largest share (45% of the 758 px below the tabs).
var textSizes = []struct {
	w, h int
	d    Display
	what string
}{
	{MinWidth, MinHeight, Display{}, "the smallest layout"},
	{800, 500, Display{}, "the home page's thumbnails"},
	{1280, 720, Display{}, "fp8lab render and the figures"},
	{757, 594, Display{PixelRatio: 1}, "the 1024×768 page's canvas, beside the controls"},
	{1432, 889, Display{PixelRatio: 1}, "the 1920×1080 page's canvas"},
	{1024, 622, Display{PixelRatio: 1, TextScale: PresentationTextScale}, "presentation mode at 1024×768, above three rows of controls"},
	{1920, 987, Display{PixelRatio: 1, TextScale: PresentationTextScale}, "presentation mode at 1920×1080"},
	{1105, 3537, Display{PixelRatio: 3}, "a 390×844 phone's canvas, 368×1179 CSS px at 3×"},
	{980, 417, Display{PixelRatio: 1}, "the desktop app's shortest picture"},
}

// TestTextApart: no two texts of any scene overlap, and none is cut by
// the edge of what it was drawn into (a plot area, a panel, the picture):
// every scene at its defaults and at every setting legendSettings lists,
// at every size of textSizes. plottest.RecordText lists each text DrawText
// and DrawTextRotated drew, with its box: titles, tick and axis labels,
// legends, marker and band labels, captions and the scenes' own notes.
// The explorer grid's row labels are checked by their ink (textApart).
func TestTextApart(t *testing.T) {
	if testing.Short() {
		t.Skip("draws every scene at every setting and size")
	}
	start, checked := time.Now(), 0
	for _, name := range Names() {
		s, err := New(name)
		require.NoError(t, err)
		for _, set := range legendSettings(s) {
			for _, sz := range textSizes {
				sc, err := New(name)
				require.NoError(t, err)
				if err := SetAll(sc, set); err != nil {
					continue // a combination the scene refuses
				}
				_, boxes := renderRecorded(t, sc, image.Rect(0, 0, sz.w, sz.h), sz.d, "%s %v %dx%d", name, set, sz.w, sz.h)
				checked += len(boxes)
				assert.Empty(t, textApart(boxes), "%s %v at %dx%d (%s; %s)", name, set, sz.w, sz.h, sz.what, testenv.Step("Add a scene", 1))
			}
		}
	}
	assert.Greater(t, checked, 30000, "texts checked")
	t.Logf("%d texts checked in %v", checked, time.Since(start).Round(time.Second))
}

// gridRowLabel matches the explorer grid's row labels.
var gridRowLabel = regexp.MustCompile(`^0x[0-9A-F]{2}$`)

// textApart is plottest.TextOverlaps with two row labels of the explorer's
// code grid (right-aligned in one column) compared by their ink: hex
// digits have no descenders and no accents, so their line boxes (19 px
// for 14-px type) may be taller than the grid's rows (16 px in the
// desktop app) while the letters themselves (13 px) stand apart.
func textApart(boxes []plottest.TextBox) []string {
	return plottest.TextOverlaps(boxes, func(a, b plottest.TextBox) bool {
		return gridRowLabel.MatchString(a.Text) && gridRowLabel.MatchString(b.Text) && a.Box.Max.X == b.Box.Max.X
	})
}
