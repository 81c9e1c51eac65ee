package viz

import (
	"strconv"
	"strings"
	"testing"

	"github.com/fp8lab/fp8lab/viz/plot"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// explained makes a scene with params and returns its facts and its
// explanation joined into one text.
func explained(t *testing.T, name string, params map[string]string) (facts, string) {
	t.Helper()
	s, err := New(name)
	require.NoError(t, err)
	require.NoError(t, SetAll(s, params))
	paras := s.Explain().Paragraphs()
	require.NotEmpty(t, paras)
	return facts(s.Facts()), strings.Join(paras, "\n")
}

// wantWord asserts that text says want and none of the other choices,
// each given as the phrase it appears in (fmt-style with %s).
func wantWord(t *testing.T, text, phrase, want string, choices ...string) {
	t.Helper()
	assert.Contains(t, text, strings.ReplaceAll(phrase, "%s", want))
	for _, c := range choices {
		if c != want {
			assert.NotContains(t, text, strings.ReplaceAll(phrase, "%s", c))
		}
	}
}

// verb is what change should choose for a move from a to b.
func verb(a, b float64) string {
	switch {
	case strconv.FormatFloat(a, 'f', 1, 64) == strconv.FormatFloat(b, 'f', 1, 64):
		return "leaves unchanged"
	case b > a:
		return "raises"
	}
	return "lowers"
}

func TestExplainExplorerAndRange(t *testing.T) {
	for _, c := range []struct{ v, want string }{{"465", "it overflows"}, {"1", "the error is zero"}, {"0.3952", "neither overflows nor underflows"}, {"0.0001", "it underflows"}} {
		_, text := explained(t, "explorer", map[string]string{"value": c.v})
		assert.Contains(t, strings.ToLower(text), c.want, c.v)
	}
	for _, c := range []struct{ formats, want string }{{"E4M3FN,E5M2", "fewer powers of two than E5M2 (17.8 against 31.8) and is finer"}, {"E5M2,E4M3FN", "more powers of two than E4M3FN (31.8 against 17.8) and is coarser"}} {
		_, text := explained(t, "range", map[string]string{"formats": c.formats})
		assert.Contains(t, text, c.want)
	}
}

// mustLog2 is log2 of a power of two.
func mustLog2(v float64) float64 {
	k := 0.0
	for v >= 2 {
		v, k = v/2, k+1
	}
	for v < 1 {
		v, k = v*2, k-1
	}
	return k
}

// Every character of every scene's explanation, at its defaults and at
// each other option and extreme (legendSettings), is in the font the
// desktop app draws it with: none falls back to the replacement glyph (a
// transpose mark ᵀ, U+1D40, did).
func TestExplainGlyphsInFont(t *testing.T) {
	face, err := plot.NewFace(plot.FontRegular, 16)
	require.NoError(t, err)
	_, ok := face.GlyphAdvance('ᵀ')
	require.False(t, ok, "the check tells a missing glyph")
	for _, name := range Names() {
		s0, err := New(name)
		require.NoError(t, err)
		for _, set := range legendSettings(s0) {
			s, err := New(name)
			require.NoError(t, err)
			if SetAll(s, set) != nil {
				continue
			}
			for _, p := range s.Explain().Paragraphs() {
				for _, r := range p {
					_, ok := face.GlyphAdvance(r)
					assert.True(t, ok, "%s %v: %q (U+%04X) is not in the font: %q", name, set, r, r, p)
				}
			}
		}
	}
}
