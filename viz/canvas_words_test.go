package viz

import (
	"image"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/fp8lab/fp8lab/viz/plot/plottest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The words drawn on the canvas (titles, labels, notes, boxes) are claims
// as much as the explanation's: the false or ungrammatical ones a
// screenshot review found (issue 23), each checked by recording the text
// the picture draws (plottest.RecordText), not its pixels.

// drawnTexts renders a scene with settings at w×h and returns every text
// it drew, in order.
func drawnTexts(t *testing.T, name string, set map[string]string, w, h int) (Scene, []string) {
	t.Helper()
	s, err := New(name)
	require.NoError(t, err)
	require.NoError(t, SetAll(s, set), "%s %v", name, set)
	_, boxes := renderRecorded(t, s, image.Rect(0, 0, w, h), Display{}, "%s %v", name, set)
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

// canvasWordFaults reports the wording faults of a text drawn on a
// canvas: a number and a noun that disagree ("1 scales", "1 random bits",
// "the last 1 steps' amaxes"; the paragraphs' rules, lintText), and a raw
// identifier shown for words ("most_recent").
func canvasWordFaults(text string) []string {
	out := numberAgreementFaults(text)
	if m := rawIdentifier.FindString(text); m != "" {
		out = append(out, "an identifier for words: "+m)
	}
	return out
}

var rawIdentifier = regexp.MustCompile(`\b[a-z]+_[a-z_]+\b`)

// Every text every scene draws, over a sample of its sweep's settings
// (every value of every control once, and a random few of their
// combinations), agrees in number with its noun and shows words, not
// identifiers: "1 scales" (granularity), "1 random bits" (dither),
// "N = 1 Philox draws" (stochastic), "the last 1 steps' amaxes" and
// "most_recent" (delayed) were drawn before.
func TestCanvasWordsAgree(t *testing.T) {
	const perScene = 20
	total := 0
	for _, name := range Names() {
		s, err := New(name)
		require.NoError(t, err)
		_, sts := sweepSettings(s.Params(), sweeps[name], perScene)
		for _, set := range sts {
			sc, _ := applySetting(t, name, set)
			_, boxes := renderRecorded(t, sc, image.Rect(0, 0, 800, 500), Display{}, "%s %s", name, set)
			for _, b := range boxes {
				total++
				for _, f := range canvasWordFaults(b.Text) {
					assert.Fail(t, "canvas wording", "%s %s: %s in %q", name, set, f, b.Text)
				}
			}
		}
		t.Logf("%s: %d settings", name, len(sts))
	}
	t.Logf("%d drawn texts checked", total)
}

// The wording check finds what it is for.
func TestCanvasWordFaults(t *testing.T) {
	for _, bad := range []string{"1 scales, one per 256×256 block", "the mystery image · 1 random bits", "N = 1 Philox draws (seed 1)",
		"amax = max of the last 1 steps' amaxes", "amax = most_recent", "1 E8M0 scales", "3 value"} {
		assert.NotEmpty(t, canvasWordFaults(bad), bad)
	}
	for _, good := range []string{"1 scale, one per 256×256 block", "1 random bit", "N = 1 Philox draw", "the last step's amax",
		"16 steps' amaxes", "x = 1  →  1", "3 outlier rows", "2⁻¹ values"} {
		assert.Empty(t, canvasWordFaults(good), good)
	}
}

// Whenever the window scene's text names the shaded band, the band lies on
// the histogram's axis, over the sweep's sample of settings: scale=-24
// with E2M1 and lognormal data put it at 2^23..2^27 while the axis ended
// near 2^18, and neither band nor marker was drawn (69 of the sweep's
// first 121 settings had the band off the axis). The band's ends come
// from the format's values (refOf), not from the scene.
func TestWindowBandIsOnTheAxis(t *testing.T) {
	s, err := New("window")
	require.NoError(t, err)
	spec := sweeps["window"]
	limit := 30 // every single change from the defaults; the sweep's whole sample under FP8LAB_LONG=1
	if testenv.Long() {
		limit = spec.long
	}
	_, sts := sweepSettings(s.Params(), spec, limit)
	sts = append(sts, setting{{"format", "E2M1"}, {"tensor", "lognormal"}, {"scale", "-24"}})
	named := 0
	for _, set := range sts {
		sc, _ := applySetting(t, "window", set)
		var axes []*plottest.Axes
		stop := plottest.ObserveAxes(func(a *plottest.Axes) { axes = append(axes, a) })
		err := RenderFor(sc, image.NewRGBA(image.Rect(0, 0, 800, 500)), Display{})
		stop()
		require.NoError(t, err)
		if !strings.Contains(strings.Join(sc.Explain().Paragraphs(), " "), "The shaded band is") {
			continue
		}
		named++
		format, _ := sc.Get("format")
		k, _ := sc.Get("scale")
		kf, err := strconv.ParseFloat(k, 64)
		require.NoError(t, err)
		vals := refOf(t, format).vals
		var low float64
		for _, v := range vals {
			if v > 0 {
				low = v
				break
			}
		}
		lo, hi := low/math.Exp2(kf), vals[len(vals)-1]/math.Exp2(kf)
		found := false
		for _, a := range axes {
			if xl, _ := a.AxisLabels(); xl == "|x| (one bar per binade)" {
				found = true
				dlo, dhi := a.X.Domain()
				assert.True(t, dlo < lo && hi < dhi, "%s: the band %g..%g is off the axis %g..%g", set, lo, hi, dlo, dhi)
			}
		}
		assert.True(t, found, "%s: no histogram", set)
	}
	require.Positive(t, named)
	t.Logf("%d of %d settings name the band; each is on the axis", named, len(sts))
}

// Hadamard's per-format chart names every bar at every size the product
// draws it (the 1024×768 page's canvas named every other one, leaving
// the shaded E2M1's neighbours E2M3 and E4M3FN, which the text names,
// unlabelled): in one row where they fit, else in two staggered rows.
func TestHadamardNamesEveryBar(t *testing.T) {
	for _, sz := range textSizes {
		for _, format := range []string{"E2M1", "E4M3FN"} {
			s, err := New("hadamard")
			require.NoError(t, err)
			require.NoError(t, s.Set("format", format))
			_, boxes := renderRecorded(t, s, image.Rect(0, 0, sz.w, sz.h), sz.d)
			drawn := map[string]bool{}
			for _, b := range boxes {
				drawn[b.Text] = true
			}
			gains := s.(*hadamardScene).gains
			require.NotEmpty(t, gains)
			for _, g := range gains {
				assert.True(t, drawn[g.name], "%dx%d (%s), %s chosen: the bar of %s is not named", sz.w, sz.h, sz.what, format, g.name)
			}
		}
	}
}
