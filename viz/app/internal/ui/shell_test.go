package ui

import (
	"bytes"
	"image"
	"image/color"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/viz"
)

// These tests drive the Game through its input handlers and Snapshot,
// without a display; cmd/fp8lab-desktop's test runs it under xvfb.

func variance(img *image.RGBA) float64 {
	var s, s2 float64
	n := float64(len(img.Pix) / 4)
	for i := 0; i+3 < len(img.Pix); i += 4 {
		y := float64(img.Pix[i]) + float64(img.Pix[i+1]) + float64(img.Pix[i+2])
		s += y
		s2 += y * y
	}
	return s2/n - (s/n)*(s/n)
}

func TestNewAndSetScene(t *testing.T) {
	g, err := New("range", Options{})
	require.NoError(t, err)
	assert.Equal(t, "range", g.SceneName())
	assert.Equal(t, "range", g.Scene().Name())
	_, err = New("nope", Options{})
	assert.Error(t, err)
	assert.Error(t, g.SetScene("nope"))
	assert.Equal(t, "range", g.SceneName())
	require.NoError(t, g.SetScene("explorer"))
	require.NoError(t, g.SetParam("code", "0x7D"))
	require.NoError(t, g.SetScene("range"))
	require.NoError(t, g.SetScene("explorer"))
	v, err := g.Param("code")
	require.NoError(t, err)
	assert.Equal(t, "125", v, "a scene keeps its parameters across tab switches")
}

func TestSetParamErrorShowsInPanel(t *testing.T) {
	g, err := New("explorer", Options{})
	require.NoError(t, err)
	assert.ErrorIs(t, g.SetParam("code", "300"), viz.ErrParam)
	assert.Contains(t, g.Status(), "code")
	v, _ := g.Param("code")
	assert.Equal(t, "126", v)
	require.NoError(t, g.SetParam("code", "1"))
	assert.Empty(t, g.Status())
}

func TestSnapshotCachesRenders(t *testing.T) {
	g, err := New("explorer", Options{})
	require.NoError(t, err)
	a := g.Snapshot(1280, 800)
	assert.Greater(t, variance(a), 100.0)
	n := g.Renders()
	for range 5 {
		g.Snapshot(1280, 800)
	}
	assert.Equal(t, n, g.Renders(), "unchanged frames must not render the scene again")
	require.NoError(t, g.SetParam("code", "1"))
	b := g.Snapshot(1280, 800)
	assert.Equal(t, n+1, g.Renders())
	assert.False(t, bytes.Equal(a.Pix, b.Pix))
	g.Snapshot(1000, 700) // a resize renders again
	assert.Equal(t, n+2, g.Renders())
}

func TestPanelControlsChangeParams(t *testing.T) {
	for _, name := range viz.Names() {
		g, err := New(name, Options{})
		require.NoError(t, err)
		before := g.Snapshot(1280, 800)
		for _, p := range g.Scene().Params() {
			if p.Kind == viz.ParamText {
				continue
			}
			old, _ := g.Param(p.Name)
			pt, ok := g.ControlPoint(p.Name)
			if !ok {
				continue // scrolled out of view
			}
			g.Click(pt.X, pt.Y)
			v, _ := g.Param(p.Name)
			assert.NotEqual(t, old, v, "%s: clicking %s at %v", name, p.Name, pt)
			require.NoError(t, g.SetParam(p.Name, old))
		}
		// One control change changes the picture: the first control with
		// a value to change to (hadamard's tensor has none before a
		// tensor is loaded).
		clicked := false
		for _, p := range g.Scene().Params() {
			if pt, ok := g.ControlPoint(p.Name); ok {
				clicked = g.Click(pt.X, pt.Y)
				break
			}
		}
		require.True(t, clicked, name)
		after := g.Snapshot(1280, 800)
		assert.False(t, bytes.Equal(before.Pix, after.Pix), name)
	}
}

