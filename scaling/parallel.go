package scaling

import (
	"runtime"
	"sync"
)

// parallelMinWork is the amount of work (elements) below which the package
// stays on one goroutine: below it goroutine overhead outweighs the gain.
const parallelMinWork = 1 << 16

// parallelFor runs fn over [0, n) in contiguous chunks whose boundaries are
// multiples of grain (so that a chunk never splits a block of rows), one
// chunk per available core. work is the total element count, used to decide
// whether going parallel pays. It returns the error of the lowest failing chunk.
func parallelFor(n, grain, work int, fn func(lo, hi int) error) error {
	if grain < 1 {
		grain = 1
	}
	units := (n + grain - 1) / grain
	workers := runtime.GOMAXPROCS(0)
	if workers > units {
		workers = units
	}
	if work < parallelMinWork || workers <= 1 {
		return fn(0, n)
	}
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo := min(units*w/workers*grain, n)
		hi := min(units*(w+1)/workers*grain, n)
		if lo >= hi {
			continue
		}
		wg.Add(1)
		go func(w, lo, hi int) {
			defer wg.Done()
			errs[w] = fn(lo, hi)
		}(w, lo, hi)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
