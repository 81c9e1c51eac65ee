package parity

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/native"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/tensorio"
)

// oracleScript is the torch oracle, relative to this package.
const oracleScript = "../../scripts/gpu/torch_oracle.py"

// dumpCPU dumps the CPU backend into a new temporary directory.
func dumpCPU(t *testing.T) (string, *DumpManifest) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "dump")
	m, err := Dump(native.NewCPU(), dir, DumpConfig{Seed: 1})
	require.NoError(t, err)
	return dir, m
}

func TestDumpCPU(t *testing.T) {
	dir, m := dumpCPU(t)
	require.NoError(t, m.Err())
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	require.NoError(t, err)
	var back DumpManifest
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, *m, back)
	assert.Zero(t, m.Skipped+m.Failed, "the CPU implements every case")
	assert.Equal(t, len(m.Cases), m.OK)

	ops := map[string]int{}
	files := map[string]bool{}
	for _, c := range m.Cases {
		ops[c.Op]++
		require.NotEmpty(t, c.Files, c.Name)
		for role, name := range c.Files {
			files[name] = true
			tt, err := tensorio.One(tensorio.ReadFile(filepath.Join(dir, name), tensorio.Limits{}))
			require.NoError(t, err, "%s: %s", c.Name, role)
			if role == "codes" && c.Op == "quantize" {
				assert.Equal(t, c.Rows*c.Cols, tt.Len(), c.Name)
			}
		}
	}
	for _, op := range []string{"amax", "quantize", "dequantize", "fwht", "scaled_matmul", "matmul_bf16"} {
		assert.Positive(t, ops[op], op)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, len(files)+1, "every file is named by the manifest, plus manifest.json")
	t.Logf("%d cases, %d .npy files, %d bytes", len(m.Cases), len(files), m.Bytes)
}

// skipper is a backend that answers ErrUnsupported for the FWHT and fails
// the BF16 product.
type skipper struct{ *native.CPU }

func (skipper) FWHT([]float32, int) error {
	return fmt.Errorf("%w: no FWHT here", native.ErrUnsupported)
}

func (skipper) MatMulBF16(a, b *scaling.Tensor, out native.Output) (*scaling.Tensor, error) {
	return nil, fmt.Errorf("%w: out of memory", native.ErrDevice)
}

func TestDumpSkipsAndFailures(t *testing.T) {
	m, err := Dump(skipper{native.NewCPU()}, t.TempDir(), DumpConfig{Seed: 2})
	require.NoError(t, err)
	for _, c := range m.Cases {
		switch c.Op {
		case "fwht":
			assert.Equal(t, "skipped", c.Status)
			assert.Contains(t, c.Reason, "no FWHT here")
			assert.NotContains(t, c.Files, "out", "a skipped case has no output")
		case "matmul_bf16":
			assert.Equal(t, "failed", c.Status)
		default:
			assert.Equal(t, "ok", c.Status, c.Name)
		}
	}
	assert.Positive(t, m.Skipped)
	assert.ErrorContains(t, m.Err(), "out of memory")
}

func TestDumpRefusesDirectory(t *testing.T) {
	root := t.TempDir()
	full := filepath.Join(root, "full")
	require.NoError(t, os.Mkdir(full, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(full, "x"), nil, 0o644))
	file := filepath.Join(root, "file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	linkFile := filepath.Join(root, "link-file")
	require.NoError(t, os.Symlink(file, linkFile))
	dangling := filepath.Join(root, "dangling")
	require.NoError(t, os.Symlink(filepath.Join(root, "nothing"), dangling))
	for dir, want := range map[string]string{full: "not empty", file: "is a file", linkFile: "is a file",
		dangling: "symlink to nothing", "": "no dump directory", "/dev/null": "device"} {
		_, err := Dump(native.NewCPU(), dir, DumpConfig{})
		assert.ErrorIs(t, err, native.ErrInvalidArgument, dir)
		assert.ErrorContains(t, err, want, dir)
	}
	entries, err := os.ReadDir(full)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "a refused directory is left alone")
	_, err = Dump(nil, t.TempDir(), DumpConfig{})
	assert.ErrorIs(t, err, native.ErrInvalidArgument)

	// An empty directory, and a symlink to one, are accepted.
	empty := filepath.Join(root, "empty")
	require.NoError(t, os.Mkdir(empty, 0o755))
	linkDir := filepath.Join(root, "link-dir")
	require.NoError(t, os.Symlink(empty, linkDir))
	_, err = Dump(native.NewCPU(), linkDir, DumpConfig{})
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(empty, "manifest.json"))
	assert.NoError(t, err)
}

// python returns /usr/bin/python3 when it exists with numpy, or skips.
func python(t *testing.T) string {
	t.Helper()
	const py = "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		t.Skipf("%s not found: the torch oracle is not run", py)
	}
	if out, err := exec.Command(py, "-c", "import numpy").CombinedOutput(); err != nil {
		t.Skipf("%s has no numpy (%v: %s): the torch oracle is not run; apt-get install python3-numpy", py, err, bytes.TrimSpace(out))
	}
	return py
}

// oracle runs the torch oracle with args and returns its output and exit status.
func oracle(t *testing.T, py string, args ...string) (string, int) {
	t.Helper()
	out, err := exec.Command(py, append([]string{oracleScript}, args...)...).CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return string(out), ee.ExitCode()
	}
	require.NoError(t, err, string(out))
	return string(out), 0
}

func TestOracleCompiles(t *testing.T) {
	const py = "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		t.Skipf("%s not found", py)
	}
	cfile := filepath.Join(t.TempDir(), "oracle.pyc")
	out, err := exec.Command(py, "-c", "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)",
		oracleScript, cfile).CombinedOutput()
	require.NoError(t, err, string(out))
}

// TestOracleOnCPUDump checks the CPU backend's dump with the oracle's numpy
// checks, then breaks the dump and checks that the oracle notices.
func TestOracleOnCPUDump(t *testing.T) {
	py := python(t)
	dir, m := dumpCPU(t)
	out, code := oracle(t, py, "--no-torch", dir)
	require.Equal(t, 0, code, out)
	assert.Contains(t, out, fmt.Sprintf("torch oracle: %d cases ok, 0 failed, 0 skipped", len(m.Cases)))
	assert.Contains(t, out, "--no-torch leaves out")

	// Flip the last code of a nearest-rounding quantization.
	var victim *DumpCase
	for i, c := range m.Cases {
		if c.Op == "quantize" && c.Rounding == "nearest-even" && c.ScaleSource == "rule" {
			victim = &m.Cases[i]
			break
		}
	}
	require.NotNil(t, victim)
	path := filepath.Join(dir, victim.Files["codes"])
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	b[len(b)-1] ^= 1
	require.NoError(t, os.WriteFile(path, b, 0o644))
	out, code = oracle(t, py, "--no-torch", dir)
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "FAIL "+victim.Name)
	assert.Contains(t, out, fmt.Sprintf("torch oracle: %d cases ok, 1 failed, 0 skipped", len(m.Cases)-1))

	// Bad input: no manifest; and no torch without --no-torch.
	require.NoError(t, os.Remove(filepath.Join(dir, "manifest.json")))
	out, code = oracle(t, py, "--no-torch", dir)
	assert.Equal(t, 2, code, out)
	if exec.Command(py, "-c", "import torch").Run() != nil {
		out, code = oracle(t, py, dir)
		assert.Equal(t, 2, code, out)
		assert.Contains(t, out, "--no-torch")
	}
}
