package viz

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The false sentences a user found in settings that hand-picked tests
// had missed (issue 23), each now a regression test. The sweep
// (TestSweep) checks the same claims over the whole control space.

// explainedText makes a scene, applies the settings in order and returns
// its explanation as one text.
func explainedText(t *testing.T, name string, settings ...[2]string) (Scene, string) {
	t.Helper()
	s, err := New(name)
	require.NoError(t, err)
	for _, kv := range settings {
		require.NoError(t, s.Set(kv[0], kv[1]), kv)
	}
	return s, strings.Join(s.Explain().Paragraphs(), "\n")
}

// Case 1: with every value clipped, the advice pointed the wrong way.
func TestWindowAdviceLowersAClippingScale(t *testing.T) {
	_, text := explainedText(t, "window", [2]string{"scale", "40"})
	assert.Contains(t, text, "100% of the values are clipped")
	assert.Contains(t, text, "lower the scale toward 2^14")
	assert.NotContains(t, strings.ToLower(text), "raise the scale")
	_, text = explainedText(t, "window", [2]string{"scale", "-10"})
	assert.Contains(t, text, "raise the scale toward 2^14")
	assert.NotContains(t, strings.ToLower(text), "lower the scale")
}

// Case 2: E8M0 was given a sign, subnormals and a zero, and an even
// spacing.
func TestExplorerDescribesE8M0Truly(t *testing.T) {
	_, text := explainedText(t, "explorer", [2]string{"format", "E8M0"})
	for _, want := range []string{"no sign bit", "no zero", "no subnormals", "1 NaN code", "Every value of E8M0 is a power of two",
		"The next values down and up are 0.25 and 1, 0.25 below and 0.5 above"} {
		assert.Contains(t, text, want)
	}
	for _, wrong := range []string{"sign 0", "smallest subnormal", "0.5 apart"} {
		assert.NotContains(t, text, wrong)
	}
}

// Case 3: a typed NaN was said to lie beyond the largest value.
func TestExplorerTypedNaNIsNotBeyondAnything(t *testing.T) {
	_, text := explainedText(t, "explorer", [2]string{"format", "E5M2"}, [2]string{"value", "nan"})
	assert.Contains(t, text, "NaN has nothing to round: in E5M2 it becomes NaN, code 0x7E.")
	assert.NotContains(t, text, "beyond 57344")
	assert.NotContains(t, text, "even beyond")
}

// Case 4: below the smallest normal value the relative precision falls;
// it was said to stay the same.
func TestExplorerSubnormalPrecisionFalls(t *testing.T) {
	_, text := explainedText(t, "explorer", [2]string{"code", "2"})
	assert.Contains(t, text, "a subnormal value")
	assert.Contains(t, text, "the relative precision falls as values shrink")
	assert.NotContains(t, text, "stays about the same")
	_, text = explainedText(t, "explorer", [2]string{"code", "0x38"})
	assert.Contains(t, text, "stays about the same")
}

// Case 8: a value that the new format cannot hold was an error of the
// format control, and stayed there after the value was fixed.
func TestExplorerProblemBelongsToTheValue(t *testing.T) {
	s, text := explainedText(t, "explorer", [2]string{"value", "-3"}, [2]string{"format", "E8M0"})
	assert.Equal(t, "E8M0", mustGet(t, s, "format"), "the format change is taken")
	assert.Equal(t, map[string]string{"value": "E8M0 cannot hold -3: it has no sign bit"}, Problems(s))
	assert.Contains(t, text, "You typed -3, which E8M0 cannot hold: it has no sign bit.")
	require.NoError(t, s.Set("value", "3"))
	assert.Empty(t, Problems(s), "fixing the value clears its problem")
	assert.Contains(t, strings.Join(s.Explain().Paragraphs(), " "), "You typed 3")
	// Typing a value the format cannot hold is refused at once, beside
	// the value control.
	assert.Error(t, s.Set("value", "-3"))
	// Going back to a signed format clears the problem too.
	s, _ = explainedText(t, "explorer", [2]string{"value", "-3"}, [2]string{"format", "E8M0"})
	require.NoError(t, s.Set("format", "E4M3FN"))
	assert.Empty(t, Problems(s))
}

func mustGet(t *testing.T, s Scene, name string) string {
	t.Helper()
	v, err := s.Get(name)
	require.NoError(t, err)
	return v
}

