package site_test

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/viz"
)

// preconditions are parameter values that make a control's effect visible:
// the rounding mode only shows on a value that rounds differently, the
// overflow policy on a value beyond max. "*" applies to every control of the
// scene (animation off, so that only the control changes the picture).
var preconditions = map[string]map[string][]string{
	"explorer": {"rounding": {"value", "1.2"}, "overflow": {"value", "inf"}},
	"dither": {"*": {"animate", "false"}, "levels": {"grid", "levels"},
		"animate": {"frames", "16"}},
	// Training finishes in seconds with 25 steps, so the canvas settles.
	// The controls after Runs (the recipes) change the reference runs it
	// switched to; steps, seed and train act on the live run.
	"training": {"train": {"steps", "25"}, "steps": {"runs", "live"}},
}

// animated are parameters that an animation changes by itself after a
// reset (dither's N grows while "animate" is on, its default).
var animated = map[string]bool{"dither.frames": true}

// startsAnimation names the controls whose value (the map's) starts an
// animation that runs for many frames: the page does not settle until it
// ends (dither's N grows to 256 while "Grow N live" is on).
var startsAnimation = map[string]string{"dither.animate": "true"}

// textValues are values to type into text parameters.
var textValues = map[string]string{
	"explorer.value": "300",
	"range.formats":  "E4M3FN,E5M2",
}

// otherValue picks a value of p other than current.
func otherValue(scene string, p viz.Param, current string) string {
	switch p.Kind {
	case viz.ParamChoice:
		// "loaded" needs a file first (TestLoadTensorFile picks one): a
		// scene refuses it, and says why, until a tensor is loaded. A
		// choice with no other option gets "" and is skipped.
		for _, o := range p.Options {
			if o != current && o != "loaded" {
				return o
			}
		}
		return ""
	case viz.ParamBool:
		if current == "true" {
			return "false"
		}
		return "true"
	case viz.ParamNumber, viz.ParamInt:
		if v, err := strconv.ParseFloat(current, 64); err == nil && v == p.Max {
			return strconv.FormatFloat(p.Min, 'g', -1, 64)
		}
		return strconv.FormatFloat(p.Max, 'g', -1, 64)
	}
	if v, ok := textValues[scene+"."+p.Name]; ok {
		return v
	}
	return "1"
}

