package viz

import (
	"bytes"
	"image"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/viz/plot/plottest"
)

// TestExplorerEdgeByDefault: before anything is typed the explorer shows
// E4M3FN's overflow boundary (DESIGN.md §3: 464 ties to 448, anything above
// 464 overflows; E5M2 overflows from 61440), and never an infinity for a
// format that has none.
func TestExplorerEdgeByDefault(t *testing.T) {
	s, err := New("explorer")
	require.NoError(t, err)
	f := s.Facts()
	assert.Equal(t, "480", f["edge_next_step"])
	assert.Equal(t, "464", f["edge_midpoint"])
	assert.Equal(t, "448", f["edge_tie_result"])
	assert.Equal(t, "false", f["edge_tie_overflows"])
	assert.Equal(t, "465", f["edge_probe"])
	assert.Equal(t, "448", f["edge_probe_result"], "saturating by default")
	assert.Equal(t, "true", f["edge_probe_overflows"])
	assert.Equal(t, "464", f["overflow_start"])
	assert.Equal(t, "false", f["overflow_start_inclusive"])

	require.NoError(t, s.Set("overflow", "no-saturate"))
	f = s.Facts()
	assert.Equal(t, "NaN", f["edge_probe_result"])
	text := strings.Join(s.Explain().Paragraphs(), "\n")
	assert.Contains(t, text, "465 becomes NaN, an overflow that gives NaN because E4M3FN has no infinity")
	// No "+∞" for E4M3FN in any mode, typed value or not.
	for _, v := range []string{"", "470", "1e6", "-1e6", "inf"} {
		require.NoError(t, s.Set("value", v))
		for _, p := range s.Explain().Paragraphs() {
			p = strings.NewReplacer("You typed +∞", "", "+∞ is not a finite number", "").Replace(p) // the input may be infinite
			assert.NotContains(t, p, "∞", v)
			assert.NotContains(t, p, "Inf", v)
		}
		for k, fv := range s.Facts() {
			if k != "input" {
				assert.NotContains(t, fv, "Inf", "%s=%s for value %q", k, fv, v)
			}
		}
	}
	// The bracket beyond max is 448..480, the step that has no code.
	require.NoError(t, s.Set("value", "470"))
	assert.Equal(t, "448", s.Facts()["bracket_lower"])
	assert.Equal(t, "480", s.Facts()["bracket_upper"])
	assert.Contains(t, strings.Join(s.Explain().Paragraphs(), " "), "between 448 and 480 (480 has no code)")
}

// TestExplorerEdgeModesAct: the boundary follows the rounding and overflow
// controls with nothing typed, in the facts, the text and the picture; each
// claim is checked against the codec (fp8.Format.Overflows) directly.
func TestExplorerEdgeModesAct(t *testing.T) {
	cases := []struct {
		format, rounding, overflow string
		start                      float64
		inclusive                  bool
		tieOverflows               bool
		claim                      string
	}{
		{"E4M3FN", "nearest", "saturate", 464, false, false, "464 becomes 448, back to the largest value"},
		{"E4M3FN", "away", "saturate", 448, false, true, "464 becomes 448, an overflow saturated to the largest value"},
		{"E4M3FN", "zero", "no-saturate", 480, true, false, "Overflow begins at 480 itself"},
		{"E5M2", "nearest", "no-saturate", 61440, true, true, "61440 becomes +∞, an overflow to infinity"},
	}
	var pictures [][]byte
	for _, c := range cases {
		s, err := New("explorer")
		require.NoError(t, err)
		require.NoError(t, SetAll(s, map[string]string{"format": c.format, "rounding": c.rounding, "overflow": c.overflow}))
		if c.format == "E5M2" {
			require.NoError(t, s.Set("code", "0x7B"))
		}
		f := facts(s.Facts())
		fm, err := fp8.Lookup(c.format)
		require.NoError(t, err)
		r, err := fp8.ParseRounding(c.rounding)
		require.NoError(t, err)
		o, err := fp8.ParseOverflow(c.overflow)
		require.NoError(t, err)
		m := fp8.Mode{Round: r, Overflow: o}
		// Independent check with the codec: just above start overflows,
		// just below does not, start itself as claimed.
		assert.True(t, fm.Overflows(math.Nextafter(c.start, math.Inf(1)), m), c)
		assert.False(t, fm.Overflows(math.Nextafter(c.start, 0), m), c)
		assert.Equal(t, c.inclusive, fm.Overflows(c.start, m), c)
		assert.Equal(t, c.start, f.num("overflow_start"), c)
		assert.Equal(t, c.inclusive, f["overflow_start_inclusive"] == "true", c)
		assert.Equal(t, c.tieOverflows, fm.Overflows(f.num("edge_midpoint"), m), c)
		assert.Equal(t, c.tieOverflows, f["edge_tie_overflows"] == "true", c)
		text := strings.Join(s.Explain().Paragraphs(), " ")
		assert.Contains(t, text, c.claim, c)
		if c.inclusive {
			assert.Contains(t, text, "Overflow begins at "+exact(c.start)+" itself", c)
		} else {
			assert.Contains(t, text, "Overflow begins just above "+exact(c.start), c)
		}
		if c.format == "E4M3FN" {
			pictures = append(pictures, render(t, s, 1024, 768).Pix)
		}
	}
	for i := 1; i < len(pictures); i++ {
		assert.False(t, bytes.Equal(pictures[0], pictures[i]), "mode %d draws the same picture as the default", i)
	}
}

