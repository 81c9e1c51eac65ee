package plottest_test

import (
	"image"
	"testing"

	"github.com/fp8lab/fp8lab/viz/plot"
	"github.com/fp8lab/fp8lab/viz/plot/plottest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ProbeText sees text drawn through subimages, ignores text drawn outside
// the picture and into other pictures, and reports the smallest size.
func TestProbeText(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 200, 100))
	other := image.NewRGBA(image.Rect(0, 0, 200, 100))
	size, text := plottest.ProbeText(img, func() {
		plot.DrawText(img, "big", 10, 10, plot.TextStyle{Size: 20})
		sub := img.SubImage(image.Rect(100, 50, 200, 100)).(*image.RGBA)
		plot.DrawTextRotated(sub, "small", 150, 80, plot.TextStyle{Size: 11})
		plot.DrawText(img, "outside", 500, 500, plot.TextStyle{Size: 6})
		plot.DrawText(other, "elsewhere", 10, 10, plot.TextStyle{Size: 7})
		plot.DrawText(img, "   ", 10, 10, plot.TextStyle{Size: 5})
	})
	assert.Equal(t, 11.0, size)
	assert.Equal(t, "small", text)
	size, text = plottest.ProbeText(img, func() {})
	assert.Zero(t, size)
	assert.Empty(t, text)
}

// RecordText gives each text its ink inside its line box: hex digits
// leave the descent empty, a "g" reaches into it. TextOverlaps reports
// the line boxes of two labels 16 px apart in 14-px type (19 px tall) and
// a text cut by the picture's edge.
func TestRecordTextInkAndOverlaps(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 200, 100))
	ts := plot.TextStyle{Size: 14, Font: plot.FontMono, VAlign: plot.AlignMiddle}
	boxes := plottest.RecordText(img, func() {
		plot.DrawText(img, "0x00", 10, 20, ts)
		plot.DrawText(img, "0x10", 10, 36, ts)
		plot.DrawText(img, "gap", 100, 20, ts)
		plot.DrawText(img, "cut", 190, 60, ts)
	})
	require.Len(t, boxes, 4)
	for _, b := range boxes {
		assert.True(t, b.Ink.In(b.Box), "%q ink %v in %v", b.Text, b.Ink, b.Box)
	}
	e := plot.MeasureText("0x00", ts)
	assert.Less(t, boxes[0].Ink.Max.Y, boxes[0].Box.Max.Y-e.Descent/2, "digits leave the descent empty")
	assert.Greater(t, boxes[2].Ink.Max.Y, boxes[2].Box.Max.Y-e.Descent, "g reaches into it")
	assert.False(t, boxes[0].Ink.Overlaps(boxes[1].Ink), "the digits' ink stands apart")
	got := plottest.TextOverlaps(boxes)
	require.Len(t, got, 2, "%q", got)
	assert.Contains(t, got[0], `"0x00"`)
	assert.Contains(t, got[0], `"0x10"`)
	assert.Contains(t, got[1], `"cut"`)
	// Compared by their ink the two labels stand apart; ink right under
	// "0x00", with no clear pixel between, would not.
	both := func(a, b plottest.TextBox) bool { return true }
	assert.Empty(t, plottest.TextOverlaps(boxes[:2], both))
	near := boxes[2]
	near.Ink = boxes[0].Ink.Add(image.Pt(0, boxes[0].Ink.Dy()))
	assert.Len(t, plottest.TextOverlaps([]plottest.TextBox{boxes[0], near}, both), 1)
}

// Probes nest: a RecordText of a picture inside a ProbeText of the same
// picture, and one of another picture inside that, each see the texts of
// their own picture while they run; a nil picture draws unwatched.
func TestProbesNest(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 200, 100))
	other := image.NewRGBA(image.Rect(0, 0, 200, 100))
	var inner, elsewhere []plottest.TextBox
	size, text := plottest.ProbeText(img, func() {
		inner = plottest.RecordText(img, func() {
			elsewhere = plottest.RecordText(other, func() {
				plot.DrawText(img, "both", 10, 10, plot.TextStyle{Size: 12})
				plot.DrawText(other, "other", 10, 10, plot.TextStyle{Size: 9})
			})
		})
		plot.DrawText(img, "outer only", 10, 40, plot.TextStyle{Size: 16})
	})
	assert.Equal(t, 12.0, size)
	assert.Equal(t, "both", text)
	require.Len(t, inner, 1)
	assert.Equal(t, "both", inner[0].Text)
	require.Len(t, elsewhere, 1)
	assert.Equal(t, "other", elsewhere[0].Text)
	assert.Equal(t, 9.0, elsewhere[0].Size)
	drawn := false
	assert.Empty(t, plottest.RecordText(nil, func() { drawn = true }))
	assert.True(t, drawn)
}
