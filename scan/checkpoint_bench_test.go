package scan

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"
	"time"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/tensorio"
)

// BenchmarkScanCheckpoint scans a BF16 safetensors checkpoint on disk, of
// FP8LAB_SCAN_BYTES bytes (default 64 MB; `go tool task bench-scan` asks
// for 1 GB, the goal: 500M values under the five default recipes
// for E4M3FN in at most 30 s on two cores, peak heap at most 3× the
// largest tensor in float32). The file is written first, outside the
// timer: 4096×4096 weight-like tensors (normal values, a few rows ×64),
// the last one cut to size. It reports seconds per scan, values/s and the
// peak heap in use during the scan over the largest tensor's float32
// bytes, under a soft memory limit of 2× (see below).
func BenchmarkScanCheckpoint(b *testing.B) {
	_, a, values, largest := openBenchCheckpoint(b)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	// A soft limit at 2× the largest tensor (the goal is 3×): the collector
	// keeps garbage under it, so a peak above it would be working set that
	// no collection can free. Without a limit the peak measures the
	// garbage the default GOGC lets pile up (3.4× at 1 GB).
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(base) + 8*largest))
	stop := heapPeak(5 * time.Millisecond)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Run(context.Background(), []*tensorio.Archive{a}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	peak := stop()
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(sec, "s/scan")
	b.ReportMetric(float64(values)/sec, "values/s")
	b.ReportMetric(float64(peak-min(base, peak))/float64(4*largest), "peak/largest")
}

// writeBF16Checkpoint writes about n BF16 values as 4096×4096 tensors (the
// last one shorter) and returns the number of values and of the largest
// tensor. Each row is normal with its own spread, and every 97th row is
// 64 times larger: the outlier rows real weights have.
func writeBF16Checkpoint(b *testing.B, path string, n int64) (values, largest int64) {
	const cols = 4096
	r := rand.New(rand.NewPCG(1, 2))
	var raws []tensorio.Raw
	for k := 0; values < n; k++ {
		rows := min(int64(cols), (n-values+cols-1)/cols)
		data := make([]byte, 2*rows*cols)
		for i := range rows {
			spread := math.Exp2(r.Float64()*4 - 6)
			if i%97 == 0 {
				spread *= 64
			}
			for j := range int64(cols) {
				c := fp8.BF16.Encode32(float32(r.NormFloat64() * spread))
				p := 2 * (i*cols + j)
				data[p], data[p+1] = byte(c), byte(c>>8)
			}
		}
		raws = append(raws, tensorio.Raw{Name: "layers." + strconv.Itoa(k) + ".weight", DType: "BF16",
			Shape: []int64{rows, cols}, Data: data})
		values += rows * cols
		largest = max(largest, rows*cols)
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := tensorio.WriteSafetensors(f, raws, nil); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return values, largest
}

// openBenchCheckpoint writes the benchmarks' BF16 checkpoint of
// FP8LAB_SCAN_BYTES bytes (64 MiB by default) and opens it: its path, its
// archive, its value count and its largest tensor's value count.
func openBenchCheckpoint(b *testing.B) (string, *tensorio.Archive, int64, int64) {
	b.Helper()
	size := int64(64 << 20)
	if s := os.Getenv("FP8LAB_SCAN_BYTES"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v < 2 {
			b.Fatalf("FP8LAB_SCAN_BYTES=%q: want a byte count", s)
		}
		size = v
	}
	path := filepath.Join(b.TempDir(), "checkpoint.safetensors")
	values, largest := writeBF16Checkpoint(b, path, size/2)
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	st, err := f.Stat()
	if err != nil {
		b.Fatal(err)
	}
	a, err := tensorio.Open(f, st.Size(), path, tensorio.Limits{})
	if err != nil {
		b.Fatal(err)
	}
	return path, a, values, largest
}
