package train

import (
	"bytes"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/tensorio"
)

// trained is a Tiny model after a few tensorwise steps.
func trained(t *testing.T, seed uint64, steps int) *Trainer {
	tr, err := NewTrainer(Tiny(), mustRecipe(t, "tensorwise"), seed, 10, testCorpus(t))
	require.NoError(t, err)
	for range steps {
		_, err := tr.Step()
		require.NoError(t, err)
	}
	return tr
}

func openCheckpoint(t *testing.T, b []byte) *tensorio.Archive {
	a, err := tensorio.Open(bytes.NewReader(b), int64(len(b)), "ckpt.safetensors", tensorio.Limits{})
	require.NoError(t, err)
	return a
}

// TestCheckpointRoundTrip: F32 restores every weight bit for bit and is
// written again byte for byte; BF16 restores each weight rounded to
// nearest BF16, and is itself a fixed point.
func TestCheckpointRoundTrip(t *testing.T) {
	src := trained(t, 1, 3)
	var f32 bytes.Buffer
	require.NoError(t, src.SaveCheckpoint(&f32, CheckpointF32))
	a := openCheckpoint(t, f32.Bytes())
	require.Len(t, a.Tensors, len(src.model.specs))
	assert.Equal(t, "wte", a.Tensors[0].Name)
	assert.Equal(t, []int64{Vocab, 8}, a.Tensors[0].Shape)
	assert.Equal(t, "F32", a.Tensors[0].DType)
	meta := a.Metadata
	assert.Equal(t, "fp8lab-train", meta["format"])
	assert.Equal(t, "3", meta["step"])
	assert.Equal(t, "tensorwise", meta["recipe"])

	dst := trained(t, 2, 0) // other weights
	require.NotEqual(t, src.model.params, dst.model.params)
	require.NoError(t, dst.LoadCheckpoint(a))
	for k, x := range src.model.params {
		require.Equal(t, math.Float32bits(x), math.Float32bits(dst.model.params[k]), "param %d", k)
	}
	dst.step, dst.seed = src.step, src.seed // the metadata's
	var again bytes.Buffer
	require.NoError(t, dst.SaveCheckpoint(&again, CheckpointF32))
	assert.True(t, bytes.Equal(f32.Bytes(), again.Bytes()), "F32 written again differs")

	var bf bytes.Buffer
	require.NoError(t, src.SaveCheckpoint(&bf, CheckpointBF16))
	assert.Less(t, bf.Len(), f32.Len()*6/10)
	b := openCheckpoint(t, bf.Bytes())
	assert.Equal(t, "BF16", b.Tensors[0].DType)
	require.NoError(t, dst.LoadCheckpoint(b))
	for k, x := range src.model.params {
		require.Equal(t, math.Float32bits(bf16Nearest(x)), math.Float32bits(dst.model.params[k]), "param %d", k)
	}
	var bf2 bytes.Buffer
	require.NoError(t, dst.SaveCheckpoint(&bf2, CheckpointBF16))
	assert.True(t, bytes.Equal(bf.Bytes(), bf2.Bytes()), "BF16 written again differs")

	assert.ErrorContains(t, src.SaveCheckpoint(&bytes.Buffer{}, "F16"), `checkpoint dtype "F16"`)
}

// TestCheckpointMismatch: a checkpoint of another shape, with a tensor
// missing or one too many, is refused by name.
func TestCheckpointMismatch(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, trained(t, 1, 0).SaveCheckpoint(&b, CheckpointF32))
	big, err := NewTrainer(Classroom(), mustRecipe(t, "fp32"), 1, 10, testCorpus(t))
	require.NoError(t, err)
	err = big.LoadCheckpoint(openCheckpoint(t, b.Bytes()))
	assert.ErrorContains(t, err, `tensor "wte" has shape [256 8], the model's is 256×32`)

	a := openCheckpoint(t, b.Bytes())
	raws := []tensorio.Raw{{Name: "extra", DType: "F32", Shape: []int64{1}, Data: make([]byte, 4)}}
	var withExtra bytes.Buffer
	require.NoError(t, tensorio.WriteSafetensors(&withExtra, raws, nil))
	err = trained(t, 1, 0).LoadCheckpoint(openCheckpoint(t, withExtra.Bytes()))
	assert.ErrorContains(t, err, `has no tensor "wte"`)

	a.Tensors = append(a.Tensors, a.Tensors[0])
	a.Tensors[len(a.Tensors)-1].Name = "extra"
	err = trained(t, 1, 0).LoadCheckpoint(a)
	assert.ErrorContains(t, err, `has a tensor "extra" the model does not`)
}