func TestSliderDrag(t *testing.T) {
	g, err := New("explorer", Options{})
	require.NoError(t, err)
	g.Snapshot(1280, 800)
	L := g.layout()
	var w widget
	for _, x := range L.widgets {
		if x.p.Name == "code" {
			w = x
		}
	}
	y := (w.track.Min.Y + w.track.Max.Y) / 2
	require.True(t, g.Drag(w.track.Min.X+10, y, w.track.Min.X))
	v, _ := g.Param("code")
	assert.Equal(t, "0", v)
	require.True(t, g.Drag(w.track.Min.X, y, w.track.Max.X+50))
	v, _ = g.Param("code")
	assert.Equal(t, "255", v)
}

func TestTabsAndKeys(t *testing.T) {
	g, err := New("explorer", Options{})
	require.NoError(t, err)
	g.Snapshot(1280, 800)
	pt, ok := g.TabPoint("dither")
	require.True(t, ok)
	require.True(t, g.Click(pt.X, pt.Y))
	assert.Equal(t, "dither", g.SceneName())
	require.True(t, g.Key(KeyDigit2))
	assert.Equal(t, "range", g.SceneName())
	require.True(t, g.Key(KeyNextScene))
	assert.Equal(t, "window", g.SceneName())
	// ↓ focuses the first control, → moves it.
	require.True(t, g.Key(KeyDown))
	require.True(t, g.Key(KeyRight))
	v, _ := g.Param("format")
	assert.NotEqual(t, "E4M3FN", v)
	require.True(t, g.Key(KeyReset))
	v, _ = g.Param("format")
	assert.Equal(t, "E4M3FN", v, "R resets the scene")
	require.True(t, g.Key(KeyTogglePanel))
	assert.True(t, g.PanelHidden())
	assert.Equal(t, image.Rect(0, 0, 1280, 800), g.SceneRect())
	require.True(t, g.Key(KeyTogglePanel))
	assert.False(t, g.PanelHidden())
}

func TestTypingIntoTextParam(t *testing.T) {
	g, err := New("explorer", Options{})
	require.NoError(t, err)
	g.Snapshot(1280, 800)
	pt, ok := g.ControlPoint("value")
	require.True(t, ok)
	require.True(t, g.Click(pt.X, pt.Y))
	g.TypeText("300")
	require.True(t, g.Key(KeyEnter))
	assert.Equal(t, "288", g.Scene().Facts()["result"])
	// A bad value is refused with a message; Backspace and Esc work.
	g.Click(pt.X, pt.Y)
	g.Key(KeyBackspace)
	g.Key(KeyBackspace)
	g.Key(KeyBackspace)
	g.TypeText("abc")
	g.Key(KeyEnter)
	assert.NotEmpty(t, g.Status())
	v, _ := g.Param("value")
	assert.Equal(t, "300", v)
	g.Click(pt.X, pt.Y)
	g.TypeText("999")
	g.Key(KeyEscape)
	v, _ = g.Param("value")
	assert.Equal(t, "300", v)
}

func TestHiddenPanelPassesClicksToScene(t *testing.T) {
	g, err := New("range", Options{HidePanel: true})
	require.NoError(t, err)
	img := g.Snapshot(1280, 720)
	assert.Greater(t, variance(img), 100.0)
	_, ok := g.ControlPoint("span")
	assert.False(t, ok)
	_, ok = g.TabPoint("range")
	assert.False(t, ok)
	// SetParam works without the panel, as the browser drives it.
	require.NoError(t, g.SetParam("span", "all"))
	assert.False(t, bytes.Equal(img.Pix, g.Snapshot(1280, 720).Pix))
}

func TestSaveScene(t *testing.T) {
	dir := t.TempDir()
	wd, err := os.Getwd()
	require.NoError(t, err)
	require.NoError(t, os.Chdir(dir))
	defer os.Chdir(wd)
	g, err := New("explorer", Options{})
	require.NoError(t, err)
	g.Snapshot(1280, 800)
	require.True(t, g.Key(KeySave))
	assert.Contains(t, g.Status(), "fp8lab-explorer-1.png")
	_, err = os.Stat("fp8lab-explorer-1.png")
	assert.NoError(t, err)
}

