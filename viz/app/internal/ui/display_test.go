package ui

import (
	"bytes"
	"image"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/viz"
)

// gridPoints returns up to n points of a w×h explorer picture whose
// clicks, made one after another, each change the code.
func gridPoints(t *testing.T, w, h, n int, d viz.Display) []image.Point {
	t.Helper()
	s, err := viz.New("explorer")
	require.NoError(t, err)
	require.NoError(t, viz.RenderFor(s, image.NewRGBA(image.Rect(0, 0, w, h)), d))
	var pts []image.Point
	for y := h / 4; y < h && len(pts) < n; y += h / 23 {
		for x := w / 2; x < w && len(pts) < n; x += w / 19 {
			if viz.ClickFor(s, x, y, w, h, d) {
				pts = append(pts, image.Pt(x, y))
			}
		}
	}
	return pts
}

// Queued presses and releases are all handled, even several clicks in one
// tick, and each wakes the host.
func TestQueuedClicksAreNotLost(t *testing.T) {
	wakes := 0
	g, err := New("explorer", Options{HidePanel: true, Wake: func() { wakes++ }})
	require.NoError(t, err)
	g.Snapshot(1280, 720)
	pts := gridPoints(t, 1280, 720, 20, viz.Display{})
	require.Len(t, pts, 20)
	for i, p := range pts {
		before, _ := g.Param("code")
		g.QueuePointer(Pointer{X: p.X, Y: p.Y, Down: true})
		g.QueuePointer(Pointer{X: p.X, Y: p.Y})
		if i%2 == 0 { // a press and release in the same tick
			g.HandleInput(Input{Pressed: true, Released: true, X: -1, Y: -1})
		}
		if i%2 == 1 {
			g.HandleInput(Input{})
		}
		after, _ := g.Param("code")
		assert.NotEqual(t, before, after, "click %d at %v", i, p)
	}
	assert.GreaterOrEqual(t, wakes, 40)
}

// Presentation mode hides the panel, enlarges the type and wakes the host;
// turning it off brings the panel back.
func TestPresentationMode(t *testing.T) {
	wakes := 0
	g, err := New("range", Options{Wake: func() { wakes++ }})
	require.NoError(t, err)
	before := g.Snapshot(1280, 800)
	wakes = 0
	assert.True(t, g.Key(KeyPresent))
	assert.True(t, g.Presentation())
	assert.True(t, g.PanelHidden())
	assert.Equal(t, image.Rect(0, 0, 1280, 800), g.SceneRect())
	assert.False(t, bytes.Equal(before.Pix, g.Snapshot(1280, 800).Pix))
	g.SetPresentation(false)
	assert.False(t, g.PanelHidden())
	assert.Equal(t, 2, wakes)
	// The pixel ratio changes the picture (larger text) and wakes too.
	g.SetPresentation(true)
	plain := g.Snapshot(1280, 800)
	g.SetPixelRatio(2)
	assert.False(t, bytes.Equal(plain.Pix, g.Snapshot(1280, 800).Pix))
	assert.Equal(t, 4, wakes)
}

// A phone's canvas (343×642 CSS pixels at ratio 3) shows every scene.
func TestPhoneSizes(t *testing.T) {
	for _, name := range viz.Names() {
		g, err := New(name, Options{HidePanel: true})
		require.NoError(t, err)
		g.SetPixelRatio(3)
		assert.Greater(t, variance(g.Snapshot(343*3, 642*3)), 100.0, name)
	}
}
