package observe

import (
	"image"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Callbacks are called in the order added, and only while installed;
// Listening says whether any is; a second remove does nothing.
func TestObservers(t *testing.T) {
	var o Observers[int]
	var got []string
	o.Notify(0)
	assert.False(t, o.Listening())
	stopA := o.Add(func(v int) { got = append(got, "a", string(rune('0'+v))) })
	stopB := o.Add(func(v int) { got = append(got, "b", string(rune('0'+v))) })
	assert.True(t, o.Listening())
	o.Notify(1)
	stopA()
	stopA()
	o.Notify(2)
	assert.True(t, o.Listening())
	stopB()
	o.Notify(3)
	assert.False(t, o.Listening())
	assert.Equal(t, []string{"a", "1", "b", "1", "b", "2"}, got)
}

// A picture is the pixel buffer: an image and its sub-images share it,
// another image of the same size does not, and nil has none.
func TestPictureOf(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 10, 10))
	sub := img.SubImage(image.Rect(2, 3, 5, 7)).(*image.RGBA)
	// == compares the pointers; assert.Equal would compare the bytes.
	assert.True(t, PictureOf(img) == PictureOf(sub))
	assert.True(t, PictureOf(img) != PictureOf(image.NewRGBA(img.Rect)))
	assert.True(t, PictureOf(img) != Picture{})
	assert.True(t, PictureOf(nil) == Picture{})
	assert.True(t, PictureOf(&image.RGBA{}) == Picture{})
}

// NoteText measures the ink once, and only for a probe that asked for it;
// blank text and nobody listening measure nothing.
func TestNoteTextMeasuresInkOnDemand(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 10, 10))
	box, ink := image.Rect(1, 1, 8, 6), image.Rect(2, 2, 7, 5)
	measured := 0
	measure := func() image.Rectangle { measured++; return ink }
	NoteText(img, "x", 12, box, measure)
	var plain, inked []Text
	WatchText(img, false, func(t Text) { plain = append(plain, t) }, func() {
		NoteText(img, "x", 12, box, measure)
		WatchText(img, true, func(t Text) { inked = append(inked, t) }, func() {
			NoteText(img, "y", 13, box, measure)
			NoteText(img, " ", 14, box, measure)
		})
	})
	assert.Equal(t, 1, measured)
	assert.Equal(t, []Text{{Text: "x", Box: box, Clip: img.Rect, Size: 12}, {Text: "y", Box: box, Clip: img.Rect, Size: 13}}, plain)
	assert.Equal(t, []Text{{Text: "y", Box: box, Ink: ink, Clip: img.Rect, Size: 13}}, inked)
}
