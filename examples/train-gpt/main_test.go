package main

import (
	"bytes"
	"testing"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTrainGPT(t *testing.T) {
	var buf bytes.Buffer
	results, err := run(&buf, []string{"fp32", "tensorwise"}, 60)
	require.NoError(t, err)
	require.Len(t, results, 2)
	// float32 learns: from ln 256 ≈ 5.55 to below 4.2 in 60 steps (measured 3.69).
	assert.Less(t, results[0].FinalVal(), 4.2)
	// tensorwise FP8 really quantizes, and still learns.
	assert.NotEqual(t, results[0].TrainLoss, results[1].TrainLoss)
	assert.Less(t, results[1].FinalVal(), 4.2)
	assert.Contains(t, buf.String(), "tensorwise")
	t.Log("\n" + buf.String())
}

// TestReadmeShowsTheRealOutput keeps the README's output block equal to what
// `go run ./examples/train-gpt` prints (200 steps of three recipes: long).
func TestReadmeShowsTheRealOutput(t *testing.T) {
	testenv.SkipUnlessLong(t, "the README shows 200 steps of three recipes")
	var out bytes.Buffer
	_, err := run(&out, []string{"fp32", "tensorwise", "nvfp4"}, 200)
	require.NoError(t, err)
	testenv.ReadmeOutput(t, "go run ./examples/train-gpt", out.String())
}
