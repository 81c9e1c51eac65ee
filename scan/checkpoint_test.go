package scan

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/tensorio"
	"github.com/fp8lab/fp8lab/train"
)

// TestScanTrainerCheckpoint scans checkpoints the training lab wrote (the
// classroom model after a few tensorwise steps, in F32 and in BF16): every
// parameter is scanned under every default recipe, the BF16 file's amax
// is the F32 amax rounded to BF16, and one tensor's whole-tensor SQNR
// matches an independent float64 computation.
func TestScanTrainerCheckpoint(t *testing.T) {
	text := []byte(strings.Repeat("func main() { fmt.Println(\"hello, fp8\") }\n", 100))
	corpus, err := train.TextCorpus(text, "test")
	require.NoError(t, err)
	recipe, err := train.RecipeByName("tensorwise")
	require.NoError(t, err)
	tr, err := train.NewTrainer(train.Classroom(), recipe, 1, 10, corpus)
	require.NoError(t, err)
	for range 3 {
		_, err := tr.Step()
		require.NoError(t, err)
	}
	reports := map[string]*Report{}
	var f32File []byte
	for _, dtype := range []string{train.CheckpointF32, train.CheckpointBF16} {
		var b bytes.Buffer
		require.NoError(t, tr.SaveCheckpoint(&b, dtype))
		if dtype == train.CheckpointF32 {
			f32File = b.Bytes()
		}
		a, err := tensorio.Open(bytes.NewReader(b.Bytes()), int64(b.Len()), "ckpt-"+dtype+".safetensors", tensorio.Limits{})
		require.NoError(t, err)
		rep, err := Run(context.Background(), []*tensorio.Archive{a}, Options{})
		require.NoError(t, err)
		require.Len(t, rep.Tensors, len(a.Tensors))
		for i, ts := range rep.Tensors {
			assert.Equal(t, a.Tensors[i].Name, ts.Name)
			assert.Equal(t, dtype, ts.DType)
			assert.Empty(t, ts.Skipped, ts.Name)
			require.Len(t, ts.Results, 5, ts.Name)
			for _, r := range ts.Results {
				assert.Empty(t, r.Skipped, ts.Name+" "+r.Recipe)
			}
		}
		assert.Equal(t, "wte", rep.Tensors[0].Name)
		assert.Equal(t, "lnf.b", rep.Tensors[len(rep.Tensors)-1].Name) // the head is tied
		reports[dtype] = rep
	}
	for i, ts := range reports[train.CheckpointF32].Tensors {
		bf := reports[train.CheckpointBF16].Tensors[i]
		want := fp8.BF16.Decode(fp8.BF16.Encode32(float32(ts.Amax)))
		assert.Equal(t, float64(want), bf.Amax, ts.Name)
	}

	// h0.fc.w under tensorwise E4M3FN, recomputed in float64.
	a, err := tensorio.Open(bytes.NewReader(f32File), int64(len(f32File)), "ckpt", tensorio.Limits{})
	require.NoError(t, err)
	x, err := tensorio.Select([]*tensorio.Archive{a}, "h0.fc.w")
	require.NoError(t, err)
	q, err := scaling.Quantize(x, fp8.E4M3FN, scaling.PerTensor, scaling.Options{})
	require.NoError(t, err)
	y, err := q.Dequantize()
	require.NoError(t, err)
	var sig, noise float64
	for k, v := range x.Data {
		e := float64(v) - float64(y.Data[k])
		sig, noise = sig+float64(v)*float64(v), noise+e*e
	}
	for _, ts := range reports[train.CheckpointF32].Tensors {
		if ts.Name == "h0.fc.w" {
			assert.Equal(t, []int{128, 32}, []int{ts.Rows, ts.Cols})
			assert.InDelta(t, 10*math.Log10(sig/noise), ts.Results[0].SQNR, 1e-9)
			assert.InDelta(t, noise/float64(len(x.Data)), ts.Results[0].MSE, 1e-9*noise/float64(len(x.Data)))
		}
	}
}
