// Package parallel is fp8lab's one parallel-for: it splits a loop over
// [0, n) into contiguous chunks, runs them on up to GOMAXPROCS goroutines,
// and turns a panic in any chunk into an error instead of a crashed process.
//
// # The one rule
//
// A loop's work is the number of elements it touches (for a loop over rows,
// rows × columns; for a matrix product, M·N·K). A loop with less than
// MinWork elements of work runs inline, on the calling goroutine, as one
// call fn(0, n): below that size starting goroutines costs more than it
// saves. A larger loop runs on Workers(work) goroutines (the caller's among
// them), at most GOMAXPROCS and never fewer than MinWork/2 elements each.
// It is cut into contiguous chunks of equal size (the last may be shorter),
// up to chunksPerWorker per worker but none under MinWork/2 elements, and
// each worker claims the next chunk when it finishes one: a core that other
// processes keep busy does fewer chunks instead of holding up the loop.
//
// Every caller's result must not depend on how the loop is split: chunks
// run in any order, at the same time, and their number depends on the
// machine.
//
// The package imports only the standard library and builds for every
// GOOS, js included, so that fp8, the lowest layer, can use it.
package parallel

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
)

// MinWork is the threshold of the one rule: a loop with fewer elements of
// work than this runs inline, and a parallel loop gives each goroutine at
// least MinWork/2 elements.
const MinWork = 1 << 15

// ErrPanic is wrapped by the error a loop returns when fn panicked. The
// error's text is "parallel: worker panic: " followed by the panic value and
// the panicking goroutine's innermost frames; a panic value that is an error
// is wrapped too, so errors.As finds it (a runtime.Error, say).
var ErrPanic = errors.New("parallel: worker panic")

// For runs fn over the elements [0, n), split as the package's rule says:
// inline below MinWork elements, otherwise in contiguous chunks claimed by
// the workers as they go. The chunks cover [0, n) exactly once; fn is not
// called when n <= 0. It returns the error of the lowest failing chunk, a
// panic in fn included (see ErrPanic).
func For(n int, fn func(lo, hi int) error) error { return Chunks(n, 1, n, fn) }

// chunksPerWorker is how many chunks a parallel loop is cut into per
// worker, when the chunks can stay at least MinWork/2 elements: with equal
// halves, a core that the rest of the machine keeps busy sets the time of
// the whole loop; with many chunks claimed one at a time, the free core
// takes the rest.
const chunksPerWorker = 16

// Chunks is For over n units (rows, blocks, bands, independent cases) whose
// total cost is work elements: the rule is applied to work, and chunk
// boundaries fall on multiples of grain (so that a chunk never splits a
// band of grain rows, or a block of grain values); only the last chunk may
// end off the grain, at n. A grain below 1 counts as 1.
//
// The calling goroutine is one of the workers. Each worker claims the next
// chunk from a shared counter until none is left, so chunks run in
// increasing order of claiming but in any order of finishing; after a chunk
// fails, chunks not yet claimed are skipped (they all lie above it).
func Chunks(n, grain, work int, fn func(lo, hi int) error) error {
	if n <= 0 {
		return nil
	}
	w := Workers(work)
	if w == 1 {
		return call(fn, 0, n)
	}
	c := cut(n, grain, work, w)
	if c.count == 1 {
		return call(fn, 0, n)
	}
	var (
		next    atomic.Int64
		failed  atomic.Bool
		mu      sync.Mutex
		lowest  = c.count
		lowErr  error
		workers sync.WaitGroup
	)
	run := func() {
		for !failed.Load() {
			k := int(next.Add(1) - 1)
			if k >= c.count {
				return
			}
			lo, hi := c.span(k)
			if err := call(fn, lo, hi); err != nil {
				mu.Lock()
				if k < lowest {
					lowest, lowErr = k, err
				}
				mu.Unlock()
				failed.Store(true)
			}
		}
	}
	for range min(w, c.count) - 1 {
		workers.Go(run)
	}
	run()
	workers.Wait()
	return lowErr
}

// Workers returns how many goroutines a loop with work elements of work
// runs on: 1 below MinWork, otherwise GOMAXPROCS, but no more than one per
// MinWork/2 elements. (A loop over fewer units than that uses one per unit.)
func Workers(work int) int { return workers(work, runtime.GOMAXPROCS(0)) }

// workers is Workers for a given GOMAXPROCS.
func workers(work, procs int) int {
	if work < MinWork || procs <= 1 {
		return 1
	}
	return max(1, min(procs, work/(MinWork/2)))
}

// chunking is how a loop over [0, n) is cut: count chunks of size elements
// (a multiple of the grain), the last one ending at n.
type chunking struct{ n, size, count int }

// cut chooses the chunks of a loop over n >= 1 units of grain with work
// elements of work on w >= 2 workers: chunksPerWorker per worker, but no
// chunk below MinWork/2 elements of work (as far as whole grains allow) and
// no more chunks than grains. It does not overflow for any n, work up to
// math.MaxInt.
func cut(n, grain, work, w int) chunking {
	grain = max(grain, 1)
	units := n / grain
	if n%grain != 0 {
		units++
	}
	perUnit := max(1, work/units)                   // elements of work per grain, rounded down
	minUnits := (MinWork/2 + perUnit - 1) / perUnit // grains in the smallest chunk
	target := units / (w * chunksPerWorker)         // grains per chunk for chunksPerWorker each
	if units%(w*chunksPerWorker) != 0 {
		target++
	}
	size := min(units, max(minUnits, target))
	count := units / size
	if units%size != 0 {
		count++
	}
	return chunking{n: n, size: size * grain, count: count}
}

// span returns the bounds of chunk k < c.count.
func (c chunking) span(k int) (lo, hi int) {
	lo = k * c.size
	if k == c.count-1 {
		return lo, c.n
	}
	return lo, lo + c.size
}

// call runs fn(lo, hi), turning a panic into an error.
func call(fn func(lo, hi int) error, lo, hi int) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = panicError(v, debug.Stack())
		}
	}()
	return fn(lo, hi)
}

// maxFrames is how many frames of the panicking goroutine a panic error keeps.
const maxFrames = 8

// panicError wraps ErrPanic (and v, when it is an error) with the value and
// the frames of stack below the panic.
func panicError(v any, stack []byte) error {
	trace := trimStack(string(stack))
	if e, ok := v.(error); ok {
		return fmt.Errorf("%w: %w\n%s", ErrPanic, e, trace)
	}
	return fmt.Errorf("%w: %v\n%s", ErrPanic, v, trace)
}

// trimStack keeps the frames of a debug.Stack trace that lie between the
// call to panic and this package's own frames (the code that panicked and
// its callers inside fn), at most maxFrames of them. A frame is two lines:
// the function, then its file and line.
func trimStack(stack string) string {
	lines := strings.Split(strings.TrimRight(stack, "\n"), "\n")
	start := 0
	for i := 0; i+1 < len(lines); i++ {
		if strings.HasPrefix(lines[i], "panic(") {
			start = i + 2 // the frame after panic's own
			break
		}
	}
	if start == 0 {
		return ""
	}
	var b strings.Builder
	frames := 0
	for i := start; i+1 < len(lines) && frames < maxFrames; i += 2 {
		if strings.Contains(lines[i], "fp8lab/internal/parallel.call(") {
			break
		}
		b.WriteString(lines[i])
		b.WriteByte('\n')
		b.WriteString(lines[i+1])
		b.WriteByte('\n')
		frames++
	}
	return strings.TrimRight(b.String(), "\n")
}