func TestTinyWindowShowsMessage(t *testing.T) {
	g, err := New("explorer", Options{})
	require.NoError(t, err)
	img := g.Snapshot(500, 300) // the scene area is below the minimum
	assert.Greater(t, variance(img), 10.0)
}

func TestLoadTensorRedrawsEachTime(t *testing.T) {
	g, err := New("window", Options{})
	require.NoError(t, err)
	g.Snapshot(1280, 800)
	small, err := scaling.FromSlice(1, 4, []float32{0.001, 0.002, 0.003, 0.004})
	require.NoError(t, err)
	big, err := scaling.FromSlice(1, 4, []float32{100, 2000, 3000, 40000})
	require.NoError(t, err)
	require.NoError(t, g.LoadTensor(small))
	a := g.Snapshot(1280, 800)
	n := g.Renders()
	require.NoError(t, g.LoadTensor(big))
	b := g.Snapshot(1280, 800)
	assert.Equal(t, n+1, g.Renders(), "a second tensor must redraw")
	assert.False(t, bytes.Equal(a.Pix, b.Pix))
	require.NoError(t, g.SetScene("explorer"))
	assert.ErrorIs(t, g.LoadTensor(big), viz.ErrParam)
}

// The loaded-tensor option of every scene that can show a tensor cannot be
// chosen before a tensor is loaded: it is greyed, a click on it keeps the
// value and says why, and stepping skips it. Once a tensor is loaded it is
// an option like the others.
func TestLoadedOptionNeedsATensor(t *testing.T) {
	scenes := viz.TensorScenes()
	require.NotEmpty(t, scenes)
	tensor, err := scaling.RandomNormal(256, 256, 1, 3)
	require.NoError(t, err)
	for _, name := range scenes {
		g, err := New(name, Options{})
		require.NoError(t, err)
		g.Snapshot(1280, 800)
		wi, oi := -1, -1
		for i, w := range g.layout().widgets {
			if k := slices.Index(w.p.Options, viz.LoadedTensor); k >= 0 {
				wi, oi = i, k
			}
		}
		require.GreaterOrEqual(t, wi, 0, "%s has no %q option", name, viz.LoadedTensor)
		w := g.layout().widgets[wi]
		require.True(t, w.isOff(oi), name)
		// Greyed: the panel's background, where a choosable option is white.
		img := g.Snapshot(1280, 800)
		bg := func(r image.Rectangle) color.RGBA { return img.RGBAAt(r.Min.X+2, r.Min.Y+2) }
		assert.Equal(t, panelBG, bg(w.opts[oi]), name)
		other := slices.IndexFunc(w.p.Options, func(o string) bool { return o != w.value && o != viz.LoadedTensor })
		if other >= 0 { // hadamard's other option is the current one
			assert.Equal(t, controlBG, bg(w.opts[other]), name)
		}

		old := w.value
		assert.False(t, g.Click(center(w.opts[oi]).X, center(w.opts[oi]).Y), name)
		v, _ := g.Param(w.p.Name)
		assert.Equal(t, old, v, name)
		assert.Contains(t, g.Status(), "no tensor loaded", "%s: the panel says why", name)
		// The option before it steps past it to nothing.
		require.NoError(t, g.SetParam(w.p.Name, w.p.Options[oi-1]))
		g.focus = wi
		if oi == len(w.p.Options)-1 {
			assert.False(t, g.Key(KeyRight), name)
		} else {
			assert.True(t, g.Key(KeyRight), name)
			v, _ = g.Param(w.p.Name)
			assert.Equal(t, w.p.Options[oi+1], v, name)
		}

		require.NoError(t, g.LoadTensor(tensor), name)
		require.NoError(t, g.SetParam(w.p.Name, w.p.Options[oi-1]))
		g.Snapshot(1280, 800)
		w = g.layout().widgets[wi]
		assert.False(t, w.isOff(oi), name)
		assert.True(t, g.Click(center(w.opts[oi]).X, center(w.opts[oi]).Y), name)
		v, _ = g.Param(w.p.Name)
		assert.Equal(t, viz.LoadedTensor, v, name)
		assert.Empty(t, g.Status(), name)
	}
}
