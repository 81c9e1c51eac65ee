package main

import (
	"bytes"
	"testing"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRotationFlattensOutliers(t *testing.T) {
	var out bytes.Buffer
	res, err := run(&out)
	require.NoError(t, err)
	require.Len(t, res.Reports, 2)
	for i, rep := range res.Reports {
		// Outliers of 200 spread over 128 values: amax drops several-fold.
		assert.Less(t, float64(rep.AmaxAfter), float64(rep.AmaxBefore)/4, "report %d", i)
		// Plain quantization flushes ordinary values to zero; rotated none.
		assert.Greater(t, rep.Plain.Underflow, 100, "report %d", i)
		assert.Zero(t, rep.Rotated.Underflow, "report %d", i)
		assert.Less(t, rep.Rotated.MSE, rep.Plain.MSE, "report %d", i)
	}
	// In FP4 every ordinary value of the plain run is lost.
	assert.Greater(t, res.Reports[1].Plain.Underflow, 64*254*9/10)
	// The product is the same up to float32 rounding.
	assert.Less(t, res.MatMulMaxDiff, 1e-5*res.MatMulMaxAbs)
	assert.Greater(t, res.MatMulMaxAbs, 100.0)
}

// TestReadmeShowsTheRealOutput keeps the README's output block equal to what
// `go run ./examples/hadamard` prints.
func TestReadmeShowsTheRealOutput(t *testing.T) {
	var out bytes.Buffer
	_, err := run(&out)
	require.NoError(t, err)
	testenv.ReadmeOutput(t, "go run ./examples/hadamard", out.String())
}
