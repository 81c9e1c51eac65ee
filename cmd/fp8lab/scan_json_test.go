package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/internal/cmdline"
	"github.com/fp8lab/fp8lab/scan"
)

// TestWriteScanJSONIsWriteJSON: the report written one tensor at a time is
// what cmdline.WriteJSON writes, byte for byte: with tensors and without,
// interrupted, and with strings JSON escapes (a quote, markup, control
// characters, the text of the tensors field itself).
func TestWriteScanJSONIsWriteJSON(t *testing.T) {
	_, rep := scanFixture(t)
	rep.Tensors[0].Name = "a\"<b>&\x1b]0;x\a\u2028" + `"tensors": []`
	rep.Recipes = append(rep.Recipes, `"tensors": []`)
	interrupted := *rep
	interrupted.Tensors, interrupted.Interrupted = rep.Tensors[:1], true
	skipped := &scan.Report{MinSQNR: 15, Tensors: []scan.TensorStats{{Name: "ids", DType: "I64", Skipped: "dtype I64 is not scanned"}}}
	for name, r := range map[string]*scan.Report{
		"two tensors":   rep,
		"interrupted":   &interrupted,
		"a skipped one": skipped,
		"no tensors":    {MinSQNR: 15, Tensors: []scan.TensorStats{}},
		"a zero report": {},
		"the library's": func() *scan.Report { _, r := scanFixture(t); return r }(),
	} {
		var want, got bytes.Buffer
		require.NoError(t, cmdline.WriteJSON(&want, r))
		require.NoError(t, writeScanJSON(&got, r))
		assert.Equal(t, want.String(), got.String(), name)
	}
}