// Case 5: the Format help promised that rotation rescues FP4 while the
// chart showed it hurting E2M1 under MX scaling; "the shown format shaded"
// with a format the chart did not hold; 99.6 dB with nothing saying why.
func TestHadamardWordsHoldForEveryFormat(t *testing.T) {
	s, text := explainedText(t, "hadamard", [2]string{"format", "E2M1"}, [2]string{"granularity", "mx"})
	assert.Contains(t, text, "Here the rotation lowers the SQNR of all values in E2M1")
	for _, p := range s.Params() {
		assert.NotContains(t, p.Help, "rescues")
	}
	s, text = explainedText(t, "hadamard", [2]string{"format", "E5M2FNUZ"})
	assert.Contains(t, text, "the shown format shaded")
	assert.Contains(t, s.Facts()["compare_formats"], "E5M2FNUZ", "the chart has the shown format's bar")
	_, text = explainedText(t, "hadamard", [2]string{"format", "E4M3FN"}, [2]string{"outliers", "8"}, [2]string{"outlier", "20"})
	assert.Contains(t, text, "99.6 dB")
	assert.Contains(t, text, "The outliers carry 100% of the tensor's energy")
	assert.Contains(t, text, "with most of the energy in the outliers it mostly measures them")
}

// Case 6: with one random bit the stochastic rounding is biased, which the
// text denied.
func TestDitherSaysWhenStochasticRoundingIsBiased(t *testing.T) {
	_, text := explainedText(t, "dither", [2]string{"bits", "1"})
	assert.Contains(t, text, "With only 1 random bit the rounding is biased")
	assert.NotContains(t, text, "expected value is the original")
	_, text = explainedText(t, "dither", [2]string{"bits", "32"})
	assert.Contains(t, text, "With 32 random bits every pixel's expected value is the original")
}

// Found by the long sweep: with the scale at the slider's lowest and values
// still clipped, the takeaway vanished (its advice had nowhere to go) and
// the text called the slider's end "the largest power of two that clips
// nothing".
func TestWindowAtTheSlidersEnd(t *testing.T) {
	s, text := explainedText(t, "window", [2]string{"format", "E2M1"}, [2]string{"tensor", "lognormal"}, [2]string{"magnitude", "20"}, [2]string{"scale", "-24"})
	f := facts(s.Facts())
	require.Less(t, f.num("current_scale_log2"), -25.0, "the tensor needs a scale below the slider")
	assert.Contains(t, text, "At a scale of 2^-24, the slider's lowest,")
	assert.NotContains(t, text, "clips nothing is 2^-24.")
}

// The range scene printed a format's limits with seventeen digits
// ("5.877471754111438e-39", "2.5521177519070385e+38") where the explorer
// writes the same values as powers of two: they read back exactly either
// way, but only one can be read aloud in class.
func TestRangeWritesWideLimitsAsPowersOfTwo(t *testing.T) {
	_, text := explainedText(t, "range", [2]string{"formats", "E8M0,E2M1,FP16,BF16"})
	for _, want := range []string{"E8M0 runs from 2⁻¹²⁷ to 2¹²⁷", "E8M0 above 1.5 × 2¹²⁷ (the tie rounds back to 2¹²⁷)",
		"FP16 runs from 2⁻²⁴ to 65504", "BF16 runs from 2⁻¹³³ to 1.9921875 × 2¹²⁷", "E2M1 runs from 0.5 to 6"} {
		assert.Contains(t, text, want)
	}
	assert.NotRegexp(t, `\de[+-]\d`, text, "a number in e-notation")
}

// A spike at the last step was said to leave the history "at the next
// step", a step the run does not have.
func TestDelayedSpikeAtTheLastStepHasNoNextStep(t *testing.T) {
	s, text := explainedText(t, "delayed", [2]string{"spike", "16"}, [2]string{"spike_at", "199"})
	require.Equal(t, "200", s.Facts()["steps"], "the run's length this test assumes")
	assert.Contains(t, text, "The spike at step 199, the last, clips")
	assert.Contains(t, text, "no step after it shows what its amax does to the scale")
	assert.NotContains(t, text, "next step")
	_, text = explainedText(t, "delayed", [2]string{"spike", "16"}, [2]string{"spike_at", "198"}, [2]string{"history", "1"}, [2]string{"algo", "most_recent"})
	assert.NotContains(t, text, "the last, clips")
}

// An x that needs no stochastic rounding was said to be "a value of the
// format or beyond its largest value": the scene knows which.
func TestStochasticSaysWhyNoRoundingIsNeeded(t *testing.T) {
	_, text := explainedText(t, "stochastic", [2]string{"x", "0"})
	assert.Contains(t, text, "In E4M3FN, 0 needs no rounding: it is a value of the format.")
	_, text = explainedText(t, "stochastic", [2]string{"format", "E2M1"}, [2]string{"x", "-100"})
	assert.Contains(t, text, "In E2M1, -100 needs no rounding: it lies beyond the format's largest magnitude and saturates to -6.")
	for _, x := range []string{"0", "-100"} {
		_, text = explainedText(t, "stochastic", [2]string{"format", "E2M1"}, [2]string{"x", x})
		assert.NotContains(t, text, " or beyond")
	}
}
