package viz

import (
	"fmt"
	"image"
	"testing"

	"github.com/fp8lab/fp8lab/viz/plot"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTextApart: no two texts of any scene overlap, and none is cut by
// the edge of what it was drawn into (a plot area, a panel, the picture):
// every scene at its defaults and at every setting legendSettings lists,
// at the smallest layout (MinWidth×MinHeight) and at 1280×720, the
// desktop window. plot.RecordText lists each text DrawText and
// DrawTextRotated drew, with its box: titles, tick and axis labels,
// legends, marker and band labels, captions and the scenes' own notes.
func TestTextApart(t *testing.T) {
	if testing.Short() {
		t.Skip("draws every scene at every setting twice")
	}
	checked := 0
	for _, name := range Names() {
		s, err := New(name)
		require.NoError(t, err)
		for _, set := range legendSettings(s) {
			for _, sz := range []image.Point{{MinWidth, MinHeight}, {1280, 720}} {
				sc, err := New(name)
				require.NoError(t, err)
				if err := SetAll(sc, set); err != nil {
					continue // a combination the scene refuses
				}
				img := image.NewRGBA(image.Rectangle{Max: sz})
				var rerr error
				boxes := plot.RecordText(img, func() { rerr = RenderFor(sc, img, Display{}) })
				require.NoError(t, rerr, "%s %v %v", name, set, sz)
				checked += len(boxes)
				assert.Empty(t, textOverlaps(boxes), "%s %v at %dx%d", name, set, sz.X, sz.Y)
			}
		}
	}
	assert.Greater(t, checked, 10000, "texts checked")
}

// textOverlaps returns the pairs of texts whose boxes overlap, and the
// texts cut by the edge of the image they were drawn into.
func textOverlaps(boxes []plot.TextBox) []string {
	var out []string
	for i, a := range boxes {
		if a.Clipped() {
			out = append(out, fmt.Sprintf("%q %v cut by %v", a.Text, a.Box, a.Clip))
		}
		for _, b := range boxes[i+1:] {
			if a.Box.Overlaps(b.Box) {
				out = append(out, fmt.Sprintf("%q %v and %q %v", a.Text, a.Box, b.Text, b.Box))
			}
		}
	}
	return out
}
