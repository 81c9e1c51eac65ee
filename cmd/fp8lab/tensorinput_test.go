package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cliQuick runs the CLI and fails if it has not returned within a few
// seconds: the inputs below used to be read until memory ran out.
func cliQuick(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		var out, errOut bytes.Buffer
		code := run(args, strings.NewReader(""), &out, &errOut)
		done <- result{code, out.String(), errOut.String()}
	}()
	select {
	case r := <-done:
		return r.code, r.out, r.err
	case <-time.After(20 * time.Second):
		t.Fatalf("fp8lab %s did not return: unbounded read", strings.Join(args, " "))
		return 0, "", ""
	}
}

// Issue 12 items 4 and 11: devices and directories are refused at once,
// with a message that says what they are.
func TestTensorInputNotAFile(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := cliQuick(t, "quantize", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "is a directory")
	assert.NotContains(t, errOut, "parse error")
	if _, err := os.Stat("/dev/zero"); err == nil {
		code, _, errOut = cliQuick(t, "quantize", "/dev/zero")
		assert.Equal(t, 1, code)
		assert.Contains(t, errOut, "device")
		code, _, errOut = cliQuick(t, "render", "window", "--tensor", "/dev/zero", "--json")
		assert.Equal(t, 1, code)
		assert.Contains(t, errOut, "device")
	}
	// Scenes take no paths: --param file is refused with a pointer to
	// --tensor, not read.
	code, _, errOut = cliQuick(t, "render", "window", "--param", "file=/dev/zero", "--json")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--tensor")
}

// Issue 12 item 4: input sizes are capped, and --max-bytes moves the cap.
func TestTensorInputMaxBytes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.csv")
	require.NoError(t, os.WriteFile(path, []byte(strings.Repeat("1.5,", 999)+"2\n"), 0o644))
	code, _, errOut := cliQuick(t, "quantize", "--max-bytes", "1000", path)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "--max-bytes")
	code, out, errOut := cliQuick(t, "quantize", "--max-bytes", "4000", path)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "1×1000")
}

// The window scene shows a tensor given with --tensor; the format is found
// from the content, whatever the file is called.
func TestRenderWindowTensor(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.dat")
	require.NoError(t, os.WriteFile(path, []byte("1,2,3\n4,5,1000\n"), 0o644))
	code, out, errOut := cliQuick(t, "render", "window", "--tensor", path, "--json")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `"amax": "1000"`)
	assert.Contains(t, out, `"tensor": "loaded"`)
	npy := writeNPY(t, 1, 2, []float32{3, -7})
	code, out, errOut = cliQuick(t, "render", "window", "--tensor", npy, "--param", "magnitude=1", "--json")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `"amax": "14"`)
	code, _, errOut = cliQuick(t, "render", "range", "--tensor", path, "--json")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "window")
}

// Issue 12 item 11: one number grammar: what encode rejects, a CSV
// rejects too, and hex floats are accepted by both.
func TestOneNumberGrammar(t *testing.T) {
	dir := t.TempDir()
	for _, v := range []string{"1_000", "1_0", "0x1_0p0"} {
		code, _, _ := cli(t, "", "encode", "E4M3FN", v)
		assert.NotEqual(t, 0, code, "encode %s", v)
		path := filepath.Join(dir, "g.csv")
		require.NoError(t, os.WriteFile(path, []byte("1,2\n3,"+v+"\n"), 0o644))
		code, _, errOut := cli(t, "", "quantize", path)
		assert.Equal(t, 1, code, "csv %s", v)
		assert.Contains(t, errOut, "not a number", v)
	}
	code, _, errOut := cli(t, "", "encode", "E4M3FN", "0x1p-3")
	assert.Equal(t, 0, code, errOut)
	path := filepath.Join(dir, "h.csv")
	require.NoError(t, os.WriteFile(path, []byte("0x1p-3,2\n"), 0o644))
	code, _, errOut = cli(t, "", "quantize", path)
	assert.Equal(t, 0, code, errOut)
}
