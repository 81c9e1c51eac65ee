package site_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/viz"
)

// errorOf returns the text beside a parameter's control.
func errorOf(t *testing.T, tab *tabT, param string) string {
	t.Helper()
	return eval[string](t, tab, `document.getElementById("p-`+param+`-error").textContent`)
}

// typeRefused types a value into the box (an element id) that parameter
// param's control must refuse, and returns the error shown beside it. A scene update still arriving from an earlier change
// rewrites the box with the scene's value (and rightly clears its error);
// the value is typed again then, while the box no longer holds it.
func typeRefused(t *testing.T, tab *tabT, box, param, value string) string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	tab.set(t, "#"+box, value)
	for {
		if msg := errorOf(t, tab, param); msg != "" {
			return msg
		}
		require.True(t, time.Now().Before(deadline), "no error beside %s for %q", param, value)
		if eval[string](t, tab, `document.getElementById("`+box+`").value`) != value {
			tab.set(t, "#"+box, value)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitNoError waits until the error beside a parameter's control is gone.
func waitNoError(t *testing.T, tab *tabT, param, why string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for errorOf(t, tab, param) != "" {
		require.True(t, time.Now().Before(deadline), "%s: the error beside %s stays: %q", why, param, errorOf(t, tab, param))
		time.Sleep(50 * time.Millisecond)
	}
}

// Issue 13 item 7, the page's side: a refused value is explained beside its
// control, and the explanation goes as soon as the control holds a valid
// value again, whatever made it valid (the control itself, another
// control, the canvas, Reset); no stale "is not a number" beside a valid
// value.
func TestControlErrorsClear(t *testing.T) {
	base, _ := server(t)
	tab := newTab(t)
	tab.do(t, chromedp.Navigate(sceneURL(base, "explorer")))
	tab.waitReady(t)

	// A refused number, corrected in the same box.
	assert.Contains(t, typeRefused(t, tab, "p-value", "value", "abc"), "not a number")
	tab.set(t, "#p-value", "2")
	waitNoError(t, tab, "value", "typing a valid number")

	// A refused number, then another control changes the scene: the box
	// shows the scene's value again, and the error goes with the bad text.
	typeRefused(t, tab, "p-value", "value", "abc")
	tab.set(t, "#p-code-num", "100")
	waitNoError(t, tab, "value", "another control")
	assert.NotEqual(t, "abc", eval[string](t, tab, `document.getElementById("p-value").value`))

	// A refused code typed in the number box, then the slider.
	typeRefused(t, tab, "p-code-num", "code", "300")
	tab.set(t, "#p-code", "90")
	waitNoError(t, tab, "code", "the slider")

	// Reset clears every error.
	typeRefused(t, tab, "p-value", "value", "abc")
	tab.do(t, chromedp.Click(chromedp.ID("reset")))
	waitNoError(t, tab, "value", "Reset")
}

// The Tensor option "loaded" before any file is loaded says why it cannot
// show it, keeps the control on what the scene shows, and points at the
// file picker; loading a file then selects it and clears the error.
func TestLoadedTensorOptionWithoutAFile(t *testing.T) {
	base, _ := server(t)
	var scene string
	for _, n := range viz.Names() {
		s, err := viz.New(n)
		require.NoError(t, err)
		for _, p := range s.Params() {
			if p.Name == "tensor" && strings.Contains(strings.Join(p.Options, " "), "loaded") && scene == "" {
				scene = n
			}
		}
	}
	if scene == "" {
		t.Skip("no scene has a tensor option \"loaded\"")
	}
	tab := newTab(t)
	tab.do(t, chromedp.Navigate(sceneURL(base, scene)))
	tab.waitReady(t)
	before := eval[string](t, tab, liveAPI+`.then(a => a.getParam("tensor"))`)
	tab.set(t, "#p-tensor", "loaded")
	msg := errorOf(t, tab, "tensor")
	assert.Contains(t, msg, "no tensor loaded")
	assert.NotContains(t, msg, "path", "no talk of file paths in a browser")
	assert.Equal(t, before, eval[string](t, tab, `document.getElementById("p-tensor").value`), "the control shows what the scene shows")
	assert.Equal(t, "p-file", eval[string](t, tab, `document.activeElement && document.activeElement.id`), "the file picker is focused")
	tab.savePage(t, "loaded-without-file")

	csv := writeCSV(t, t.TempDir(), "t.csv", 8, 16, 0, 0)
	require.Empty(t, tab.upload(t, csv))
	assert.Equal(t, "loaded", eval[string](t, tab, `document.getElementById("p-tensor").value`))
	waitNoError(t, tab, "tensor", "loading a file")
	assert.Equal(t, "t.csv", filepath.Base(csv))
}

// Counts print as integers everywhere the page prints them: 1048576
// values, not 1.048576e+06 (Go's %g, which the page's number formatting
// follows for values).
func TestCountsAsIntegers(t *testing.T) {
	base, _ := server(t)
	tab := newTab(t)
	tab.do(t, chromedp.Navigate(sceneURL(base, "explorer")))
	tab.waitReady(t)
	for in, want := range map[string]string{"1048576": "1048576", "65536": "65536", "123456789012345": "123456789012345", "-4194304": "-4194304"} {
		assert.Equal(t, want, eval[string](t, tab, `FP8Explain.readable(`+jsString(in)+`)`), "readable(%s)", in)
		assert.Equal(t, want, eval[string](t, tab, `FP8Page.count(Number(`+jsString(in)+`))`), "count(%s)", in)
	}
	assert.Equal(t, "1180591620717411303424", eval[string](t, tab, `FP8Page.count(2 ** 70)`))
	assert.Equal(t, "2⁻⁹ (0.001953125)", eval[string](t, tab, `FP8Explain.readable("0.001953125")`), "powers of two below 1 are still written 2^k")
	// Every fact the page shows that is a whole number is shown as written.
	facts := eval[map[string]string](t, tab, `Object.fromEntries(Array.from(document.querySelectorAll("#facts dd"), e => [e.dataset.value, e.textContent]))`)
	for raw, shown := range facts {
		if strings.Trim(raw, "-0123456789") == "" {
			assert.Equal(t, raw, shown)
		}
	}
}

// jsString quotes s for JavaScript.
func jsString(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// Issue 23 case 8: a typed -3, then a format that cannot hold it. The
// format is taken, the problem stands beside the value that no longer
// fits (not beside the format), and it goes when the value is fixed.
func TestProblemStandsBesideItsControl(t *testing.T) {
	base, _ := server(t)
	tab := newTab(t)
	tab.do(t, chromedp.Navigate(sceneURL(base, "explorer")))
	tab.waitReady(t)
	tab.set(t, "#p-value", "-3")
	tab.set(t, "#p-format", "E8M0")
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(errorOf(t, tab, "value"), "E8M0 cannot hold -3") {
		require.True(t, time.Now().Before(deadline), "no problem beside the value: %q", errorOf(t, tab, "value"))
		time.Sleep(50 * time.Millisecond)
	}
	assert.Empty(t, errorOf(t, tab, "format"), "the format was taken")
	assert.Equal(t, "E8M0", eval[string](t, tab, `document.getElementById("p-format").value`))
	tab.set(t, "#p-value", "3")
	waitNoError(t, tab, "value", "typing a value E8M0 holds")
	assert.Empty(t, errorOf(t, tab, "format"))
}
