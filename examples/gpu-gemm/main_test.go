//go:build cuda

package main

// This test needs a GPU. Build it anywhere with the CUDA headers and run
// the binary on the GPU machine:
//
//	go test -c -tags cuda -o gpu-gemm.test ./examples/gpu-gemm
//	./gpu-gemm.test -test.v -test.short
//
// Without a usable GPU the binary stops before the tests with one line from
// the driver check (exit status 2).

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/native"
)

func TestGPUGEMM(t *testing.T) {
	var out bytes.Buffer
	res, err := run(&out, true)
	require.NoError(t, err)
	require.Len(t, res, 1)
	t.Log(out.String())
	r := res[0]
	// Against the unrounded float32 product both errors are rounding errors
	// of the operands (bounds not yet checked on a GPU); FP8
	// (3 mantissa bits per operand) errs more than BF16 (8 bits).
	assert.LessOrEqual(t, r.FP8Err, 64*native.GEMMTolFP8)
	assert.LessOrEqual(t, r.BF16Err, 0x1p-8)
	assert.Greater(t, r.FP8Err, r.BF16Err)
	assert.Positive(t, r.FP8Time)
}
