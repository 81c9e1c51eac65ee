package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/viz"
)

// render --explain prints the scene's Go explanation, the text the site
// and the desktop app show.
func TestRenderExplain(t *testing.T) {
	code, out, errOut := cliQuick(t, "render", "hadamard", "--explain", "-p", "format=E4M3FN")
	require.Equal(t, 0, code, errOut)
	s, err := viz.New("hadamard")
	require.NoError(t, err)
	require.NoError(t, s.Set("format", "E4M3FN"))
	assert.Equal(t, strings.Join(s.Explain().Paragraphs(), "\n\n")+"\n", out)
	assert.Contains(t, out, "lowers the SQNR of all values in E4M3FN with one scale for the whole tensor from 38.4 dB to 31.5 dB")
	code, _, _ = cliQuick(t, "render", "hadamard", "--explain", "--json")
	assert.NotEqual(t, 0, code)
}
