package site_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestBrowserIdleCPU measures the CPU time that headless Chromium (all its
// processes: browser, renderer, GPU) spends on a scene page while nothing
// changes, over 10 s, and fails above 5% of a core. It runs with the
// browser benchmark (FP8LAB_BROWSER_BENCH=1), on Linux (it reads /proc):
//
//	FP8LAB_BROWSER_BENCH=1 go test ./site -run TestBrowserIdleCPU -v -count=1
func TestBrowserIdleCPU(t *testing.T) {
	if os.Getenv("FP8LAB_BROWSER_BENCH") != "1" {
		t.Skip("set FP8LAB_BROWSER_BENCH=1 to run the browser benchmark")
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
	tab := newTab(t)
	proc := chromedp.FromContext(tab.ctx).Browser.Process()
	require.NotNil(t, proc, "the browser's process")
	var report strings.Builder
	const span = 10 * time.Second
	shares := map[string]float64{}
	for _, name := range []string{"explorer", "granularity", "dither"} {
		openScene(t, tab, 1366, 768, 1, name, preconditions[name]["*"]...) // idle: animations off
		// Let the last frame and the page settle (V8 compiles the module's
		// hot functions again in the background for a few seconds).
		time.Sleep(5 * time.Second)
		f0 := eval[int](t, tab, liveAPI+`.then(a => a.frameCount())`)
		c0 := treeCPU(t, proc.Pid)
		time.Sleep(span)
		c1 := treeCPU(t, proc.Pid)
		f1 := eval[int](t, tab, liveAPI+`.then(a => a.frameCount())`)
		share := (c1 - c0).Seconds() / span.Seconds()
		fmt.Fprintf(&report, "idle CPU, %s scene page (1366x768), all Chromium processes over %s: %.1f%% of a core, %d frames drawn\n",
			name, span, 100*share, f1-f0)
		shares[name] = share
	}
	// For reference: the same browser on an empty page.
	tab.do(t, chromedp.Navigate("about:blank"))
	time.Sleep(5 * time.Second)
	c0 := treeCPU(t, proc.Pid)
	time.Sleep(span)
	blank := (treeCPU(t, proc.Pid) - c0).Seconds() / span.Seconds()
	fmt.Fprintf(&report, "idle CPU, about:blank, all Chromium processes over %s: %.1f%% of a core\n", span, 100*blank)
	t.Log("\n" + report.String())
	for name, share := range shares {
		require.LessOrEqual(t, share, 0.05, "%s: idle CPU %.1f%% of a core", name, 100*share)
	}
	if out := os.Getenv("FP8LAB_BENCH_OUT"); out != "" {
		f, err := os.OpenFile(out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		require.NoError(t, err)
		_, err = f.WriteString(report.String())
		require.NoError(t, err)
		require.NoError(t, f.Close())
	}
}

// treeCPU returns the user and system CPU time of process pid and all its
// descendants, from /proc (clock ticks of 1/100 s, Linux's USER_HZ).
func treeCPU(t *testing.T, pid int) time.Duration {
	t.Helper()
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	require.NoError(t, err)
	parent := map[int]int{}
	ticks := map[int]int64{}
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue // the process ended
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:]) // state ppid ... utime(12) stime(13)
		if len(f) < 13 {
			continue
		}
		p, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
		pp, _ := strconv.Atoi(f[1])
		u, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		parent[p], ticks[p] = pp, u+st
	}
	var total int64
	for p, n := range ticks {
		for q := p; q > 1; q = parent[q] {
			if q == pid {
				total += n
				break
			}
		}
	}
	return time.Duration(total) * 10 * time.Millisecond
}
