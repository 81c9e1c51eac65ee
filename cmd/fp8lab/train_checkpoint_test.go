package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/scan"
	"github.com/fp8lab/fp8lab/tensorio"
)

// TestTrainCheckpointScanned: fp8lab train --checkpoint writes the run's
// weights, in F32 or BF16, and fp8lab scan reads every tensor of them.
func TestTrainCheckpointScanned(t *testing.T) {
	corpus := trainCorpus(t)
	for _, dtype := range []string{"F32", "BF16"} {
		ckpt := filepath.Join(t.TempDir(), "tiny.safetensors")
		code, _, errOut := cli(t, "", "train", "--recipe", "tensorwise", "--steps", "3", "--config", "tiny",
			"--corpus", corpus, "--checkpoint", ckpt, "--checkpoint-dtype", dtype)
		require.Equal(t, 0, code, errOut)
		as, closeFiles, err := tensorio.OpenFile(ckpt, tensorio.Limits{})
		require.NoError(t, err)
		names := []string{}
		for _, in := range as[0].Tensors {
			names = append(names, in.Name)
			assert.Equal(t, dtype, in.DType)
		}
		assert.Equal(t, "3", as[0].Metadata["step"])
		require.NoError(t, closeFiles())

		code, out, errOut := cli(t, "", "scan", "--json", ckpt)
		require.Equal(t, 0, code, errOut)
		var rep scan.Report
		require.NoError(t, json.Unmarshal([]byte(out), &rep))
		got := []string{}
		for _, ts := range rep.Tensors {
			got = append(got, ts.Name)
			assert.Empty(t, ts.Skipped, ts.Name)
		}
		assert.Equal(t, names, got)
		assert.Contains(t, got, "h0.qkv.w")
	}
	code, _, errOut := cli(t, "", "train", "--compare", "fp32,bf16", "--checkpoint", "x.safetensors")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--checkpoint saves a single run")
	code, _, errOut = cli(t, "", "train", "--recipe", "fp32", "--checkpoint-dtype", "F16")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--checkpoint-dtype")
}
