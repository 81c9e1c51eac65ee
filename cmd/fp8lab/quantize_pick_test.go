package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/tensorio"
)

// TestQuantizeTensorName: a file of several tensors needs --tensor NAME;
// without it the error lists the names, with it the named tensor (and only
// it) is quantized.
func TestQuantizeTensorName(t *testing.T) {
	var raws []tensorio.Raw
	for k, shape := range [][]int64{{4, 8}, {3, 16}} {
		x, err := scaling.RandomNormal(int(shape[0]), int(shape[1]), 0.02, uint64(k+1))
		require.NoError(t, err)
		raws = append(raws, tensorio.Raw{Name: []string{"a.weight", "b.weight"}[k], DType: "F32", Shape: shape, Data: f32LE(x.Data)})
	}
	var b bytes.Buffer
	require.NoError(t, tensorio.WriteSafetensors(&b, raws, nil))
	path := filepath.Join(t.TempDir(), "two.safetensors")
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))

	code, _, errOut := cli(t, "", "quantize", path)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, `"a.weight", "b.weight"`)
	assert.Contains(t, errOut, "--tensor NAME")

	code, out, errOut := cli(t, "", "quantize", "--tensor", "b.weight", "--json", path)
	require.Equal(t, 0, code, errOut)
	var res struct{ Rows, Cols int }
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	assert.Equal(t, []int{3, 16}, []int{res.Rows, res.Cols})

	code, _, errOut = cli(t, "", "quantize", "--tensor", "c", path)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, `no such tensor "c"`)
}

func f32LE(v []float32) []byte {
	var b bytes.Buffer
	for _, x := range v {
		u := math.Float32bits(x)
		b.Write([]byte{byte(u), byte(u >> 8), byte(u >> 16), byte(u >> 24)})
	}
	return b.Bytes()
}
