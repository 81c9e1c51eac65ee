package ui

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With Background, the training scene trains on its own goroutine: wake-ups
// come without any frame being drawn, and the next picture differs
// although no parameter changed (the shell's signature holds the scene's
// version). Without it, nothing trains until Animate runs.
func TestBackgroundTraining(t *testing.T) {
	var wakes atomic.Int64
	g, err := New("training", Options{Background: true, Wake: func() { wakes.Add(1) }})
	require.NoError(t, err)
	require.NoError(t, g.SetParam("steps", "25"))
	g.Snapshot(640, 400)
	renders := g.Renders()
	start := wakes.Load()
	require.NoError(t, g.SetParam("train", "true"))
	require.Eventually(t, func() bool { return wakes.Load() > start+3 }, 2*time.Minute, 10*time.Millisecond,
		"the background run wakes the host after its steps")
	assert.True(t, g.Animate(), "Animate reports the steps trained since")
	g.Snapshot(640, 400)
	assert.Greater(t, g.Renders(), renders, "the picture is drawn again as the run grows")
	require.NoError(t, g.SetParam("train", "false")) // stops the goroutine

	f, err := New("training", Options{})
	require.NoError(t, err)
	require.NoError(t, f.SetParam("steps", "25"))
	require.NoError(t, f.SetParam("train", "true"))
	v := f.Scene()
	time.Sleep(200 * time.Millisecond)
	assert.Equal(t, "0", v.Facts()["steps_done"], "without Background the scene trains only in Animate")
	assert.True(t, f.Animate())
}
