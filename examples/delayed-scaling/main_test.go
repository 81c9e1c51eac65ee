package main

import (
	"bytes"
	"testing"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDelayedOverflowsWhereCurrentDoesNot(t *testing.T) {
	var out bytes.Buffer
	steps, err := run(&out, !testenv.Long())
	require.NoError(t, err)
	require.Len(t, steps, 24)
	spike := steps[16]
	n := 32 * 64
	if testenv.Long() {
		n = 64 * 256
	}
	// At the spike delayed scaling uses a scale from the history, 8× too
	// large: over a third of the tensor saturates and the SQNR collapses.
	assert.Greater(t, spike.Overflow, n/3)
	assert.Less(t, spike.SQNR, 10.0)
	// Current scaling at the same step clips nothing.
	assert.Zero(t, spike.CurrentOverflow)
	assert.Greater(t, spike.CurrentSQNR, 30.0)
	growing := 0
	for i, s := range steps {
		assert.Zero(t, s.CurrentOverflow, "step %d", i)
		if i > 0 && i < 16 && s.Overflow > 0 {
			growing++
		}
	}
	// During the drift, delayed scaling clips at most steps.
	assert.Greater(t, growing, 10)
	// After the spike the history holds it: the scale stays small.
	assert.Less(t, steps[20].Scale, steps[20].CurrentScale)
}

// TestReadmeShowsTheRealOutput keeps the README's output block equal to what
// `go run ./examples/delayed-scaling` prints.
func TestReadmeShowsTheRealOutput(t *testing.T) {
	var out bytes.Buffer
	_, err := run(&out, false)
	require.NoError(t, err)
	testenv.ReadmeOutput(t, "go run ./examples/delayed-scaling", out.String())
}
