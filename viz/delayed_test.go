package viz

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDelayedSpikeOverflows(t *testing.T) {
	s, err := New("delayed")
	require.NoError(t, err)
	require.NoError(t, s.Set("drift", "0"))
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
