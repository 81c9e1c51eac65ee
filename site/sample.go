package site

import (
	"fmt"
	"io/fs"

	"github.com/fp8lab/fp8lab/train"
)

// The Scan page's sample: the training lab's classroom GPT after a short
// run, saved as its checkpoint is (train.Trainer.SaveCheckpoint), so that a
// student without a checkpoint of their own scans one with a click.
// `go tool task sample-checkpoint` writes it (TestSampleIsCurrent with
// -update-sample), from these settings; the test fails when the file is
// not what they make.
const (
	// SamplePath is the sample's place in the site.
	SamplePath = "samples/classroom-gpt.safetensors"
	// sampleRecipe, sampleSeed and sampleSteps are the run that made it,
	// on train.Classroom() and the embedded classroom corpus.
	sampleRecipe = "bf16"
	sampleSeed   = 1
	sampleSteps  = 100
	// sampleDType is the dtype its weights are saved in.
	sampleDType = train.CheckpointBF16
)

// sampleInfo describes the sample for the Scan page: its place, its file
// name, what it is and its size (in bytes and for reading).
type sampleInfo struct {
	Path, File, About, Size string
	Bytes                   int
}

// describeSample says what the sample is, from the settings that made it
// and the file's size.
func describeSample() sampleInfo {
	cfg := train.Classroom()
	info := sampleInfo{Path: SamplePath, File: "classroom-gpt.safetensors",
		About: fmt.Sprintf("the training lab's classroom GPT (%d blocks of width %d, %d parameters) after %d steps of the %s recipe, its weights saved in %s",
			cfg.Layers, cfg.Width, cfg.NumParams(), sampleSteps, sampleRecipe, sampleDType)}
	if b, err := fs.ReadFile(static, "static/"+SamplePath); err == nil {
		info.Bytes = len(b)
		info.Size = fmt.Sprintf("%.0f kB", float64(len(b))/1e3)
	}
	return info
}
