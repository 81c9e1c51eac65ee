package site_test

import (
	"fmt"
	"image"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// trainingProgress is what the page and the canvas say about a run.
type trainingProgress struct {
	Done   int     `json:"done"`   // steps done by every recipe (the API's facts)
	Shown  string  `json:"shown"`  // steps_done as the page's facts list shows it
	Status string  `json:"status"` // the API's status fact
	Frames int     `json:"frames"` // frames the canvas has drawn
	Gap    float64 `json:"gap"`    // longest gap between the page's 50 ms timer ticks, ms
	Now    float64 `json:"now"`    // performance.now() in the page
}

const trainingProgressJS = liveAPI + `.then(a => { const f = a.currentScene().facts;
	const d = document.querySelector('#facts dd[data-fact="steps_done"]');
	return {done: +f.steps_done, shown: d ? d.dataset.value : "", status: f.status, frames: a.frameCount(),
		gap: globalThis.__gap || 0, now: performance.now()}; })`

// watchGaps starts a 50 ms timer in the page that records the longest gap
// between its ticks: while the module trains, a long task would show as a
// long gap (the page and its framed canvas share one thread).
const watchGaps = `(() => { globalThis.__gap = 0; let last = performance.now();
	setInterval(() => { const n = performance.now(); globalThis.__gap = Math.max(globalThis.__gap, n - last); last = n; }, 50);
	return true; })()`

// trainLive opens the training scene with params, checks Train, and polls
// the run until it is done, returning the samples (the first one taken
// just before the click) and the click's time in the page.
func trainLive(t *testing.T, tab *tabT, w, h int, params ...string) ([]trainingProgress, float64) {
	t.Helper()
	openScene(t, tab, w, h, 1, "training", params...)
	eval[bool](t, tab, watchGaps)
	samples := []trainingProgress{eval[trainingProgress](t, tab, trainingProgressJS)}
	require.Equal(t, "not started", samples[0].Status)
	require.Zero(t, samples[0].Done)
	start := eval[float64](t, tab, `performance.now()`)
	tab.do(t, chromedp.Click(chromedp.CSS("#p-train")))
	deadline := time.Now().Add(10 * time.Minute)
	for samples[len(samples)-1].Status != "done" {
		require.True(t, time.Now().Before(deadline), "training did not finish: %+v", samples[len(samples)-1])
		time.Sleep(250 * time.Millisecond)
		samples = append(samples, eval[trainingProgress](t, tab, trainingProgressJS))
		if s := samples[len(samples)-1]; s.Done > 0 && s.Done < 10 && len(samples) < 80 {
			tab.savePage(t, fmt.Sprintf("training-%dx%d-during", w, h))
		}
	}
	return samples, start
}

// TestTrainingLive trains the classroom configuration live in the page
// (the Train checkbox, three recipes) and checks that the curve grows while
// the page keeps answering: more steps at every look, the page's facts
// following, a control changed mid-run taking effect, and the frame loop
// parked once the run is done.
func TestTrainingLive(t *testing.T) {
	tab := newTab(t)
	samples, start := trainLive(t, tab, 1024, 768, "steps", "50")
	first := -1.0
	grew := 0
	for i, s := range samples[1:] {
		if first < 0 && s.Done >= 1 {
			first = s.Now - start
		}
		if s.Done > samples[i].Done {
			grew++
		}
		assert.GreaterOrEqual(t, s.Done, samples[i].Done, "the run never goes back")
	}
	assert.GreaterOrEqual(t, grew, 3, "the curve grew at several looks: %+v", samples)
	last := samples[len(samples)-1]
	assert.Equal(t, 50, last.Done)
	t.Logf("first curve point %.0f ms after Train; 3 recipes × 50 steps in %.1f s; longest gap between 50 ms ticks %.0f ms; %d frames",
		first, (last.Now-start)/1000, last.Gap, last.Frames)
	// Responsive: the page's timer never waits longer than a slice (at
	// most half a second) and a few steps: the machine's speed and load
	// set what a step costs; a page that trained without yielding would
	// wait for the whole run.
	perStep := (last.Now - start) / float64(3*last.Done)
	assert.Less(t, last.Gap, max(2000, 8*perStep), "the page froze for %.0f ms while training (%.0f ms a step)", last.Gap, perStep)

	// The page's facts follow the run (it re-reads them on every change).
	require.Eventually(t, func() bool {
		return eval[trainingProgress](t, tab, trainingProgressJS).Shown == "50"
	}, 10*time.Second, 100*time.Millisecond, "the facts list shows the last step")
	tab.savePage(t, "training-1024x768-done")

	// Done: the loop parks (no frames while nothing changes).
	tab.waitDrawn(t)
	f0 := eval[int](t, tab, liveAPI+`.then(a => a.frameCount())`)
	time.Sleep(time.Second)
	assert.Equal(t, f0, eval[int](t, tab, liveAPI+`.then(a => a.frameCount())`), "frames drawn after the run ended")

	// Unchecking Train stops and resets.
	tab.do(t, chromedp.Click(chromedp.CSS("#p-train")))
	require.Eventually(t, func() bool {
		p := eval[trainingProgress](t, tab, trainingProgressJS)
		return p.Status == "not started" && p.Done == 0
	}, 10*time.Second, 100*time.Millisecond)
}

// TestTrainingControlWhileTraining changes a control while the run trains:
// the page answers and the scene takes it.
func TestTrainingControlWhileTraining(t *testing.T) {
	tab := newTab(t)
	openScene(t, tab, 1024, 768, 1, "training", "steps", "300")
	tab.do(t, chromedp.Click(chromedp.CSS("#p-train")))
	require.Eventually(t, func() bool {
		return eval[trainingProgress](t, tab, trainingProgressJS).Done >= 2
	}, 60*time.Second, 100*time.Millisecond)
	t0 := eval[float64](t, tab, `performance.now()`)
	tab.set(t, "#p-operand", "input")
	var took float64
	require.Eventually(t, func() bool {
		took = eval[float64](t, tab, liveAPI+`.then(a => a.getParam("operand") === "input" ? performance.now() : -1)`)
		return took >= 0
	}, 10*time.Second, 20*time.Millisecond)
	p := eval[trainingProgress](t, tab, trainingProgressJS)
	assert.Equal(t, "training", p.Status, "changing what the maps show does not restart the run")
	t.Logf("the operand control took effect %.0f ms after the change, at step %d", took-t0, p.Done)
}

// TestTrainingBench trains three recipes × 300 steps of the classroom
// configuration live at 1024×768 and reports the time to the first curve
// point and to the end (the playground's budget: 5 s and 3 minutes on a
// 2-core machine), with screenshots during and after when
// FP8LAB_SCREENSHOTS is set, at 1024×768, 1920×1080 and 390×844 (or the
// sizes in FP8LAB_TRAINING_SIZES; FP8LAB_TRAINING_STEPS changes the 300
// steps). It runs only with FP8LAB_BROWSER_BENCH=1.
func TestTrainingBench(t *testing.T) {
	if os.Getenv("FP8LAB_BROWSER_BENCH") != "1" {
		t.Skip("set FP8LAB_BROWSER_BENCH=1 to time the live training")
	}
	steps := 300
	if s := os.Getenv("FP8LAB_TRAINING_STEPS"); s != "" {
		var err error
		steps, err = strconv.Atoi(s)
		require.NoError(t, err)
	}
	sizes := [][2]int{{1024, 768}, {1920, 1080}, {390, 844}}
	if s := os.Getenv("FP8LAB_TRAINING_SIZES"); s != "" { // e.g. 1024x768,390x844
		sizes = nil
		for _, f := range strings.Split(s, ",") {
			var w, h int
			_, err := fmt.Sscanf(f, "%dx%d", &w, &h)
			require.NoError(t, err, "FP8LAB_TRAINING_SIZES=%s", s)
			sizes = append(sizes, [2]int{w, h})
		}
	}
	for _, vp := range sizes {
		tab := newTab(t)
		samples, start := trainLive(t, tab, vp[0], vp[1], "steps", strconv.Itoa(steps))
		first := 0.0
		for _, s := range samples {
			if s.Done >= 1 {
				first = s.Now - start
				break
			}
		}
		last := samples[len(samples)-1]
		tab.savePage(t, fmt.Sprintf("training-%dx%d-done", vp[0], vp[1]))
		t.Logf("%d×%d: first curve point %.1f s after Train; 3 recipes × %d steps in %.1f s; longest gap between 50 ms ticks %.0f ms; %d frames",
			vp[0], vp[1], first/1000, steps, (last.Now-start)/1000, last.Gap, last.Frames)
		tab.close()
	}
}

// colouredColumns returns the fraction of the columns of the top part
// (the given share of the height) of img that hold a coloured pixel: the
// Training scene's loss curves are its only colours there (the axes, grid
// and text are grey), but for the legend and the step-0 marks.
func colouredColumns(img *image.RGBA, share float64) float64 {
	b := img.Bounds()
	top := b.Min.Y + int(share*float64(b.Dy()))
	n := 0
	for x := b.Min.X; x < b.Max.X; x++ {
		for y := b.Min.Y; y < top; y++ {
			c := img.RGBAAt(x, y)
			if int(max(c.R, c.G, c.B))-int(min(c.R, c.G, c.B)) > 50 {
				n++
				break
			}
		}
	}
	return float64(n) / float64(b.Dx())
}

// TestTrainingReferenceRuns switches the Training scene to the shipped
// reference runs (the Runs control) and sees them: the facts say where
// they come from, the explanation names the command that made them, and
// the loss curves run across the canvas at once (nothing trains), at
// 1024×768, 1920×1080 and 390×844 (screenshots in FP8LAB_SCREENSHOTS).
func TestTrainingReferenceRuns(t *testing.T) {
	for _, vp := range [][2]int{{1024, 768}, {1920, 1080}, {390, 844}} {
		t.Run(fmt.Sprintf("%dx%d", vp[0], vp[1]), func(t *testing.T) {
			tab := newTab(t)
			openScene(t, tab, vp[0], vp[1], 1, "training")
			before := colouredColumns(tab.shot(t, "#canvas"), 0.5)
			t0 := eval[float64](t, tab, `performance.now()`)
			tab.set(t, "#p-runs", "reference")
			require.Eventually(t, func() bool {
				return eval[string](t, tab, liveAPI+`.then(a => a.currentScene().facts.status)`) == "shipped"
			}, 30*time.Second, 20*time.Millisecond, "the scene did not show the shipped runs")
			tab.waitDrawn(t)
			t.Logf("the reference runs drawn %.0f ms after the switch", eval[float64](t, tab, `performance.now()`)-t0)
			f := eval[map[string]string](t, tab, liveAPI+`.then(a => a.currentScene().facts)`)
			assert.Equal(t, "reference", f["config"])
			assert.NotEmpty(t, f["command"])
			assert.Equal(t, f["steps"], f["steps_done"])
			for _, k := range []string{"recipe_1", "recipe_2", "recipe_3", "lowest", "machine", "date"} {
				assert.NotEmpty(t, f[k], k)
			}
			require.Eventually(t, func() bool {
				return strings.Contains(tab.text(t, "#explanation"), " by: "+f["command"]+". ")
			}, 10*time.Second, 100*time.Millisecond, "the explanation names the command that made the runs")
			after := colouredColumns(tab.shot(t, "#canvas"), 0.5)
			t.Logf("coloured columns in the canvas's top part: %.2f live before Train, %.2f reference", before, after)
			assert.Greater(t, after, 0.5, "the reference curves run across the canvas")
			assert.Greater(t, after, before+0.3, "more curve than the untrained live run's marks")
			tab.savePage(t, fmt.Sprintf("training-reference-%dx%d", vp[0], vp[1]))
		})
	}
}

// timerLateness starts a 50 ms timer in the page that records how late
// each tick comes (its interval minus 50 ms) while globalThis.__watch is
// set: the page's thread, which also draws the canvas, is what delays it.
const timerLateness = `(() => { globalThis.__late = []; globalThis.__watch = false; let last = performance.now();
	setInterval(() => { const n = performance.now(); if (globalThis.__watch) globalThis.__late.push(n - last - 50); last = n; }, 50);
	return true; })()`

// TestTrainingWorkerKeepsPageResponsive trains the live run in the page's
// Web Worker (training-worker.js): while three recipes train, the page's
// 50 ms timer runs at most 50 ms late at the median (training in the
// canvas's frames, it ran 160–224 ms late, issue 24), the curves grow, and
// the scene reaches the last step.
func TestTrainingWorkerKeepsPageResponsive(t *testing.T) {
	tab := newTab(t)
	openScene(t, tab, 1024, 768, 1, "training", "steps", "60")
	require.Eventually(t, func() bool {
		return eval[string](t, tab, `document.body.dataset.trainingWorker || ""`) == "on"
	}, 60*time.Second, 100*time.Millisecond, "the training worker did not start")
	eval[bool](t, tab, timerLateness)
	start := eval[float64](t, tab, `(globalThis.__watch = true, performance.now())`)
	tab.do(t, chromedp.Click(chromedp.CSS("#p-train")))
	var p trainingProgress
	grew, last := 0, 0
	deadline := time.Now().Add(10 * time.Minute)
	for p.Status != "done" {
		require.True(t, time.Now().Before(deadline), "training did not finish: %+v", p)
		time.Sleep(250 * time.Millisecond)
		p = eval[trainingProgress](t, tab, trainingProgressJS)
		if p.Done > last {
			grew++
			last = p.Done
		}
	}
	late := eval[[]float64](t, tab, `(globalThis.__watch = false, globalThis.__late)`)
	require.NotEmpty(t, late)
	sorted := slices.Clone(late)
	slices.Sort(sorted)
	median, worst := sorted[len(sorted)/2], sorted[len(sorted)-1]
	t.Logf("3 recipes × 60 steps in %.1f s in the worker; %d timer ticks, lateness median %.0f ms, 90th percentile %.0f ms, worst %.0f ms; %d frames",
		(p.Now-start)/1000, len(late), median, sorted[len(sorted)*9/10], worst, p.Frames)
	assert.Equal(t, 60, p.Done)
	assert.GreaterOrEqual(t, grew, 3, "the curves grew at several looks")
	assert.LessOrEqual(t, median, 50.0, "the page's timer ran %.0f ms late at the median while training", median)
	assert.Empty(t, tab.Errors(), "no error on the console")
}

// TestTrainingLessonRuns opens a lesson's shipped runs by link, as the
// workshop does (Runs: lessons), at 1024×768, 1920×1080, 390×844 and in
// presentation mode: the facts carry the lesson and its sentence, the
// explanation says what the runs show, and the curves run across the
// canvas (screenshots in FP8LAB_SCREENSHOTS).
func TestTrainingLessonRuns(t *testing.T) {
	for _, vp := range []struct {
		w, h    int
		present bool
	}{{1024, 768, false}, {1920, 1080, false}, {390, 844, false}, {1920, 1080, true}} {
		t.Run(fmt.Sprintf("%dx%d present=%v", vp.w, vp.h, vp.present), func(t *testing.T) {
			tab := newTab(t)
			params := []string{"runs", "lessons", "lesson", "scaling", "inspect", "3"}
			if vp.present {
				params = append(params, "present", "1")
			}
			openScene(t, tab, vp.w, vp.h, 1, "training", params...)
			f := eval[map[string]string](t, tab, liveAPI+`.then(a => a.currentScene().facts)`)
			assert.Equal(t, "shipped", f["status"])
			assert.Equal(t, "scaling", f["lesson"])
			require.NotEmpty(t, f["shows"])
			if !vp.present { // presentation mode hides the explanation
				require.Eventually(t, func() bool {
					// The lesson's sentence is the takeaway, after "Lesson 1, …: "
					// (its first letter lowered mid-sentence).
					return strings.Contains(tab.text(t, "#explanation"), f["shows"][1:]+".")
				}, 10*time.Second, 100*time.Millisecond, "the explanation says what the lesson's runs show")
			}
			assert.Greater(t, colouredColumns(tab.shot(t, "#canvas"), 0.5), 0.5, "the lesson's curves run across the canvas")
			name := fmt.Sprintf("training-lesson-%dx%d", vp.w, vp.h)
			if vp.present {
				name += "-present"
			}
			tab.savePage(t, name)
		})
	}
}
