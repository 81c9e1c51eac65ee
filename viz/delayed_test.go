package viz

import (
	"fmt"
	"image"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/fp8lab/fp8lab/viz/plot/plottest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDelayedSpikeOverflows(t *testing.T) {
	s, err := New("delayed")
	require.NoError(t, err)
	require.NoError(t, s.Set("drift", "0"))
	require.NoError(t, s.Set("spike", "6"))
	d := s.(*delayedScene)
	require.NoError(t, d.compute())
	assert.Greater(t, d.steps[80].Overflow, 0, "the spike at step 80 arrives before the scale knows")
	assert.Less(t, d.steps[80].SQNR, 10.0)
	// The spike stays in a 16-step max history: the scale stays low until it leaves.
	assert.Less(t, d.steps[90].Scale, d.steps[79].Scale/16)
	assert.InDelta(t, float64(d.steps[79].Scale), float64(d.steps[100].Scale), float64(d.steps[79].Scale)/2)
	// most_recent forgets it at once.
	require.NoError(t, s.Set("algo", "most_recent"))
	assert.InDelta(t, float64(d.steps[79].Scale), float64(d.steps[90].Scale), float64(d.steps[79].Scale)/2)
	// A margin of 2^8 absorbs a ×64 spike: no overflow at all.
	require.NoError(t, s.Set("margin", "8"))
	assert.Equal(t, "0", s.Facts()["overflow_steps"])
}

func TestDelayedClickMovesSpike(t *testing.T) {
	s, err := New("delayed")
	require.NoError(t, err)
	render(t, s, 1280, 720)
	ax := s.(*delayedScene).axes[2]
	x := int(ax.X.Map(150))
	require.True(t, s.Click(x, (ax.Plot.Min.Y+ax.Plot.Max.Y)/2, 1280, 720))
	v, _ := s.Get("spike_at")
	assert.Equal(t, "150", v)
}

// TestDelayedDamageCounted: the default spike clips at once and then
// flushes small values for exactly as long as it stays in the amax history
// (16 steps with the max algorithm, 1 with most_recent, 64 with a longer
// history); the facts and the text count the steps from the simulation.
func TestDelayedDamageCounted(t *testing.T) {
	cases := []struct {
		params map[string]string
		stale  int
	}{
		{nil, 16},
		{map[string]string{"algo": "most_recent"}, 1},
		{map[string]string{"history": "64"}, 64},
		{map[string]string{"spike": "0"}, 0},
		{map[string]string{"spike": "6", "margin": "8"}, 16},
	}
	for _, c := range cases {
		s, err := New("delayed")
		require.NoError(t, err)
		require.NoError(t, SetAll(s, c.params))
		d := s.(*delayedScene)
		f := facts(s.Facts())
		text := strings.Join(s.Explain().Paragraphs(), " ")
		assert.Equal(t, c.stale, f.int("stale_steps"), c.params)
		if c.stale == 0 {
			assert.NotContains(t, text, "After the spike", c.params)
			continue
		}
		at := f.int("spike_step")
		// Recount from the simulation: the scale stays at least 2× below the
		// spike step's for exactly the stale steps, then recovers.
		for k := at + 1; k <= at+c.stale; k++ {
			assert.LessOrEqual(t, float64(d.steps[k].Scale), float64(d.steps[at].Scale)/2, "%v step %d", c.params, k)
		}
		assert.Greater(t, float64(d.steps[at+c.stale+1].Scale), float64(d.steps[at].Scale)/2, c.params)
		flushSteps, flushed := 0, 0
		for k := at + 1; k <= at+c.stale; k++ {
			if d.steps[k].Underflow > 0 {
				flushSteps++
				flushed += d.steps[k].Underflow
			}
		}
		assert.Equal(t, flushSteps, f.int("flush_steps_after_spike"), c.params)
		assert.Equal(t, flushed, f.int("flushed_after_spike"), c.params)
		if c.stale == 1 {
			assert.Contains(t, text, "for 1 step ("+strconv.Itoa(at+1)+")", c.params)
		} else {
			assert.Contains(t, text, fmt.Sprintf("for %d steps (%d to %d)", c.stale, at+1, at+c.stale), c.params)
		}
	}
	// The default: every stale step flushes, and the spike clips.
	s, _ := New("delayed")
	f := facts(s.Facts())
	assert.Equal(t, 16, f.int("flush_steps_after_spike"), "the default spike flushes values in every step it stays in the history")
	assert.Greater(t, f.int("spike_overflow"), 0)
}

// TestDelayedPhonePlotsFullWidth: on a phone (the scene page's 357×1152
// CSS canvas at ×3, and at ×1) the legends stand in strips above their
// plots instead of in a column beside them, so each plot area is at least
// 60% of the canvas wide (it was about 60 of 357 CSS px), and no title
// wraps to more than 3 lines (one took 7). Titles are counted as the texts
// at the title size drawn above each plot area.
func TestDelayedPhonePlotsFullWidth(t *testing.T) {
	var axes []*plottest.Axes
	stop := plottest.ObserveAxes(func(a *plottest.Axes) { axes = append(axes, a) })
	defer stop()
	for _, r := range []float64{3, 1} {
		s, err := New("delayed")
		require.NoError(t, err)
		axes = axes[:0]
		img, boxes := renderRecorded(t, s, image.Rect(0, 0, int(357*r), int(1152*r)), Display{PixelRatio: r})
		require.Len(t, axes, 3, "the three charts")
		for i, a := range axes {
			assert.GreaterOrEqual(t, 10*a.Plot.Dx(), 6*img.Rect.Dx(), "×%g: plot %d is %v", r, i, a.Plot)
			lines := 0
			for _, b := range boxes {
				if math.Abs(b.Size-a.Theme.TitleSize) < 0.1 && b.Box.In(a.Outer) && b.Box.Max.Y <= a.Plot.Min.Y {
					lines++
				}
			}
			assert.GreaterOrEqual(t, lines, 1, "×%g: plot %d has its title", r, i)
			assert.LessOrEqual(t, lines, 3, "×%g: plot %d's title lines", r, i)
		}
		assert.True(t, axes[0].HasLegendStrip() && axes[1].HasLegendStrip(), "×%g: legends above the plots", r)
	}
}
