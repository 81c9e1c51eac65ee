package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"

	"github.com/fp8lab/fp8lab/internal/cmdline"
)

func init() {
	commands["gpu"] = command{"run the CUDA build (fp8lab-gpu): info, parity, bench, accum, linear, dump", runGPU}
}

// gpuEnv is what `fp8lab gpu` looks at before it starts fp8lab-gpu. The
// CLI never links CUDA code (gorgonia.org/cu ends any process that imports
// it on a machine without a GPU); it checks for the driver and a device
// with plain file lookups and runs the separate binary built with
// -tags cuda. Tests point the paths at a temporary tree.
type gpuEnv struct {
	goos        string
	procVersion string   // the NVIDIA kernel driver's /proc/driver/nvidia/version
	devDir      string   // /dev: nvidia0, nvidia1, ... or dxg (WSL 2)
	libDirs     []string // folders searched for libcuda.so.1
	ldConfDir   string   // /etc/ld.so.conf.d: more library folders
	executable  func() (string, error)
	lookPath    func(string) (string, error)
	getenv      func(string) string
}

// hostGPUEnv is the environment of this machine.
func hostGPUEnv() gpuEnv {
	return gpuEnv{
		goos:        runtime.GOOS,
		procVersion: "/proc/driver/nvidia/version",
		devDir:      "/dev",
		libDirs: []string{"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib",
			"/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu", "/lib64", "/lib", "/usr/local/cuda/lib64",
			"/usr/local/cuda/compat", "/usr/lib/wsl/lib"},
		ldConfDir:  "/etc/ld.so.conf.d",
		executable: os.Executable,
		lookPath:   exec.LookPath,
		getenv:     os.Getenv,
	}
}

// gpuHost is replaced by tests.
var gpuHost = hostGPUEnv()

var nvidiaDevice = regexp.MustCompile(`^nvidia[0-9]+$`)

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// findLibcuda returns the path of libcuda.so.1, or "" with the folders searched.
func (e gpuEnv) findLibcuda() (string, []string) {
	dirs := append([]string(nil), e.libDirs...)
	for _, d := range strings.Split(e.getenv("LD_LIBRARY_PATH"), ":") {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	if confs, _ := filepath.Glob(filepath.Join(e.ldConfDir, "*.conf")); len(confs) > 0 {
		for _, c := range confs {
			f, err := os.Open(c)
			if err != nil {
				continue
			}
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if line := strings.TrimSpace(sc.Text()); strings.HasPrefix(line, "/") {
					dirs = append(dirs, line)
				}
			}
			f.Close()
		}
	}
	for _, d := range dirs {
		if p := filepath.Join(d, "libcuda.so.1"); exists(p) {
			return p, dirs
		}
	}
	return "", dirs
}

// hasDevice reports whether a GPU device node exists.
func (e gpuEnv) hasDevice() bool {
	entries, err := os.ReadDir(e.devDir)
	if err != nil {
		return false
	}
	for _, ent := range entries {
		if nvidiaDevice.MatchString(ent.Name()) || ent.Name() == "dxg" {
			return true
		}
	}
	return false
}

// findBinary returns the fp8lab-gpu binary: $FP8LAB_GPU_BIN, next to this
// executable, or on PATH.
func (e gpuEnv) findBinary() string {
	if p := e.getenv("FP8LAB_GPU_BIN"); p != "" && exists(p) {
		return p
	}
	if exe, err := e.executable(); err == nil {
		if p := filepath.Join(filepath.Dir(exe), "fp8lab-gpu"); exists(p) {
			return p
		}
	}
	if p, err := e.lookPath("fp8lab-gpu"); err == nil {
		return p
	}
	return ""
}

// locate returns the binary to run, or the one line that says why the GPU
// path cannot run here.
func (e gpuEnv) locate() (string, error) {
	if e.goos != "linux" {
		return "", cmdline.Usagef("no GPU support on %s: the CUDA build (fp8lab-gpu) runs on Linux with an NVIDIA driver", e.goos)
	}
	wsl := exists(filepath.Join(e.devDir, "dxg"))
	if !exists(e.procVersion) && !wsl {
		return "", cmdline.Usagef("no NVIDIA driver: %s does not exist (install the NVIDIA driver to use a GPU; everything else runs on the CPU)", e.procVersion)
	}
	if lib, dirs := e.findLibcuda(); lib == "" {
		return "", cmdline.Usagef("no CUDA driver library: libcuda.so.1 is in none of %s", strings.Join(dirs, ", "))
	}
	if !e.hasDevice() {
		return "", cmdline.Usagef("no GPU: the NVIDIA driver is loaded but %s has no nvidia0 device", e.devDir)
	}
	bin := e.findBinary()
	if bin == "" {
		return "", cmdline.Usagef("not built with -tags cuda: no fp8lab-gpu next to fp8lab, in $FP8LAB_GPU_BIN or on PATH (build it: go build -tags cuda ./cmd/fp8lab-gpu, headers from scripts/cuda-headers.sh)")
	}
	return bin, nil
}

// runGPU checks for a driver and a device, then runs fp8lab-gpu with the
// arguments; without them it prints one line and exits with status 2.
func runGPU(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	bin, err := gpuHost.locate()
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &exit) && exit.ExitCode() == 2:
		return cmdline.Usagef("%s exited with status 2", bin)
	case errors.As(err, &exit):
		return fmt.Errorf("%s exited with status %d", bin, exit.ExitCode())
	}
	return fmt.Errorf("running %s: %w", bin, err)
}
