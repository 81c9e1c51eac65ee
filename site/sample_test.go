package site

import (
	"bytes"
	"io/fs"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/tensorio"
	"github.com/fp8lab/fp8lab/train"
)

// makeSample trains the classroom GPT as the sample's settings say and
// returns its checkpoint.
func makeSample(t *testing.T) []byte {
	t.Helper()
	corpus, err := train.ClassroomCorpus()
	require.NoError(t, err)
	r, err := train.RecipeByName(sampleRecipe)
	require.NoError(t, err)
	tr, err := train.NewTrainer(train.Classroom(), r, sampleSeed, sampleSteps, corpus)
	require.NoError(t, err)
	for i := 0; i < sampleSteps; i++ {
		_, err := tr.Step()
		require.NoError(t, err)
	}
	var b bytes.Buffer
	require.NoError(t, tr.SaveCheckpoint(&b, sampleDType))
	return b.Bytes()
}

// The sample in the site is a checkpoint the scanner reads, of the run its
// settings describe (the metadata SaveCheckpoint writes), holding every
// parameter of the classroom model, and the Scan page says so with the
// file's size. TestSampleBytes checks it bit for bit where training is.
func TestSampleIsACheckpoint(t *testing.T) {
	have, err := fs.ReadFile(FS(), SamplePath)
	require.NoError(t, err, "run go tool task sample-checkpoint")
	a, err := tensorio.Open(bytes.NewReader(have), int64(len(have)), "sample", tensorio.Limits{})
	require.NoError(t, err)
	assert.Equal(t, tensorio.Safetensors, a.Kind)
	assert.Equal(t, sampleRecipe, a.Metadata["recipe"])
	assert.Equal(t, strconv.Itoa(sampleSteps), a.Metadata["step"])
	assert.Equal(t, strconv.Itoa(sampleSeed), a.Metadata["seed"])
	n := 0
	for _, in := range a.Tensors {
		assert.Equal(t, sampleDType, in.DType, in.Name)
		k := 1
		for _, d := range in.Shape {
			k *= int(d)
		}
		n += k
	}
	assert.Equal(t, train.Classroom().NumParams(), n, "parameters")
	info := describeSample()
	assert.Equal(t, len(have), info.Bytes)
	page, err := fs.ReadFile(FS(), "scan.html")
	require.NoError(t, err)
	assert.Contains(t, string(page), `data-sample="`+SamplePath+`"`)
}