// TestExplorerCodeHelpAndPowers: the code's help follows the code, and
// numbers may be typed as 2^k and hex floats.
func TestExplorerCodeHelpAndPowers(t *testing.T) {
	s, err := New("explorer")
	require.NoError(t, err)
	help := func() string {
		for _, p := range s.Params() {
			if p.Name == "code" {
				return p.Help
			}
		}
		return ""
	}
	assert.Contains(t, help(), "(0x7E = 126)")
	require.NoError(t, s.Set("code", "2^6"))
	assert.Contains(t, help(), "(0x40 = 64)")
	require.NoError(t, s.Set("value", "2^-9"))
	assert.Equal(t, "0x01", s.Facts()["result_code"], "2^-9 is E4M3FN's smallest subnormal")
	assert.Contains(t, help(), "(0x01 = 1)", "typing a value selects its code")
	require.NoError(t, s.Set("value", "-0x1p-9"))
	assert.Equal(t, "0x81", s.Facts()["result_code"])
	require.NoError(t, s.Set("value", "2**8"))
	assert.Equal(t, "256", s.Facts()["result"])
	err = s.Set("value", "2^x")
	require.ErrorIs(t, err, ErrParam)
	assert.Contains(t, err.Error(), "not a number: write e.g.")
	for _, p := range s.Params() {
		if p.Name == "code" {
			assert.Equal(t, "126", p.Default, "Params keeps the default")
		}
	}
}

// TestExplorerStripLabelsApart: on the number line strip ("Where it lies:
// max, and beyond") no two labels overlap and none is cut, at every canvas
// size the site and the desktop app draw it at (the smallest layout, the
// 1024×768 and 1920×1080 pages' canvases, a phone's stacked canvas at 3×,
// the desktop window), with the edge in view, typed values on either side
// and modes that move the boundary. Where the strip is tall enough the
// zones keep their labels, so the test cannot pass by drawing none. The
// code grid's column labels are checked at the same sizes.
func TestExplorerStripLabelsApart(t *testing.T) {
	sizes := []struct {
		w, h int
		d    Display
	}{
		{MinWidth, MinHeight, Display{}},
		{757, 594, Display{PixelRatio: 1}},   // the 1024×768 page's canvas (as textSizes)
		{1432, 889, Display{PixelRatio: 1}},  // the 1920×1080 page's
		{1105, 3537, Display{PixelRatio: 3}}, // a 390×844 phone's, 368×1179 CSS px
		{1280, 720, Display{}},               // the desktop window
		{980, 447, Display{PixelRatio: 1}},   // the desktop app's picture beside its panel
	}
	settings := []map[string]string{
		{},
		{"value": "470"},
		{"value": "-470"},
		{"value": "1e6"},
		{"rounding": "away"},
		{"rounding": "zero", "overflow": "no-saturate"},
		{"format": "E5M2", "value": "60000"},
	}
	zoneLabels := 0
	for _, sz := range sizes {
		for _, set := range settings {
			sc, err := New("explorer")
			require.NoError(t, err)
			require.NoError(t, SetAll(sc, set))
			_, boxes := renderRecorded(t, sc, image.Rect(0, 0, sz.w, sz.h), sz.d)
			// The code grid's column labels (+0 … +F) do not touch either.
			var cols []plottest.TextBox
			for _, b := range boxes {
				if d := strings.TrimPrefix(b.Text, "+"); len(d) == 1 && strings.Contains("0123456789ABCDEF", d) {
					cols = append(cols, b)
				}
			}
			assert.Greater(t, len(cols), 4, "%dx%d %v: column labels", sz.w, sz.h, set)
			assert.Empty(t, plottest.TextOverlaps(cols), "%dx%d %v: column labels", sz.w, sz.h, set)
			strip := sc.(*explorer).last.line
			require.False(t, strip.Empty(), "%dx%d: no number line", sz.w, sz.h)
			var in []plottest.TextBox
			for _, b := range boxes {
				if b.Box.Overlaps(strip) {
					in = append(in, b)
					if strings.Contains(b.Text, "→") {
						zoneLabels++
					}
				}
			}
			if sz.w > MinWidth { // the smallest layout has no room for the strip: its box says it all
				assert.NotEmpty(t, in, "%dx%d %v: no text on the strip", sz.w, sz.h, set)
			}
			assert.Empty(t, plottest.TextOverlaps(in), "%dx%d %v", sz.w, sz.h, set)
		}
	}
	assert.GreaterOrEqual(t, zoneLabels, 2*len(settings), "zone labels drawn")
}
