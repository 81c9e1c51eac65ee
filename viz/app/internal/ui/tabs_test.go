package ui

import (
	"image"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/viz"
	"github.com/fp8lab/fp8lab/viz/plot/plottest"
)

// The tabs derive from viz's catalog: every scene has a tab that shows it,
// and the digit keys reach the first nine in catalog order.
func TestEverySceneHasATab(t *testing.T) {
	names := viz.Names()
	require.NotEmpty(t, names)
	g, err := New(names[0], Options{})
	require.NoError(t, err)
	g.Snapshot(1280, 800)
	for i, name := range names {
		pt, ok := g.TabPoint(name)
		require.True(t, ok, "no tab for %s", name)
		g.Click(pt.X, pt.Y)
		assert.Equal(t, name, g.SceneName(), "tab %s", name)
		if i < 9 {
			g.Key(KeyDigit1 + Key(i))
			assert.Equal(t, name, g.SceneName(), "key %d", i+1)
		}
	}
}

// At the smallest window the app allows and at 1280 (and widths between),
// every tab lies inside the window, no two tab texts overlap or are cut,
// each text lies inside its own tab, and a click at TabPoint selects the
// tab's scene. The labels are as long as the width lets them be: whole
// names at 1280, and at the minimum at least the digit key.
func TestTabsFitTheWindow(t *testing.T) {
	names := viz.Names()
	for _, w := range []int{MinWindowWidth, 720, 800, 1024, 1280} {
		g, err := New(names[0], Options{})
		require.NoError(t, err)
		g.Snapshot(w, MinWindowHeight) // the tab bar, at this width
		g.tabsSig = ""
		texts := plottest.RecordText(g.tabsRGBA, func() { g.Snapshot(w, MinWindowHeight) })
		labels, rects := tabLayout(names, w)
		require.Len(t, texts, len(names), "width %d: one text per tab", w)
		assert.Empty(t, plottest.TextOverlaps(texts), "width %d", w)
		bar := image.Rect(0, 0, w, TabHeight)
		for i, r := range rects {
			assert.True(t, r.In(bar), "width %d: tab %q at %v outside the bar %v", w, labels[i], r, bar)
			assert.True(t, texts[i].Box.In(r), "width %d: text %q at %v outside its tab %v", w, texts[i].Text, texts[i].Box, r)
			assert.Equal(t, labels[i], texts[i].Text)
			assert.True(t, strings.HasPrefix(labels[i], strconv.Itoa(i+1)), "width %d: %q names its digit key", w, labels[i])
			if i > 0 {
				assert.Less(t, rects[i-1].Max.X, r.Min.X, "width %d: tabs %d and %d apart", w, i-1, i)
			}
			pt, ok := g.TabPoint(names[i])
			require.True(t, ok)
			assert.True(t, pt.In(r), "width %d: TabPoint of %s in its tab", w, names[i])
			g.Click(pt.X, pt.Y)
			assert.Equal(t, names[i], g.SceneName(), "width %d: a click on tab %q", w, labels[i])
		}
		if w >= 1280 {
			for i, n := range names {
				assert.Contains(t, strings.ToLower(labels[i]), n, "width %d: whole names", w)
			}
		}
		t.Logf("width %d: %q", w, labels)
	}
}
