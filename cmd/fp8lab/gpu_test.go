package main

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeGPU builds a temporary machine: driver, libcuda, device node and
// binary each present or not.
func fakeGPU(t *testing.T, driver, lib, device bool, binary string) gpuEnv {
	t.Helper()
	root := t.TempDir()
	mk := func(path, content string, mode os.FileMode) {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), mode))
	}
	env := gpuEnv{
		goos:        "linux",
		procVersion: filepath.Join(root, "proc/driver/nvidia/version"),
		devDir:      filepath.Join(root, "dev"),
		libDirs:     []string{filepath.Join(root, "usr/lib")},
		ldConfDir:   filepath.Join(root, "etc/ld.so.conf.d"),
		executable:  func() (string, error) { return filepath.Join(root, "bin/fp8lab"), nil },
		lookPath:    func(string) (string, error) { return "", errors.New("not on PATH") },
		getenv:      func(string) string { return "" },
	}
	require.NoError(t, os.MkdirAll(env.devDir, 0o755))
	if driver {
		mk(env.procVersion, "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65\n", 0o644)
	}
	if lib {
		// Found through ld.so.conf.d, as on distributions that keep it elsewhere.
		mk(filepath.Join(root, "opt/nvidia/lib/libcuda.so.1"), "", 0o644)
		mk(filepath.Join(env.ldConfDir, "nvidia.conf"), "# driver\n"+filepath.Join(root, "opt/nvidia/lib")+"\n", 0o644)
	}
	if device {
		mk(filepath.Join(env.devDir, "nvidia0"), "", 0o644)
		mk(filepath.Join(env.devDir, "nvidiactl"), "", 0o644)
	}
	if binary != "" {
		mk(filepath.Join(root, "bin/fp8lab-gpu"), binary, 0o755)
	}
	return env
}

func withGPU(t *testing.T, env gpuEnv) {
	t.Helper()
	saved := gpuHost
	gpuHost = env
	t.Cleanup(func() { gpuHost = saved })
}

// oneLine asserts that stderr holds exactly one line, prefixed by the command.
func oneLine(t *testing.T, stderr string) string {
	t.Helper()
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	require.Len(t, lines, 1, "exactly one line: %q", stderr)
	assert.True(t, strings.HasPrefix(lines[0], "fp8lab gpu: "), lines[0])
	return lines[0]
}

func TestGPUWithoutDriverDeviceOrBinary(t *testing.T) {
	cases := []struct {
		name                string
		driver, lib, device bool
		want                string
	}{
		{"no driver", false, true, true, "no NVIDIA driver"},
		{"no libcuda", true, false, true, "no CUDA driver library: libcuda.so.1"},
		{"no device", true, true, false, "no GPU: the NVIDIA driver is loaded"},
		{"no binary", true, true, true, "not built with -tags cuda"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			withGPU(t, fakeGPU(t, c.driver, c.lib, c.device, ""))
			code, out, errOut := cli(t, "", "gpu", "info")
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			assert.Contains(t, oneLine(t, errOut), c.want)
		})
	}
	env := fakeGPU(t, true, true, true, "")
	env.goos = "darwin"
	withGPU(t, env)
	code, _, errOut := cli(t, "", "gpu", "bench")
	assert.Equal(t, 2, code)
	assert.Contains(t, oneLine(t, errOut), "no GPU support on darwin")
}

func TestGPUOnThisMachine(t *testing.T) {
	if _, err := gpuHost.locate(); err == nil {
		t.Skip("this machine has a driver, a GPU and fp8lab-gpu")
	}
	code, out, errOut := cli(t, "", "gpu", "info")
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	line := oneLine(t, errOut)
	assert.Regexp(t, `no NVIDIA driver|no CUDA driver library|no GPU|not built with -tags cuda`, line)
}

func TestGPURunsTheCUDABinary(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs /bin/sh")
	}
	script := "#!/bin/sh\necho \"fake fp8lab-gpu: $*\"\nread line\necho \"stdin: $line\"\necho warning >&2\nexit ${FAKE_EXIT:-0}\n"
	env := fakeGPU(t, true, true, true, script)
	withGPU(t, env)
	code, out, errOut := cli(t, "hello\n", "gpu", "parity", "--short")
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, "fake fp8lab-gpu: parity --short\nstdin: hello\n", out)
	assert.Equal(t, "warning\n", errOut)

	t.Setenv("FAKE_EXIT", "1")
	code, _, errOut = cli(t, "", "gpu", "parity")
	assert.Equal(t, 1, code, "a parity mismatch is status 1")
	assert.Contains(t, errOut, "exited with status 1")
	t.Setenv("FAKE_EXIT", "2")
	code, _, _ = cli(t, "", "gpu", "info")
	assert.Equal(t, 2, code, "the binary's own status 2 passes through")

	// $FP8LAB_GPU_BIN wins over the binary next to fp8lab.
	other := filepath.Join(t.TempDir(), "other-gpu")
	require.NoError(t, os.WriteFile(other, []byte("#!/bin/sh\necho other\n"), 0o755))
	env.getenv = func(k string) string {
		if k == "FP8LAB_GPU_BIN" {
			return other
		}
		return ""
	}
	withGPU(t, env)
	t.Setenv("FAKE_EXIT", "0")
	code, out, _ = cli(t, "", "gpu", "info")
	assert.Equal(t, 0, code)
	assert.Equal(t, "other\n", out)
}

func TestGPUIsListed(t *testing.T) {
	code, out, _ := cli(t, "", "help")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "gpu")
	assert.Contains(t, out, "fp8lab-gpu")
}
