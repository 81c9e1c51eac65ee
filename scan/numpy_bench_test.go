package scan

import (
	"bufio"
	"bytes"
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/fp8lab/fp8lab/tensorio"
)

// BenchmarkScanVsNumpy scans a generated BF16 checkpoint (as
// BenchmarkScanCheckpoint writes it; FP8LAB_SCAN_BYTES, default 64 MB)
// under the five default recipes and, in the same iteration, runs
// scripts/scan_numpy_baseline.py on it: numpy computing one recipe
// (tensorwise E4M3FN SQNR). It reports the CPU time of each (all threads;
// other processes' load inflates it far less than wall time) and their
// ratio, x-numpy: the issue-27 goal is at most 1. The numpy SQNRs must
// agree with the scan's tensorwise ones (to 1e-3 dB), so both compute the
// same thing.
func BenchmarkScanVsNumpy(b *testing.B) {
	py := testenv.NumPy(b)
	script, err := filepath.Abs(filepath.Join("..", "scripts", "scan_numpy_baseline.py"))
	if err != nil {
		b.Fatal(err)
	}
	path, a, values, _ := openBenchCheckpoint(b)
	var goCPU, npCPU time.Duration
	b.ResetTimer()
	for b.Loop() {
		c0 := testenv.ProcessCPU()
		rep, err := Run(context.Background(), []*tensorio.Archive{a}, Options{})
		goCPU += testenv.ProcessCPU() - c0
		if err != nil {
			b.Fatal(err)
		}
		cmd := exec.Command(py, script, path)
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			b.Fatal(err)
		}
		npCPU += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		checkNumpyAgrees(b, rep, out)
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(goCPU.Seconds()/n, "cpu-s/scan")
	b.ReportMetric(npCPU.Seconds()/n, "numpy-cpu-s")
	b.ReportMetric(float64(values)/(goCPU.Seconds()/n), "values/cpu-s")
	b.ReportMetric(goCPU.Seconds()/npCPU.Seconds(), "x-numpy")
}

// checkNumpyAgrees compares the baseline's lines ("name sqnr") with the
// report's tensorwise SQNRs.
func checkNumpyAgrees(b *testing.B, rep *Report, out []byte) {
	want := map[string]float64{}
	for _, t := range rep.Tensors {
		want[t.Name] = t.Results[0].SQNR
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	lines := 0
	for sc.Scan() {
		name, v, _ := strings.Cut(sc.Text(), " ")
		got, err := strconv.ParseFloat(v, 64)
		if err != nil || math.Abs(got-want[name]) > 1e-3 {
			b.Fatalf("numpy's tensorwise SQNR of %s is %s dB, the scan's %v", name, v, want[name])
		}
		lines++
	}
	if lines != len(rep.Tensors) {
		b.Fatalf("numpy measured %d tensors, the scan %d", lines, len(rep.Tensors))
	}
}
