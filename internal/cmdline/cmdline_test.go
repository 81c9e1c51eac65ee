package cmdline

import (
	"bytes"
	"errors"
	"flag"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStatus(t *testing.T) {
	const p Program = "prog"
	for _, c := range []struct {
		err    error
		status int
		out    string
	}{
		{nil, 0, ""},
		{flag.ErrHelp, 0, ""},
		{ErrFlags, 2, ""},
		{Usagef("needs %d FILE", 1), 2, "prog cmd: needs 1 FILE\n"},
		{errors.New("boom"), 1, "prog cmd: boom\n"},
	} {
		var stderr bytes.Buffer
		assert.Equal(t, c.status, p.Status(&stderr, "cmd", c.err), "%v", c.err)
		assert.Equal(t, c.out, stderr.String(), "%v", c.err)
	}
}

func TestFlagsAndParse(t *testing.T) {
	var stderr bytes.Buffer
	fs := Program("prog").Flags("cmd", "[--n N]", &stderr)
	n := fs.Int("n", 1, "how many")
	require.NoError(t, Parse(fs, []string{"--n", "3"}))
	assert.Equal(t, 3, *n)
	assert.Empty(t, stderr.String())

	assert.ErrorIs(t, Parse(fs, []string{"-h"}), flag.ErrHelp)
	assert.Contains(t, stderr.String(), "Usage: prog cmd [--n N]\n")
	assert.Contains(t, stderr.String(), "how many")

	stderr.Reset()
	assert.ErrorIs(t, Parse(fs, []string{"--bad"}), ErrFlags)
	assert.Contains(t, stderr.String(), "flag provided but not defined")

	err := Parse(fs, []string{"extra"})
	assert.ErrorIs(t, err, ErrUsage)
	assert.EqualError(t, err, `usage: unexpected argument "extra"`)
}

func TestWriteJSON(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, WriteJSON(&out, map[string]int{"a": 1}))
	assert.Equal(t, "{\n  \"a\": 1\n}\n", out.String())
	assert.Error(t, WriteJSON(&out, math.NaN()))
}
