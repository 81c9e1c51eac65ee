//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// tensorHostileCases are issue 12's tensor inputs (items 1, 4 and 11): files
// that are not files, inputs that would grow without bound, and the messages
// that were unclear.
func tensorHostileCases() []hostileCase {
	return []hostileCase{
		{name: "quantize /dev/zero", args: []string{"quantize", "/dev/zero"}, code: 1, stderr: "is a device"},
		{name: "quantize a folder", args: []string{"quantize", "{dir}"}, code: 1, stderr: "is a directory"},
		{name: "render window --tensor /dev/zero", args: []string{"render", "window", "--tensor", "/dev/zero", "-o", "x.png"}, code: 1, stderr: "is a device"},
		{name: "render window --param file=", args: []string{"render", "window", "--param", "file=/dev/zero", "-o", "x.png"}, code: 2, stderr: "no file paths"},
		{name: "npy with a 13-digit dimension", setup: writeFile("big.npy", npyHeader("(1234567890123, 4)")),
			args: []string{"quantize", "big.npy"}, code: 1, stderr: "too large"},
		{name: "npy promising more data than it holds", setup: writeFile("short.npy", npyHeader("(1024, 1024)")),
			args: []string{"quantize", "short.npy"}, code: 1, stderr: "short.npy"},
		{name: "CSV over --max-bytes", setup: writeFile("long.csv", []byte(strings.Repeat("0.5,", 1<<18)+"0.5\n")),
			args: []string{"quantize", "--max-bytes", "65536", "long.csv"}, code: 1, stderr: "long.csv"},
		{name: "CSV with an underscore", setup: writeFile("u.csv", []byte("1_0,2\n3,4\n")),
			args: []string{"quantize", "u.csv"}, code: 1, stderr: "1_0"},
		// A 10 MB one-line CSV streams within the memory limit (encoding/csv
		// took 40 bytes a byte).
		{name: "10 MB one-line CSV", setup: writeFile("wide.csv", []byte(strings.Repeat("0.25,", 2<<20)+"0.25\n")),
			args: []string{"quantize", "--json", "wide.csv"}, check: stdoutContains(`"elements"`)},
		{name: "scan /dev/zero", args: []string{"scan", "/dev/zero"}, code: 1, stderr: "is a device"},
		{name: "scan a truncated safetensors", setup: writeFile("cut.safetensors", stHeader(`{"w":{"dtype":"BF16","shape":[1024,1024],"data_offsets":[0,2097152]}}`)),
			args: []string{"scan", "cut.safetensors"}, code: 1, stderr: `cut.safetensors: scaling: parse error: safetensors tensor "w": truncated`},
		{name: "scan a safetensors header claiming 2^40 bytes", setup: writeFile("huge.safetensors", append([]byte{0, 0, 0, 0, 0, 1, 0, 0}, `{"w":{}}`...)),
			args: []string{"scan", "huge.safetensors"}, code: 1, stderr: "over the 100000000-byte limit"},
		{name: "CSV with a byte-order mark", setup: writeFile("bom.csv", []byte("\uFEFF1,2\n3,4\n")),
			args: []string{"quantize", "bom.csv"}, check: stdoutContains("E4M3FN")},
	}
}

func writeFile(name string, data []byte) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
}

// npyHeader is a version 1.0 .npy header for little-endian float32 data of
// the given shape, with no data after it.
func npyHeader(shape string) []byte {
	dict := fmt.Sprintf("{'descr': '<f4', 'fortran_order': False, 'shape': %s, }", shape)
	pad := 64 - (10+len(dict)+1)%64
	dict += strings.Repeat(" ", pad) + "\n"
	h := []byte("\x93NUMPY\x01\x00")
	h = append(h, byte(len(dict)), byte(len(dict)>>8))
	return append(h, dict...)
}

// stHeader is a safetensors file of the given header and no data.
func stHeader(h string) []byte {
	n := len(h)
	return append([]byte{byte(n), byte(n >> 8), 0, 0, 0, 0, 0, 0}, h...)
}

func stdoutContains(s string) func(*testing.T, string, []byte) {
	return func(t *testing.T, _ string, stdout []byte) {
		require.Contains(t, string(stdout), s)
	}
}
