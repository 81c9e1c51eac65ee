package viz

import (
	"image"
	"strings"
	"testing"

	"github.com/fp8lab/fp8lab/viz/plot"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The words drawn on the canvas (titles, labels, notes, boxes) are claims
// as much as the explanation's: the false or ungrammatical ones a
// screenshot review found (issue 23), each checked by recording the text
// the picture draws (plot.RecordText), not its pixels.

// drawnTexts renders a scene with settings at w×h and returns every text
// it drew, in order.
func drawnTexts(t *testing.T, name string, set map[string]string, w, h int) (Scene, []string) {
	t.Helper()
	s, err := New(name)
	require.NoError(t, err)
	require.NoError(t, SetAll(s, set), "%s %v", name, set)
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	var rerr error
	boxes := plot.RecordText(dst, func() { rerr = RenderFor(s, dst, Display{}) })
	require.NoError(t, rerr, "%s %v", name, set)
	out := make([]string, len(boxes))
	for i, b := range boxes {
		out[i] = b.Text
	}
	return s, out
}

// A typed NaN has nothing to round and lies beyond nothing: the canvas's
// box says what the explanation says, with the NaN code each format gives
// it (E5M2 0x7E, E4M3FN its one NaN 0x7F, E8M0 0xFF, E4M3FNUZ 0x80), and
// a typed infinity is not called an overflow.
func TestExplorerCanvasTypedNaN(t *testing.T) {
	for _, c := range []struct{ format, code string }{{"E5M2", "0x7E"}, {"E4M3FN", "0x7F"}, {"E8M0", "0xFF"}, {"E4M3FNUZ", "0x80"}} {
		s, texts := drawnTexts(t, "explorer", map[string]string{"format": c.format, "value": "nan"}, 1280, 720)
		all := strings.Join(texts, "\n")
		explained := strings.Join(s.Explain().Paragraphs(), "\n")
		assert.Contains(t, explained, "code "+c.code, c.format)
		assert.Contains(t, all, "x = NaN  →  NaN  ("+c.code, c.format)
		assert.Contains(t, all, "nothing to round: a NaN input stays NaN", c.format)
		assert.NotContains(t, all, "beyond", c.format)
		assert.NotContains(t, all, "between", c.format)
	}
	_, texts := drawnTexts(t, "explorer", map[string]string{"format": "E5M2", "value": "-inf"}, 1280, 720)
	all := strings.Join(texts, "\n")
	assert.Contains(t, all, "not a finite number")
	assert.NotContains(t, all, "beyond max")
	assert.NotContains(t, all, "·  overflow")
	// A finite number past the step with no code lies beyond it, on its side.
	_, texts = drawnTexts(t, "explorer", map[string]string{"format": "E5M2", "value": "-70000"}, 1280, 720)
	assert.Contains(t, strings.Join(texts, "\n"), "beyond −57344 and the step −65536 (no code)")
}
