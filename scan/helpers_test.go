package scan

import (
	"regexp"
	"runtime"
	"time"
)

func mustRegexp(s string) *regexp.Regexp { return regexp.MustCompile(s) }

// keepNames lists the tensors of s.KeepBF16.
func keepNames(s Summary) []string {
	var out []string
	for _, k := range s.KeepBF16 {
		out = append(out, k.Tensor)
	}
	return out
}

// heapPeak samples the heap in use every interval until stop is called,
// which returns the largest value seen: a test's view of a scan's peak
// memory (runtime/metrics has no high-water mark).
func heapPeak(interval time.Duration) (stop func() uint64) {
	var peak uint64 // written by the sampler only; read after it ends
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(interval):
			}
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse)
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		return peak
	}
}
