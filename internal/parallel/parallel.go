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
// saves. A larger loop runs on Workers(work) goroutines, at most
// GOMAXPROCS and never fewer than MinWork/2 elements each, in contiguous
// chunks of as equal a size as the grain allows.
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
// inline below MinWork elements, otherwise in contiguous chunks, one per
// worker. The chunks cover [0, n) exactly once; fn is not called when
// n <= 0. It returns the error of the lowest failing chunk, a panic in fn
// included (see ErrPanic).
func For(n int, fn func(lo, hi int) error) error { return Chunks(n, 1, n, fn) }

// Chunks is For over n units (rows, blocks, bands, independent cases) whose
// total cost is work elements: the rule is applied to work, and chunk
// boundaries fall on multiples of grain (so that a chunk never splits a
// band of grain rows, or a block of grain values); only the last chunk may
// end off the grain, at n. A grain below 1 counts as 1.
func Chunks(n, grain, work int, fn func(lo, hi int) error) error {
	if n <= 0 {
		return nil
	}
	w := Workers(work)
	if w == 1 {
		return call(fn, 0, n)
	}
	spans := split(n, grain, w)
	if len(spans) == 1 {
		return call(fn, 0, n)
	}
	errs := make([]error, len(spans))
	var wg sync.WaitGroup
	for i, s := range spans {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = call(fn, s.lo, s.hi)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
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

// span is one chunk [lo, hi).
type span struct{ lo, hi int }

// split cuts [0, n) (n >= 1) into at most w contiguous, non-empty spans
// whose inner boundaries are multiples of grain, as equal as the grain
// allows. It does not overflow for any n up to math.MaxInt.
func split(n, grain, w int) []span {
	grain = max(grain, 1)
	units := n / grain
	if n%grain != 0 {
		units++
	}
	w = max(1, min(w, units))
	q, r := units/w, units%w
	spans := make([]span, w)
	lo := 0
	for i := range spans {
		size := q
		if i < r {
			size++
		}
		hi := n
		if i < w-1 {
			hi = lo + size*grain // < n: units remain after this span
		}
		spans[i] = span{lo, hi}
		lo = hi
	}
	return spans
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
