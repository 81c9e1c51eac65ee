package fp8

import (
	"math"
	"runtime"
	"sync"
)

// chunkBits sizes the chunks of consecutive float32 bit patterns that the
// exhaustive tests hand their workers: 2^20 patterns, 2^12 chunks in all.
const chunkBits = 20

// eachFloat32Chunk runs a check on chunks 0, step, 2·step, … of the 2^32
// float32 bit patterns (chunk c holds the patterns c<<chunkBits onward, in
// order), on one worker per GOMAXPROCS. Each worker gets its own check from
// newCheck, so that a check can keep its scratch buffers. No chunk is handed
// out after the first failure; it returns that failure's message, or ""
// when every chunk checked passed.
func eachFloat32Chunk(step int, newCheck func() func(c int, src []float32) string) string {
	var (
		mu      sync.Mutex
		failure string
		wg      sync.WaitGroup
	)
	failed := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return failure != ""
	}
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			check := newCheck()
			src := make([]float32, 1<<chunkBits)
			for c := range next {
				base := uint32(c) << chunkBits
				for i := range src {
					src[i] = math.Float32frombits(base + uint32(i))
				}
				if msg := check(c, src); msg != "" {
					mu.Lock()
					if failure == "" {
						failure = msg
					}
					mu.Unlock()
				}
			}
		}()
	}
	for c := 0; c < 1<<(32-chunkBits) && !failed(); c += step {
		next <- c
	}
	close(next)
	wg.Wait()
	return failure
}
