package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/viz"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// The app's own texts stand apart in its default 1280×800 window: for
// every scene, with each control focused in turn (the panel scrolls to
// show it), no text of the control panel, its scroll cue and help, the
// tab bar or the explanation under the picture overlaps another or is cut
// (only whole controls show; the cue has a line of its own). The scene's
// picture is viz's TestTextApart's.
func TestAppTextApart(t *testing.T) {
	const w, h = 1280, 800
	checked, hidden := 0, 0
	for _, name := range viz.Names() {
		g, err := New(name, Options{})
		require.NoError(t, err)
		g.Snapshot(w, h) // the pictures, at their sizes
		n := len(g.layout().widgets)
		for i := -1; i < n; i++ {
			if i >= 0 {
				require.True(t, g.Key(KeyDown))
			}
			// Draw everything again, recording the texts of each picture.
			g.sceneSig, g.stripSig, g.panelSig, g.tabsSig = "", "", "", ""
			var panel, tabs []plot.TextBox
			scene := plot.RecordText(g.sceneRGBA, func() {
				panel = plot.RecordText(g.panelRGBA, func() {
					tabs = plot.RecordText(g.tabsRGBA, func() { g.Snapshot(w, h) })
				})
			})
			// The explanation strip's lines, under the picture.
			var explain []plot.TextBox
			for _, b := range scene {
				if b.Box.Min.Y >= g.pictureRect().Dy() {
					explain = append(explain, b)
				}
			}
			L := g.layout()
			for _, wd := range L.widgets {
				if !L.shown(wd) {
					hidden++
				}
			}
			checked += len(panel) + len(tabs) + len(explain)
			assert.Empty(t, plot.TextOverlaps(panel), "%s, control %d focused: panel", name, i)
			assert.Empty(t, plot.TextOverlaps(tabs), "%s: tabs", name)
			assert.Empty(t, plot.TextOverlaps(explain), "%s: explanation", name)
		}
	}
	assert.Greater(t, checked, 1000, "texts checked")
	assert.Positive(t, hidden, "some panel scrolls, so the cue is checked")
}
