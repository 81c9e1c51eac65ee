package records

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/train"
	"github.com/fp8lab/fp8lab/train/compare"
)

// small is a record of two recipes × one seed, as JSON.
func small(t *testing.T) []byte {
	t.Helper()
	run := func(name string, final float64) *train.Result {
		return &train.Result{Config: train.Tiny(), Recipe: train.Recipe{Name: name}, Seed: 1, Steps: 2,
			TrainLoss: []float64{5, 4}, Val: []train.EvalPoint{{Step: 0, Loss: 5.5}, {Step: 2, Loss: final}}}
	}
	rec := Record{Set: compare.Set{Command: "fp8lab train --compare bf16,fp32", Config: train.Tiny(), Steps: 2,
		Seeds: []uint64{1}, Recipes: []string{"bf16", "fp32"}, Runs: []*train.Result{run("bf16", 3.5), run("fp32", 3.25)}},
		Date: "2026-11-22T00:00:00Z", Machine: "test"}
	b, err := json.MarshalIndent(&rec, "", "  ")
	require.NoError(t, err)
	return b
}

// TestReadPlainAndGzipped: a record reads the same plain and gzipped, and
// compressing is deterministic and lossless.
func TestReadPlainAndGzipped(t *testing.T) {
	plain := small(t)
	z, err := Compress(plain)
	require.NoError(t, err)
	z2, err := Compress(plain)
	require.NoError(t, err)
	assert.Equal(t, z, z2, "the same record gives the same bytes")
	again, err := Compress(z)
	require.NoError(t, err)
	assert.Equal(t, z, again, "a gzipped record is kept as it is")

	zr, err := gzip.NewReader(bytes.NewReader(z))
	require.NoError(t, err)
	back, err := io.ReadAll(zr)
	require.NoError(t, err)
	assert.Equal(t, plain, back)

	a, err := Read(bytes.NewReader(plain))
	require.NoError(t, err)
	b, err := Read(bytes.NewReader(z))
	require.NoError(t, err)
	assert.Equal(t, a, b)
	assert.Equal(t, 3.25, b.Run(1, 0).FinalVal())
	assert.Equal(t, "fp8lab train --compare bf16,fp32", b.Command)
}

// TestReadRejects: bad input is an error, not a panic or a record that
// Set.Run would read out of bounds.
func TestReadRejects(t *testing.T) {
	plain := small(t)
	z, err := Compress(plain)
	require.NoError(t, err)
	var missing map[string]any
	require.NoError(t, json.Unmarshal(plain, &missing))
	missing["runs"] = missing["runs"].([]any)[:1]
	short, err := json.Marshal(missing)
	require.NoError(t, err)
	for name, b := range map[string][]byte{
		"empty":           nil,
		"not JSON":        []byte("runs"),
		"truncated gzip":  z[:len(z)/2],
		"gzip magic only": {0x1f, 0x8b},
		"a run missing":   short,
	} {
		_, err := Read(bytes.NewReader(b))
		assert.Error(t, err, name)
		_, err = Compress(b)
		assert.Error(t, err, name)
	}
	// An empty file says so (Go's decoder alone says only "EOF").
	_, err = Read(bytes.NewReader(nil))
	assert.EqualError(t, err, "records: empty input, no record in it")
	path := filepath.Join(t.TempDir(), "empty.json")
	require.NoError(t, os.WriteFile(path, nil, 0o644))
	_, err = ReadFile(path)
	assert.EqualError(t, err, path+": records: empty input, no record in it")
}

// TestReference: the shipped reference record decodes, holds a finished
// run for every recipe and seed of the reference configuration, and says
// what made it.
func TestReference(t *testing.T) {
	rec, err := Reference()
	require.NoError(t, err)
	assert.Equal(t, "reference", rec.Config.Name)
	assert.NotEmpty(t, rec.Command)
	assert.NotEmpty(t, rec.Machine)
	assert.NotEmpty(t, rec.Date)
	for i, name := range rec.Recipes {
		for j, seed := range rec.Seeds {
			r := rec.Run(i, j)
			require.NotNil(t, r, "%s seed %d", name, seed)
			assert.Equal(t, name, r.Recipe.Name)
			assert.Equal(t, seed, r.Seed)
			assert.Len(t, r.TrainLoss, rec.Steps)
		}
	}
	again, err := Reference()
	require.NoError(t, err)
	assert.Same(t, rec, again, "decoded once")
}

// BenchmarkReadReference decodes the embedded reference record (what the
// playground does once, the first time the reference runs are shown).
func BenchmarkReadReference(b *testing.B) {
	b.SetBytes(int64(len(referenceRuns)))
	for b.Loop() {
		if _, err := Read(bytes.NewReader(referenceRuns)); err != nil {
			b.Fatal(err)
		}
	}
}
