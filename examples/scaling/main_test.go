package main

import (
	"bytes"
	"testing"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFinerGranularityRescuesSmallValues(t *testing.T) {
	var out bytes.Buffer
	lines, err := run(&out)
	require.NoError(t, err)
	by := map[string]line{}
	for _, l := range lines {
		by[l.Granularity] = l
	}
	for _, g := range scaling.Granularities() {
		require.Contains(t, by, g.String(), "the example shows every kind (%s)", testenv.Step("Add a granularity", 6))
	}
	tensor, row, tile := by["tensor"].Metrics, by["row"].Metrics, by["tile1x128"].Metrics

	// One scale for the whole tensor: the outliers set it, and most of the
	// ordinary values fall into E4M3's subnormals or to zero.
	assert.Greater(t, tensor.FractionSubnormal, 0.5)
	assert.Greater(t, tensor.Underflow, 10*row.Underflow)
	// Per-row and 1×128 tiles isolate the outlier rows: far better SQNR,
	// overall and in the worst row.
	assert.Greater(t, row.SQNR, tensor.SQNR+20)
	assert.Greater(t, tile.SQNR, tensor.SQNR+20)
	assert.Greater(t, row.Rows.Worst, tensor.Rows.Worst+10)
	// The whole-tensor SQNR hides the damage: the worst block is much worse.
	assert.Less(t, tensor.Blocks.Worst, tensor.SQNR-15)
	assert.Contains(t, out.String(), "nvfp4")
	// 128 rows: one 128×1 tile per column, the same blocks as per-column.
	assert.Equal(t, by["col"].Metrics, by["tile128x1"].Metrics)
}

// TestReadmeShowsTheRealOutput keeps the README's output block equal to what
// `go run ./examples/scaling` prints.
func TestReadmeShowsTheRealOutput(t *testing.T) {
	var out bytes.Buffer
	_, err := run(&out)
	require.NoError(t, err)
	testenv.ReadmeOutput(t, "go run ./examples/scaling ("+testenv.Step("Add a granularity", 6)+")", out.String())
}
