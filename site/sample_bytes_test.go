// Training is bit for bit reproducible where the train package's digests
// hold: amd64 below GOAMD64=v3 (elsewhere fused multiply-adds round
// otherwise).

//go:build amd64 && !amd64.v3

package site

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var updateSample = flag.Bool("update-sample", false, "write static/"+SamplePath+" (go tool task sample-checkpoint)")

// The sample checkpoint in the site is what its settings make.
func TestSampleBytes(t *testing.T) {
	made := makeSample(t)
	if *updateSample {
		require.NoError(t, os.WriteFile(filepath.Join("static", filepath.FromSlash(SamplePath)), made, 0o644))
		return
	}
	have, err := fs.ReadFile(static, "static/"+SamplePath)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(made, have), "static/%s is not what its settings make: run go tool task sample-checkpoint", SamplePath)
}
