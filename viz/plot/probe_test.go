package plot

import (
	"image"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ProbeText sees text drawn through subimages, ignores text drawn outside
// the picture and into other pictures, and reports the smallest size.
func TestProbeText(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 200, 100))
	other := image.NewRGBA(image.Rect(0, 0, 200, 100))
	size, text := ProbeText(img, func() {
		DrawText(img, "big", 10, 10, TextStyle{Size: 20})
		sub := img.SubImage(image.Rect(100, 50, 200, 100)).(*image.RGBA)
		DrawTextRotated(sub, "small", 150, 80, TextStyle{Size: 11})
		DrawText(img, "outside", 500, 500, TextStyle{Size: 6})
		DrawText(other, "elsewhere", 10, 10, TextStyle{Size: 7})
		DrawText(img, "   ", 10, 10, TextStyle{Size: 5})
	})
	assert.Equal(t, 11.0, size)
	assert.Equal(t, "small", text)
	size, text = ProbeText(img, func() {})
	assert.Zero(t, size)
	assert.Empty(t, text)
}

// WrapText keeps every word, in order, and no line wider than the width
// unless it is one word.
func TestWrapText(t *testing.T) {
	ts := TextStyle{Size: 16}
	s := "rotating a row spreads an outlier over the block, shrinking amax so the scale fits the bulk"
	for _, w := range []int{40, 120, 300, 2000} {
		lines := WrapText(s, w, ts)
		assert.Equal(t, strings.Fields(s), strings.Fields(strings.Join(lines, " ")), "width %d", w)
		for _, l := range lines {
			if strings.Contains(l, " ") {
				assert.LessOrEqual(t, MeasureText(l, ts).Width, w, "%q", l)
			}
		}
	}
	assert.Len(t, WrapText(s, 2000, ts), 1)
	assert.Empty(t, WrapText("  ", 100, ts))
}

// A title bar too narrow for its title and subtitle wraps them below each
// other, and every line stays inside the bar; a wide one keeps one line.
func TestDrawTitleBarWraps(t *testing.T) {
	th := LightTheme()
	title, sub := "Hadamard rotation and outliers", "rotating a row spreads an outlier over the block, shrinking amax so the scale fits the bulk"
	wide := image.NewRGBA(image.Rect(0, 0, 2000, 600))
	oneLine := DrawTitleBar(wide, wide.Rect, title, sub, &th)
	narrow := image.NewRGBA(image.Rect(0, 0, 340, 1100))
	var body image.Rectangle
	size, _ := ProbeText(narrow, func() { body = DrawTitleBar(narrow, narrow.Rect, title, sub, &th) })
	assert.Equal(t, th.LabelSize, size)
	assert.Greater(t, body.Min.Y, 2*oneLine.Min.Y, "the subtitle goes on lines of its own")
	// Nothing is drawn right of the margin: the last columns are background.
	for y := 0; y < body.Min.Y-1; y++ {
		for x := narrow.Rect.Max.X - 2*outerPad + 1; x < narrow.Rect.Max.X; x++ {
			require.Equal(t, th.Background, narrow.RGBAAt(x, y), "pixel %d,%d", x, y)
		}
	}
	// A thumbnail keeps one line.
	small := th
	small.TitleSize, small.LabelSize = 9, 8
	thumb := image.NewRGBA(image.Rect(0, 0, 340, 200))
	assert.Less(t, DrawTitleBar(thumb, thumb.Rect, title, sub, &small).Min.Y, 30)
}

// RecordText gives each text its ink inside its line box: hex digits
// leave the descent empty, a "g" reaches into it. TextOverlaps reports
// the line boxes of two labels 16 px apart in 14-px type (19 px tall) and
// a text cut by the picture's edge.
func TestRecordTextInkAndOverlaps(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 200, 100))
	ts := TextStyle{Size: 14, Font: FontMono, VAlign: AlignMiddle}
	boxes := RecordText(img, func() {
		DrawText(img, "0x00", 10, 20, ts)
		DrawText(img, "0x10", 10, 36, ts)
		DrawText(img, "gap", 100, 20, ts)
		DrawText(img, "cut", 190, 60, ts)
	})
	require.Len(t, boxes, 4)
	for _, b := range boxes {
		assert.True(t, b.Ink.In(b.Box), "%q ink %v in %v", b.Text, b.Ink, b.Box)
	}
	e := MeasureText("0x00", ts)
	assert.Less(t, boxes[0].Ink.Max.Y, boxes[0].Box.Max.Y-e.Descent/2, "digits leave the descent empty")
	assert.Greater(t, boxes[2].Ink.Max.Y, boxes[2].Box.Max.Y-e.Descent, "g reaches into it")
	assert.False(t, boxes[0].Ink.Overlaps(boxes[1].Ink), "the digits' ink stands apart")
	got := TextOverlaps(boxes)
	require.Len(t, got, 2, "%q", got)
	assert.Contains(t, got[0], `"0x00"`)
	assert.Contains(t, got[0], `"0x10"`)
	assert.Contains(t, got[1], `"cut"`)
	// Compared by their ink the two labels stand apart; ink right under
	// "0x00", with no clear pixel between, would not.
	both := func(a, b TextBox) bool { return true }
	assert.Empty(t, TextOverlaps(boxes[:2], both))
	near := boxes[2]
	near.Ink = boxes[0].Ink.Add(image.Pt(0, boxes[0].Ink.Dy()))
	assert.Len(t, TextOverlaps([]TextBox{boxes[0], near}, both), 1)
}
