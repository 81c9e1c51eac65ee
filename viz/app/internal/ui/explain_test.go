package ui

import (
	"image"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/viz"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// Every scene's explanation, wrapped to the scene area's width, can be
// read whole under its picture at the desktop's default window (1280×800)
// and in windows resized larger and smaller (800×500 needs more than two
// pages): shown at once when it fits, otherwise page by page with E (each
// line whole on some page, the strip redrawn, the picture not), and the
// picture keeps the rest of the area.
func TestExplanationFitsUnderThePicture(t *testing.T) {
	scrolled := 0
	for _, win := range []image.Point{{1280, 800}, {1920, 1080}, {1024, 700}, {800, 500}} {
		for _, name := range viz.Names() {
			g, err := New(name, Options{})
			require.NoError(t, err)
			img := g.Snapshot(win.X, win.Y)
			sr, pr := g.SceneRect(), g.pictureRect()
			ex := g.explanation(sr)
			assert.GreaterOrEqual(t, ex.ts.Size, explainSizes[len(explainSizes)-1])
			assert.Equal(t, sr.Max.Y-ex.height, pr.Max.Y, "%s: the picture ends where the explanation starts", name)
			assert.GreaterOrEqual(t, pr.Dy(), int(float64(sr.Dy())*(1-explainShare))-1, "%s at %v", name, win)
			var all []string
			for _, lines := range ex.paras {
				for _, l := range lines {
					assert.LessOrEqual(t, plot.MeasureText(l, ex.ts).Width, sr.Dx()-2*explainPad, "%s: %q", name, l)
					all = append(all, l)
				}
			}
			assert.Equal(t, strings.Fields(strings.Join(g.Scene().Explain().Paragraphs(), " ")), strings.Fields(strings.Join(all, " ")), "%s", name)
			strip := func(img *image.RGBA) *image.RGBA {
				return img.SubImage(image.Rect(sr.Min.X, pr.Max.Y, sr.Max.X, sr.Max.Y)).(*image.RGBA)
			}
			// The strip is drawn: its text is darker than the panel's background.
			assert.Greater(t, variance(strip(img)), 100.0, "%s at %v: the explanation strip is blank", name, win)
			// Page through with E, keeping the lines shown whole; the last
			// page is followed by the first again.
			lines := ex.lines()
			seen := make([]bool, len(lines))
			pages, renders := 0, g.Renders()
			for {
				for i, l := range lines {
					top := l.y - g.exScroll
					seen[i] = seen[i] || top >= 0 && top+lineHeight(ex.ts) <= ex.view()
				}
				pages++
				require.Less(t, pages, 50, "%s at %v: E never gets back to the top", name, win)
				before := strip(g.Snapshot(win.X, win.Y))
				if !g.Key(KeyExplain) {
					assert.False(t, ex.scrolls, "%s at %v: E does nothing on a scrolling strip", name, win)
					break
				}
				after := strip(g.Snapshot(win.X, win.Y))
				assert.NotEqual(t, before.Pix, after.Pix, "%s at %v: E does not redraw the strip", name, win)
				if g.exScroll == 0 {
					break
				}
			}
			assert.NotContains(t, seen, false, "%s at %v: a line is never shown whole", name, win)
			for i := range lines {
				assert.Equal(t, all[i], lines[i].text)
				if i > 0 {
					assert.Greater(t, lines[i].y, lines[i-1].y, "%s: lines in order", name)
				}
			}
			assert.Equal(t, renders, g.Renders(), "%s: scrolling re-rendered the picture", name)
			if ex.scrolls {
				scrolled++
				assert.Greater(t, pages, 1, name)
			}
		}
	}
	// The long explanations (range, granularity, dither) scroll at 1024×700:
	// the paging above was exercised.
	assert.Positive(t, scrolled)
}

// The wheel over the explanation scrolls it, within its ends, and shows
// where the rest is.
func TestExplanationScrollsWithTheWheel(t *testing.T) {
	g, err := New("range", Options{})
	require.NoError(t, err)
	g.Snapshot(1024, 700)
	sr, pr := g.SceneRect(), g.pictureRect()
	ex := g.explanation(sr)
	require.True(t, ex.scrolls, "range's explanation fits at 1024×700: pick a longer one")
	at := image.Pt(sr.Min.X+sr.Dx()/2, (pr.Max.Y+sr.Max.Y)/2)
	assert.Contains(t, explainCue(ex, 0), "more below")
	g.HandleInput(Input{X: at.X, Y: at.Y, Wheel: -1})
	assert.Positive(t, g.exScroll)
	g.HandleInput(Input{X: at.X, Y: at.Y, Wheel: -1000})
	assert.Equal(t, ex.maxScroll(), g.exScroll)
	assert.Contains(t, explainCue(ex, g.exScroll), "end")
	g.HandleInput(Input{X: at.X, Y: at.Y, Wheel: 1000})
	assert.Zero(t, g.exScroll)
	// The wheel over the picture leaves the explanation alone.
	g.HandleInput(Input{X: at.X, Y: pr.Min.Y + 10, Wheel: -1})
	assert.Zero(t, g.exScroll)
	// Another scene starts at the top of its explanation.
	g.HandleInput(Input{X: at.X, Y: at.Y, Wheel: -1})
	require.NoError(t, g.SetScene("granularity"))
	assert.Zero(t, g.exScroll)
}

// Clicks on the picture reach the scene in the picture's coordinates, and
// a click on the explanation changes nothing.
func TestClickOnExplanationIsIgnored(t *testing.T) {
	g, err := New("explorer", Options{})
	require.NoError(t, err)
	g.Snapshot(1280, 800)
	pr, sr := g.pictureRect(), g.SceneRect()
	require.Less(t, pr.Max.Y, sr.Max.Y)
	before, err := g.Param("code")
	require.NoError(t, err)
	assert.False(t, g.Click(sr.Min.X+sr.Dx()/2, (pr.Max.Y+sr.Max.Y)/2))
	after, err := g.Param("code")
	require.NoError(t, err)
	assert.Equal(t, before, after)
}
