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

// Every scene's explanation fits, whole and wrapped to the scene area's
// width, under its picture at the desktop's default window (1280×800) and
// in a window resized larger and smaller; the picture keeps the rest of
// the area, and the strip shows every word of the explanation.
func TestExplanationFitsUnderThePicture(t *testing.T) {
	for _, win := range []image.Point{{1280, 800}, {1920, 1080}, {1024, 700}} {
		for _, name := range viz.Names() {
			g, err := New(name, Options{})
			require.NoError(t, err)
			img := g.Snapshot(win.X, win.Y)
			sr, pr := g.SceneRect(), g.pictureRect()
			ex := g.explanation(sr)
			assert.False(t, ex.cut, "%s at %v: the explanation is cut", name, win)
			assert.GreaterOrEqual(t, ex.ts.Size, explainSizes[len(explainSizes)-1])
			assert.Equal(t, sr.Max.Y-ex.height, pr.Max.Y, "%s: the picture ends where the explanation starts", name)
			assert.GreaterOrEqual(t, pr.Dy(), int(float64(sr.Dy())*(1-explainShare))-1, "%s at %v", name, win)
			var words []string
			for _, lines := range ex.paras {
				for _, l := range lines {
					assert.LessOrEqual(t, plot.MeasureText(l, ex.ts).Width, sr.Dx()-2*explainPad, "%s: %q", name, l)
					words = append(words, strings.Fields(l)...)
				}
			}
			assert.Equal(t, strings.Fields(strings.Join(g.Scene().Explain(), " ")), words, "%s", name)
			// The strip is drawn: its text is darker than the panel's background.
			strip := img.SubImage(image.Rect(sr.Min.X, pr.Max.Y, sr.Max.X, sr.Max.Y)).(*image.RGBA)
			assert.Greater(t, variance(strip), 100.0, "%s at %v: the explanation strip is blank", name, win)
		}
	}
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
