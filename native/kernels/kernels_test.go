package kernels

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fp8lab/fp8lab/native/kernels/ptxgen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// embedded returns the embedded PTX of a module.
func embedded(t *testing.T, m ptxgen.Module) string {
	t.Helper()
	switch m.Name {
	case "sw":
		return SoftwarePTX
	case "hw":
		return HardwarePTX
	}
	t.Fatalf("module %q has no embedded PTX", m.Name)
	return ""
}

// TestPTXHeadersMatchSources fails when a .cu or .cuh file changed after
// the PTX was generated: it needs no nvcc, so CI catches a forgotten
// `go generate ./native/kernels` everywhere.
func TestPTXHeadersMatchSources(t *testing.T) {
	require.Len(t, ptxgen.Modules, 2)
	for _, m := range ptxgen.Modules {
		ptx := embedded(t, m)
		assert.NoError(t, ptxgen.CheckHeader(".", m, []byte(ptx)), m.Name)
		assert.Contains(t, strings.SplitN(ptx, "\n", 3)[1], ptxgen.WantRelease, "generated with Debian's nvcc 11.8")
		onDisk, err := os.ReadFile(m.Name + ".ptx")
		require.NoError(t, err)
		assert.Equal(t, ptx, string(onDisk), "the embedded PTX is the file")
	}
}

func TestCheckHeaderNoticesAnEdit(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"sw.cu", "hw.cu", "quant.cuh", "common.cuh"} {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), b, 0o644))
	}
	m := ptxgen.Modules[0]
	require.NoError(t, ptxgen.CheckHeader(dir, m, []byte(SoftwarePTX)))
	f, err := os.OpenFile(filepath.Join(dir, "common.cuh"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("// an edit\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	err = ptxgen.CheckHeader(dir, m, []byte(SoftwarePTX))
	assert.ErrorIs(t, err, ptxgen.ErrStale)
	assert.Contains(t, err.Error(), "common.cuh")
	assert.ErrorIs(t, ptxgen.CheckHeader(".", m, []byte(".version 7.8\n")), ptxgen.ErrStale)
}

// TestPTXRegenerates compiles the sources again where nvcc 11.8 is on PATH
// and compares the result with the committed PTX byte for byte.
func TestPTXRegenerates(t *testing.T) {
	nvcc, err := exec.LookPath("nvcc")
	if err != nil {
		t.Skip("nvcc not on PATH: the PTX is checked against the source digests only (Debian: apt-get install nvidia-cuda-toolkit)")
	}
	release, err := ptxgen.Release(nvcc)
	require.NoError(t, err)
	if !strings.HasPrefix(release, ptxgen.WantRelease) {
		t.Skipf("nvcc %s differs from %s, which generated the committed PTX", release, ptxgen.WantRelease)
	}
	out := t.TempDir()
	require.NoError(t, ptxgen.Generate(nvcc, ".", out))
	for _, m := range ptxgen.Modules {
		got, err := os.ReadFile(filepath.Join(out, m.Name+".ptx"))
		require.NoError(t, err)
		assert.True(t, bytes.Equal(got, []byte(embedded(t, m))), "%s.ptx differs from a fresh nvcc run: run go generate ./native/kernels", m.Name)
	}
}

// TestPTXAssembles runs ptxas, where the toolkit is installed, on each
// module for the oldest and the newest architecture it targets.
func TestPTXAssembles(t *testing.T) {
	ptxas, err := exec.LookPath("ptxas")
	if err != nil {
		t.Skip("ptxas not on PATH (nvidia-cuda-toolkit)")
	}
	for _, c := range []struct{ file, arch string }{{"sw.ptx", "sm_70"}, {"sw.ptx", "sm_90"}, {"hw.ptx", "sm_90"}} {
		out, err := exec.Command(ptxas, "-arch="+c.arch, c.file, "-o", filepath.Join(t.TempDir(), "out.cubin")).CombinedOutput()
		assert.NoError(t, err, "ptxas -arch=%s %s: %s", c.arch, c.file, out)
	}
}

func TestPTXEntryPointsAndTargets(t *testing.T) {
	entry := regexp.MustCompile(`\.visible \.entry (\w+)\(`)
	names := func(ptx string) []string {
		var out []string
		for _, m := range entry.FindAllStringSubmatch(ptx, -1) {
			out = append(out, m[1])
		}
		return out
	}
	assert.ElementsMatch(t, SoftwareKernels, names(SoftwarePTX))
	assert.ElementsMatch(t, HardwareKernels, names(HardwarePTX))
	assert.Contains(t, SoftwarePTX, "\n.target sm_70\n")
	assert.Contains(t, HardwarePTX, "\n.version 7.8\n.target sm_90\n", "native/cuda rewrites this line for sm_89")
	assert.Contains(t, HardwarePTX, "cvt.rn.satfinite.e4m3x2.f32")
	assert.Contains(t, HardwarePTX, "cvt.rn.satfinite.e5m2x2.f32")
	assert.NotContains(t, SoftwarePTX, "e4m3x2", "the software module runs on any GPU")
	for _, ptx := range []string{SoftwarePTX, HardwarePTX} {
		assert.NotContains(t, ptx, ".ftz", "subnormals must not be flushed")
		assert.NotContains(t, ptx, "fma.rn.f32", "no contracted float32 multiply-adds")
		assert.NotContains(t, ptx, ".local", "no local-memory arrays in the hot loops")
	}
}
