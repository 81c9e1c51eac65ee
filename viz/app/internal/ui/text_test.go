package ui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/viz"
	"github.com/fp8lab/fp8lab/viz/plot/plottest"
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
			var panel, tabs []plottest.TextBox
			scene := plottest.RecordText(g.sceneRGBA, func() {
				panel = plottest.RecordText(g.panelRGBA, func() {
					tabs = plottest.RecordText(g.tabsRGBA, func() { g.Snapshot(w, h) })
				})
			})
			// The explanation strip's lines, under the picture.
			var explain []plottest.TextBox
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
			assert.Empty(t, plottest.TextOverlaps(panel), "%s, control %d focused: panel", name, i)
			assert.Empty(t, plottest.TextOverlaps(tabs), "%s: tabs", name)
			assert.Empty(t, plottest.TextOverlaps(explain), "%s: explanation", name)
		}
	}
	assert.Greater(t, checked, 1000, "texts checked")
	assert.Positive(t, hidden, "some panel scrolls, so the cue is checked")
}

// The scene's picture in the app's default 1280×800 window: 980 px wide
// beside the panel, as tall as the explanation under it leaves (from 426
// to 574 px at the defaults), so each scene at each of its choices gets
// its own size. No text overlaps another or is cut; the explorer grid's
// row labels are compared by their ink, as in viz's TestTextApart.
func TestAppPictureTextApart(t *testing.T) {
	const w, h = 1280, 800
	rowLabel := regexp.MustCompile(`^0x[0-9A-F]{2}$`)
	rows := func(a, b plottest.TextBox) bool {
		return rowLabel.MatchString(a.Text) && rowLabel.MatchString(b.Text) && a.Box.Max.X == b.Box.Max.X
	}
	sizes := map[int]bool{}
	for _, name := range viz.Names() {
		g, err := New(name, Options{})
		require.NoError(t, err)
		g.Snapshot(w, h)
		for _, p := range g.Scene().Params() {
			for _, o := range append([]string{p.Default}, p.Options...) {
				if g.SetParam(p.Name, o) != nil {
					continue // an option that cannot be chosen now
				}
				g.sceneSig = ""
				scene := plottest.RecordText(g.sceneRGBA, func() { g.Snapshot(w, h) })
				pic := g.pictureRect().Size()
				sizes[pic.Y] = true
				var inPicture []plottest.TextBox
				for _, b := range scene {
					if b.Box.Min.Y < pic.Y {
						inPicture = append(inPicture, b)
					}
				}
				assert.Empty(t, plottest.TextOverlaps(inPicture, rows), "%s %s=%s at %v", name, p.Name, o, pic)
				require.NoError(t, g.SetParam(p.Name, p.Default))
			}
		}
	}
	assert.Greater(t, len(sizes), 5, "picture heights")
}

// A focused control's help is drawn whole, or its last drawn line ends in
// "…": a help cut at the box's foot must not read as a whole sentence.
func TestHelpNeverCutSilently(t *testing.T) {
	const w, h = 1280, 800
	whole, marked := 0, 0
	for _, name := range viz.Names() {
		g, err := New(name, Options{})
		require.NoError(t, err)
		g.Snapshot(w, h)
		for i := range g.layout().widgets {
			require.True(t, g.Key(KeyDown))
			g.panelSig = ""
			var drawn []plottest.TextBox
			panel := plottest.RecordText(g.panelRGBA, func() { g.Snapshot(w, h) })
			L := g.layout()
			for _, b := range panel {
				if b.Box.Min.Y >= L.help.Min.Y && b.Size == 14 {
					drawn = append(drawn, b)
				}
			}
			help := L.widgets[g.focus].p.Help
			if help == "" {
				continue
			}
			var words []string
			for _, b := range drawn {
				words = append(words, strings.Fields(b.Text)...)
			}
			switch {
			case strings.Join(words, " ") == strings.Join(strings.Fields(help), " "):
				whole++
			case len(drawn) > 0 && strings.HasSuffix(drawn[len(drawn)-1].Text, "…"):
				marked++
			default:
				t.Errorf("%s, control %d: help %q drawn as %q, cut without a mark", name, i, help, words)
			}
		}
	}
	assert.Positive(t, whole, "helps drawn whole")
	t.Logf("%d helps drawn whole, %d cut with a mark", whole, marked)
}
