package main

import (
	"bytes"
	"testing"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFormatsTable(t *testing.T) {
	var out bytes.Buffer
	rows, err := run(&out, 0.3952)
	require.NoError(t, err)
	byName := map[string]row{}
	for _, r := range rows {
		byName[r.Info.Name] = r
	}
	require.Contains(t, byName, "E4M3FN")
	require.Contains(t, byName, "E5M2")

	// The facts of DESIGN.md §2, which popular articles get wrong.
	assert.Equal(t, 448.0, byName["E4M3FN"].Info.Max)
	assert.Equal(t, 57344.0, byName["E5M2"].Info.Max)
	assert.Equal(t, 240.0, byName["E4M3FNUZ"].Info.Max)
	assert.Equal(t, 6.0, byName["E2M1"].Info.Max)

	// 0.3952 lies in [0.25, 0.5): E4M3 spacing 1/32 there, E5M2 1/16,
	// E2M1 0.5. Nearest: 13/32, 6/16, 0.5.
	assert.Equal(t, 13.0/32, byName["E4M3FN"].Value)
	assert.Equal(t, 6.0/16, byName["E5M2"].Value)
	assert.Equal(t, 0.5, byName["E2M1"].Value)
	// More mantissa bits, smaller error.
	assert.Less(t, byName["E3M4"].RelError, byName["E4M3FN"].RelError)
	assert.Less(t, byName["E4M3FN"].RelError, byName["E5M2"].RelError)
	assert.Contains(t, out.String(), "E4M3FN")
	assert.Contains(t, out.String(), "0.40625")
}

// TestReadmeShowsTheRealOutput keeps the README's output block equal to what
// the program prints, so a new preset cannot leave it stale.
func TestReadmeShowsTheRealOutput(t *testing.T) {
	var buf bytes.Buffer
	_, err := run(&buf, 0.3952)
	require.NoError(t, err)
	testenv.ReadmeOutput(t, "go run ./examples/formats ("+testenv.Step("Add a format", 4)+")", buf.String())
}