// TestEachControlChangesTheCanvas drives every HTML control of every scene
// as a user would and checks that the scene's parameter and its picture
// change.
func TestEachControlChangesTheCanvas(t *testing.T) {
	base, _ := server(t)
	for _, name := range viz.Names() {
		t.Run(name, func(t *testing.T) {
			s, err := viz.New(name)
			require.NoError(t, err)
			tab := newTab(t)
			var start []string
			if pre, ok := preconditions[name]["*"]; ok {
				start = pre
			}
			tab.do(t, chromedp.Navigate(sceneURL(base, name, start...)))
			tab.waitReady(t)
			tab.waitDrawn(t)
			// The controls are changed one after the other, each from the
			// state the previous one left: one picture per control.
			before := tab.shot(t, "#canvas")
			for _, p := range s.Params() {
				if pre := preconditions[name][p.Name]; len(pre) > 0 {
					for i := 0; i+1 < len(pre); i += 2 {
						eval[bool](t, tab, fmt.Sprintf(`%s.then(a => { a.setParam(%q, %q); return true; })`, liveAPI, pre[i], pre[i+1]))
					}
					tab.waitDrawn(t)
					before = tab.shot(t, "#canvas")
				}
				current := eval[string](t, tab, fmt.Sprintf(`%s.then(a => a.getParam(%q))`, liveAPI, p.Name))
				value := otherValue(name, p, current)
				if value == "" {
					continue
				}
				sel := "#p-" + p.Name
				switch p.Kind {
				case viz.ParamBool:
					tab.do(t, chromedp.Click(chromedp.CSS(sel)))
				default:
					tab.set(t, sel, value)
				}
				got := current
				for deadline := time.Now().Add(3 * time.Second); got == current && time.Now().Before(deadline); {
					got = eval[string](t, tab, fmt.Sprintf(`%s.then(a => a.getParam(%q))`, liveAPI, p.Name))
					if got == current {
						time.Sleep(20 * time.Millisecond)
					}
				}
				require.NotEqual(t, current, got, "control %s did not change the parameter (errors: %s)", p.Name,
					eval[string](t, tab, `document.getElementById("p-`+p.Name+`-error").textContent`))
				if startsAnimation[name+"."+p.Name] == got {
					// The picture keeps changing by itself: see it move a few
					// frames, then stop it so that the page settles.
					f0 := eval[int](t, tab, liveAPI+`.then(a => a.frameCount())`)
					for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(30 * time.Millisecond) {
						if eval[int](t, tab, liveAPI+`.then(a => a.frameCount())`) >= f0+3 {
							break
						}
						require.True(t, time.Now().Before(deadline), "control %s started no animation", p.Name)
					}
					after := tab.shot(t, "#canvas")
					assert.Greater(t, diffFraction(before, after), 0.0002, "control %s (%s → %s) did not change the canvas", p.Name, current, got)
					eval[bool](t, tab, fmt.Sprintf(`%s.then(a => { a.setParam(%q, %q); return true; })`, liveAPI, p.Name, current))
					tab.waitDrawn(t)
					before = tab.shot(t, "#canvas")
					continue
				}
				tab.waitDrawn(t)
				after := tab.shot(t, "#canvas")
				assert.Greater(t, diffFraction(before, after), 0.0002, "control %s (%s → %s) did not change the canvas", p.Name, current, got)
				before = after
			}
			// Reset brings every parameter back to its default.
			tab.do(t, chromedp.Click(chromedp.ID("reset")))
			for _, p := range s.Params() {
				if animated[name+"."+p.Name] {
					continue
				}
				assert.Equal(t, p.Default, eval[string](t, tab, fmt.Sprintf(`%s.then(a => a.getParam(%q))`, liveAPI, p.Name)), "%s after reset", p.Name)
			}
		})
	}
}

// A click in the canvas changes the scene, and the page follows (the
// playground posts a change message to the page).
func TestCanvasClickUpdatesThePage(t *testing.T) {
	base, _ := server(t)
	tab := newTab(t)
	tab.do(t, chromedp.Navigate(sceneURL(base, "explorer")))
	tab.waitReady(t)
	tab.waitDrawn(t)
	type box struct{ X, Y, W, H float64 }
	b := eval[box](t, tab, `(() => { const r = document.getElementById("canvas").getBoundingClientRect(); return {X: r.x, Y: r.y, W: r.width, H: r.height}; })()`)
	before := shownFacts(t, tab)["code"]
	// Try a few points in the right half, where the grid of codes is.
	for _, f := range [][2]float64{{0.75, 0.45}, {0.8, 0.6}, {0.7, 0.3}, {0.85, 0.5}} {
		// Hold the button for a few frames, as a hand does: the game reads
		// the mouse once per frame.
		x, y := b.X+f[0]*b.W, b.Y+f[1]*b.H
		tab.do(t, chromedp.MouseEvent(chromedp.MouseMoved, x, y),
			chromedp.MouseEvent(chromedp.MousePressed, x, y, chromedp.Button("left"), chromedp.ClickCount(1)))
		time.Sleep(150 * time.Millisecond)
		tab.do(t, chromedp.MouseEvent(chromedp.MouseReleased, x, y, chromedp.Button("left"), chromedp.ClickCount(1)))
		deadline := time.Now().Add(3 * time.Second)
		for time.Now().Before(deadline) {
			if code := shownFacts(t, tab)["code"]; code != before {
				assert.Equal(t, code, eval[string](t, tab, liveAPI+`.then(a => a.currentScene().facts.code)`))
				assert.Equal(t, code, fmt.Sprintf("0x%02X", mustAtoi(t, eval[string](t, tab, `document.getElementById("p-code-num").value`))))
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	t.Fatalf("clicking the canvas never changed the code shown (still %s)", before)
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	v, err := strconv.Atoi(s)
	require.NoError(t, err)
	return v
}
