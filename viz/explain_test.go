package viz

import (
	"fmt"
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

func TestExplainHadamard(t *testing.T) {
	verdicts := map[string]bool{}
	for _, p := range []map[string]string{nil, {"format": "E4M3FN"}, {"outliers": "0"}, {"format": "E5M2", "outlier": "12"}} {
		f, text := explained(t, "hadamard", p)
		all := verb(f.num("plain_sqnr_db"), f.num("rotated_sqnr_db"))
		wantWord(t, text, "The rotation %s the SQNR of all values", all, "raises", "lowers", "leaves unchanged")
		wantWord(t, text, "and %s that of the values other", verb(f.num("plain_bulk_sqnr_db"), f.num("rotated_bulk_sqnr_db")), "raises", "lowers", "leaves unchanged")
		v := map[string]string{"raises": "helps", "lowers": "hurts", "leaves unchanged": "neither helps"}[all]
		wantWord(t, text, "Here the rotation %s", v, "helps", "hurts", "neither helps")
		verdicts[v] = true
		assert.Equal(t, f.int("outliers") == 0, strings.Contains(text, "without outliers"), p)
		assert.NotContains(t, text, "only", "no judgement hidden in a fixed word")
	}
	assert.True(t, verdicts["helps"] && verdicts["hurts"], "settings whose conclusions differ: %v", verdicts)
	// The contradiction: with E4M3FN the rotation lowers SQNR.
	_, text := explained(t, "hadamard", map[string]string{"format": "E4M3FN"})
	assert.Contains(t, text, "lowers the SQNR of all values, from 38.4 dB to 31.5 dB")
}

func TestExplainGranularity(t *testing.T) {
	for _, p := range []map[string]string{nil, {"outlier_rows": "0"}, {"outlier_rows": "0", "outlier_cols": "4"}, {"factor": "0"}} {
		f, text := explained(t, "granularity", p)
		outliers := (f.int("outlier_rows") > 0 || f.int("outlier_cols") > 0) && f.int("factor_log2") > 0
		assert.Equal(t, !outliers, strings.Contains(text, "without outliers"), p)
		assert.Equal(t, outliers && f.int("tensor.underflow") > 0, strings.Contains(text, "small values vanish"), p)
		if f.int("tensor.underflow") == 0 {
			assert.Contains(t, text, "no value becomes zero")
		} else {
			assert.Contains(t, text, strconv.Itoa(f.int("tensor.underflow"))+" values become zero")
		}
		tw := f.num("tensor.worst_row_db")
		for _, g := range granOrder {
			w := f.num(g.key + ".worst_row_db")
			cmp := "better than"
			switch {
			case dbEqual(w, tw):
				cmp = "the same as"
			case w < tw:
				cmp = "worse than"
			}
			assert.Contains(t, text, g.text+" ("+f[g.key+".scales"]+" scales): "+plural(f.int(g.key+".underflow"), "value", "values")+" lost, worst row "+f.db(g.key+".worst_row_db")+", "+cmp+" one scale", p)
		}
	}
	// The caption follows too: no "dominated by the outliers" without outliers.
	s, _ := New("granularity")
	require.NoError(t, s.Set("outlier_rows", "0"))
	img := canvas(1280, 720)
	require.NoError(t, s.Render(img))
	_, text := explained(t, "granularity", map[string]string{"outlier_rows": "0"})
	assert.NotContains(t, text, "dominated")
}

func TestExplainDelayed(t *testing.T) {
	for _, p := range []map[string]string{nil, {"spike": "0"}, {"spike": "12", "history": "1"}, {"spike": "0", "drift": "-5", "margin": "4"}} {
		f, text := explained(t, "delayed", p)
		spike := f.int("spike_log2") > 0
		assert.Equal(t, spike, strings.Contains(text, "a spike 2^"), p)
		assert.Equal(t, !spike, strings.Contains(text, "without a spike"), p)
		if n := f.int("overflow_steps"); n == 0 {
			assert.Contains(t, text, "No step overflows")
		} else {
			assert.Contains(t, text, plural(n, "step overflows", "steps overflow")+" ("+plural(f.int("overflow_values"), "value", "values")+" clipped")
		}
		if n := f.int("flush_steps_after_spike"); spike && n > 0 && f.int("stale_steps") > 1 {
			assert.Contains(t, text, fmt.Sprintf("%d of them flush small values to zero", n))
		} else if spike && n > 0 {
			assert.Contains(t, text, "and it flushes "+plural(f.int("flushed_after_spike"), "value", "values"))
		}
		wantWord(t, text, ", %s the", above(f.num("mean_sqnr_db"), f.num("mean_current_sqnr_db")), "above", "below", "the same as")
	}
}

func TestExplainDither(t *testing.T) {
	for _, p := range []map[string]string{nil, {"levels": "4"}, {"frames": "1"}} {
		f, text := explained(t, "dither", p)
		near := f.num("psnr_nearest_db")
		wantWord(t, text, "gives "+f.db("psnr_stochastic_1_db")+", %s it", above(f.num("psnr_stochastic_1_db"), near), "above", "below", "the same as")
		wantWord(t, text, "reaches "+f.db("psnr_average_db")+", %s rounding", above(f.num("psnr_average_db"), near), "above", "below", "the same as")
		wantWord(t, text, "Floyd–Steinberg error diffusion "+f.db("psnr_floyd_db")+" (%s it)", above(f.num("psnr_floyd_db"), near), "above", "below", "the same as")
		assert.Equal(t, f.num("tiny_nearest_final") == f.num("tiny_start"), strings.Contains(text, "is lost"), p)
	}
}

func TestExplainStochastic(t *testing.T) {
	for _, p := range []map[string]string{nil, {"random_bits": "8", "rule": "nearest"}, {"x": "1.125"}} {
		f, text := explained(t, "stochastic", p)
		wantWord(t, text, "mean of the rounded values is "+f.r("expected")+": %s", direction(f.num("bias")), "biased up", "biased down", "unbiased")
		assert.Equal(t, f["lower"] == f["upper"], strings.Contains(text, "needs no rounding"), p)
	}
}

func TestExplainExplorerAndRange(t *testing.T) {
	for _, c := range []struct{ v, want string }{{"465", "it overflows"}, {"1", "the error is zero"}, {"0.3952", "neither overflows nor underflows"}, {"0.0001", "it underflows"}} {
		_, text := explained(t, "explorer", map[string]string{"value": c.v})
		assert.Contains(t, strings.ToLower(text), c.want, c.v)
	}
	for _, c := range []struct{ formats, want string }{{"E4M3FN,E5M2", "fewer powers of two than E5M2 and is finer"}, {"E5M2,E4M3FN", "more powers of two than E4M3FN and is coarser"}} {
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
