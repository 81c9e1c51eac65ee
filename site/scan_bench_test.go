package site_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/scan"
	"github.com/fp8lab/fp8lab/tensorio"
)

// TestBrowserScanBench scans a generated 100 MB BF16 checkpoint (24
// tensors of 2048×1024) on the Scan page under the five default recipes for
// E4M3FN and prints, for BENCHMARKS.md, the time from picking the file to
// the report, the longest gap between animation frames of the page while
// it ran (the page's main thread: the scan runs in a Web Worker) and the
// longest task the browser reports, against native Go scanning the same
// file. Run it with FP8LAB_BROWSER_BENCH=1 (the goal: at most 60 s
// on the 2-core machine, the page never frozen).
func TestBrowserScanBench(t *testing.T) {
	if os.Getenv("FP8LAB_BROWSER_BENCH") != "1" {
		t.Skip("set FP8LAB_BROWSER_BENCH=1 to run the browser benchmark")
	}
	n, rows, cols := 24, 2048, 1024
	if s := os.Getenv("FP8LAB_SCAN_BENCH_TENSORS"); s != "" { // a smaller run while developing
		var err error
		n, err = strconv.Atoi(s)
		require.NoError(t, err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "bench.safetensors")
	writeCheckpoint(t, path, n, rows, cols, true)
	st, err := os.Stat(path)
	require.NoError(t, err)

	load, _ := exec.Command("uptime").Output()
	t.Logf("scan benchmark: %s, %s/%s, %d CPUs, %s; load: %s", time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version(), strings.TrimSpace(string(load)))
	t.Logf("file: %d tensors of %d×%d BF16, %.1f MB", n, rows, cols, float64(st.Size())/1e6)

	tab := newTab(t)
	openScanPage(t, tab, 1366, 768)
	// Record the page's animation frames and long tasks: first for 5 s with
	// nothing to do (on a loaded machine frames are late anyway), then while
	// it scans.
	eval[bool](t, tab, `(() => {
		const g = window.fp8labGaps = {gaps: [], last: performance.now(), tasks: [], since: performance.now()};
		const frame = (now) => { g.gaps.push([g.last, now - g.last]); g.last = now; requestAnimationFrame(frame); };
		requestAnimationFrame(frame);
		new PerformanceObserver((list) => { for (const e of list.getEntries()) g.tasks.push([e.startTime, e.duration]); })
			.observe({type: "longtask", buffered: false});
		return true;
	})()`)
	type gaps struct {
		Max, P99, Task float64
		Frames, Over   int
		Gaps, Tasks    string // those over 250 ms, as start+duration in ms from the start of the period
	}
	// take summarizes the frames and tasks recorded since the last call.
	take := func() gaps {
		return eval[gaps](t, tab, `(() => {
			const g = fp8labGaps, s = g.gaps.map((x) => x[1]).sort((a, b) => a - b);
			const late = (list) => list.filter((x) => x[1] > 250).map((x) => Math.round(x[0] - g.since) + "+" + Math.round(x[1]));
			const r = {Max: s[s.length - 1] || 0, P99: s[Math.floor(0.99 * (s.length - 1))] || 0, Frames: s.length,
				Over: s.filter((x) => x > 100).length, Task: Math.max(0, ...g.tasks.map((x) => x[1])),
				Gaps: late(g.gaps).join(" "), Tasks: late(g.tasks).join(" ")};
			g.gaps = []; g.tasks = []; g.since = performance.now();
			return r;
		})()`)
	}
	time.Sleep(5 * time.Second)
	idle := take()
	proc := chromedp.FromContext(tab.ctx).Browser.Process()
	require.NotNil(t, proc, "the browser's process")
	cpu0 := treeCPU(t, proc.Pid)
	start := time.Now()
	require.Equal(t, "done", scanInPage(t, tab, path, "done", "failed", "cancelled"))
	wall := time.Since(start)
	busy := take()
	browserCPU := treeCPU(t, proc.Pid) - cpu0
	pageMs, err := strconv.ParseFloat(eval[string](t, tab, `document.body.dataset.scanMs`), 64)
	require.NoError(t, err)
	t.Logf("browser: scanned in %.1f s (page's own clock; %.1f s polled, report shown), %.1f MB/s; CPU time of all Chromium processes %.1f s",
		pageMs/1000, wall.Seconds(), float64(st.Size())/1e6/(pageMs/1000), browserCPU.Seconds())
	for _, c := range []struct {
		what string
		g    gaps
	}{{"idle page, 5 s", idle}, {"during the scan", busy}} {
		t.Logf("  %-16s %5d frames: longest gap %4.0f ms, 99th percentile %3.0f ms, %3d gaps over 100 ms; longest task %4.0f ms",
			c.what, c.g.Frames, c.g.Max, c.g.P99, c.g.Over, c.g.Task)
		t.Logf("  %-16s gaps over 250 ms at (ms from the start) %s; tasks %s", "", c.g.Gaps, c.g.Tasks)
	}

	for _, procs := range []int{1, runtime.NumCPU()} {
		prev := runtime.GOMAXPROCS(procs)
		as, closeFiles, err := tensorio.OpenFile(path, tensorio.Limits{})
		require.NoError(t, err)
		c0 := processCPU(t)
		t0 := time.Now()
		_, err = scan.Run(context.Background(), as, scan.Options{})
		d, cpu := time.Since(t0), processCPU(t)-c0
		closeFiles()
		runtime.GOMAXPROCS(prev)
		require.NoError(t, err)
		t.Logf("native Go, GOMAXPROCS=%d: %.1f s, CPU time %.1f s", procs, d.Seconds(), cpu.Seconds())
	}
	fmt.Println() // keep the log lines above apart from go test's summary
}

// processCPU is the user and system CPU time of this process so far.
func processCPU(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	require.NoError(t, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
