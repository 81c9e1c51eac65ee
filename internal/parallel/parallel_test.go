package parallel

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withProcs runs f with GOMAXPROCS set to procs.
func withProcs(t *testing.T, procs int, f func()) {
	t.Helper()
	prev := runtime.GOMAXPROCS(procs)
	defer runtime.GOMAXPROCS(prev)
	f()
}

// span is one chunk [lo, hi) as fn saw it.
type span struct{ lo, hi int }

// record runs Chunks and returns the spans fn saw, sorted.
func record(t *testing.T, n, grain, work int) []span {
	t.Helper()
	var mu sync.Mutex
	var got []span
	require.NoError(t, Chunks(n, grain, work, func(lo, hi int) error {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, span{lo, hi})
		return nil
	}))
	slices.SortFunc(got, func(a, b span) int { return a.lo - b.lo })
	return got
}

// requireCover checks that spans are non-empty, contiguous, cover [0, n)
// exactly once and that inner boundaries are multiples of grain.
func requireCover(t *testing.T, spans []span, n, grain int) {
	t.Helper()
	require.NotEmpty(t, spans)
	require.Equal(t, 0, spans[0].lo)
	require.Equal(t, n, spans[len(spans)-1].hi)
	for i, s := range spans {
		require.Less(t, s.lo, s.hi, "span %d empty: %v", i, spans)
		if i > 0 {
			require.Equal(t, spans[i-1].hi, s.lo, "gap or overlap: %v", spans)
			require.Zero(t, s.lo%max(grain, 1), "boundary %d off grain %d", s.lo, grain)
		}
	}
}

func TestBelowThresholdRunsInline(t *testing.T) {
	withProcs(t, 4, func() {
		for _, n := range []int{1, 7, MinWork - 1} {
			assert.Equal(t, []span{{0, n}}, record(t, n, 1, n), "n=%d", n)
		}
		// The rule reads the work, not the count: 3 rows of 10000 elements
		// split, 1000 rows of 10 do not.
		assert.Len(t, record(t, 3, 1, 30000), 1)
		assert.Len(t, record(t, 3, 1, 3*MinWork), 3)
		assert.Len(t, record(t, 1000, 1, 10000), 1)
	})
	withProcs(t, 1, func() {
		assert.Equal(t, []span{{0, 1 << 20}}, record(t, 1<<20, 1, 1<<20), "one core: inline")
	})
}

func TestAboveThresholdSplits(t *testing.T) {
	withProcs(t, 4, func() {
		// Chunks of MinWork/2 elements, the smallest allowed, so that the
		// four workers get two each to balance with.
		got := record(t, 4*MinWork, 1, 4*MinWork)
		require.Len(t, got, 8)
		requireCover(t, got, 4*MinWork, 1)
		for _, s := range got {
			assert.Equal(t, MinWork/2, s.hi-s.lo)
		}
		// Longer loops: chunksPerWorker chunks per worker.
		n := 4 * chunksPerWorker * MinWork
		got = record(t, n, 1, n)
		require.Len(t, got, 4*chunksPerWorker)
		requireCover(t, got, n, 1)
		// At least MinWork/2 elements per chunk: MinWork elements use two.
		assert.Len(t, record(t, MinWork, 1, MinWork), 2)
		// Never more workers than units.
		assert.Len(t, record(t, 2, 1, 1<<30), 2)
	})
	assert.Equal(t, 1, workers(MinWork-1, 64))
	assert.Equal(t, 2, workers(MinWork, 64))
	assert.Equal(t, 64, workers(math.MaxInt, 64))
	assert.Equal(t, 1, workers(math.MaxInt, 1))
}

// TestRangesCoverExactlyOnce checks every index is visited exactly once, for
// many sizes, grains and worker counts.
func TestRangesCoverExactlyOnce(t *testing.T) {
	for _, procs := range []int{1, 2, 3, 7} {
		withProcs(t, procs, func() {
			for _, n := range []int{1, 2, 3, 5, 64, 1000, MinWork - 1, MinWork, MinWork + 3, 3*MinWork + 11} {
				for _, grain := range []int{0, 1, 3, 4, 64, 1000} {
					visits := make([]int32, n)
					err := Chunks(n, grain, n, func(lo, hi int) error {
						for i := lo; i < hi; i++ {
							visits[i]++ // chunks are disjoint: no race
						}
						return nil
					})
					require.NoError(t, err)
					for i, v := range visits {
						if v != 1 {
							t.Fatalf("procs %d n %d grain %d: index %d visited %d times", procs, n, grain, i, v)
						}
					}
					requireCover(t, record(t, n, grain, n), n, grain)
				}
			}
		})
	}
}

func TestZeroAndNegativeLengthsCallNothing(t *testing.T) {
	for _, n := range []int{0, -1} {
		called := false
		require.NoError(t, For(n, func(lo, hi int) error { called = true; return nil }))
		require.NoError(t, Chunks(n, 4, 1<<20, func(lo, hi int) error { called = true; return nil }))
		assert.False(t, called, "n=%d", n)
	}
}

// TestHugeLoopFewWorkers splits loops far longer than memory could hold
// (fn only records its range) without overflow.
func TestHugeLoopFewWorkers(t *testing.T) {
	withProcs(t, 3, func() {
		for _, n := range []int{1 << 40, math.MaxInt - 1, math.MaxInt} {
			for _, grain := range []int{1, 4, 7, 1 << 20} {
				got := record(t, n, grain, n)
				require.Len(t, got, 3*chunksPerWorker, "n %d grain %d", n, grain)
				requireCover(t, got, n, grain)
				// Balanced: every chunk but the last of one size, the last
				// no longer.
				for _, s := range got[1:] {
					assert.LessOrEqual(t, s.hi-s.lo, got[0].hi-got[0].lo)
				}
			}
		}
	})
	for _, c := range []struct{ n, grain, work, w int }{
		{math.MaxInt, 1, math.MaxInt, 1000}, {math.MaxInt, math.MaxInt, math.MaxInt, 5},
		{10, 3, 1 << 20, 100}, {1, 1, MinWork, 8}, {7, 1, math.MaxInt, 2},
	} {
		ch := cut(c.n, c.grain, c.work, c.w)
		spans := make([]span, ch.count)
		for k := range spans {
			spans[k].lo, spans[k].hi = ch.span(k)
		}
		requireCover(t, spans, c.n, c.grain)
	}
}

// TestBusyWorkerDoesNotHoldTheRest blocks the first chunk until every other
// chunk has run: with chunks claimed as workers get free, the other worker
// takes them all; with a fixed share per worker (several chunks each, or
// halves) the loop would hang or the blocked chunk would be half the loop.
func TestBusyWorkerDoesNotHoldTheRest(t *testing.T) {
	withProcs(t, 2, func() {
		n := 1 << 22
		require.Len(t, record(t, n, 1, n), 2*chunksPerWorker)
		var done atomic.Int64
		err := For(n, func(lo, hi int) error {
			if lo > 0 {
				done.Add(int64(hi - lo))
				return nil
			}
			deadline := time.Now().Add(10 * time.Second)
			for done.Load() != int64(n-hi) {
				if time.Now().After(deadline) {
					return fmt.Errorf("chunk [%d, %d) waited in vain: %d of %d other elements done", lo, hi, done.Load(), n-hi)
				}
				time.Sleep(time.Millisecond)
			}
			return nil
		})
		require.NoError(t, err)
	})
}

func TestLowestFailingChunkWins(t *testing.T) {
	withProcs(t, 4, func() {
		n := 8 * MinWork
		spans := record(t, n, 1, n)
		require.Greater(t, len(spans), 2)
		err := For(n, func(lo, hi int) error {
			if lo > 0 {
				return fmt.Errorf("chunk at %d", lo)
			}
			return nil
		})
		require.Error(t, err)
		assert.Equal(t, fmt.Sprintf("chunk at %d", spans[1].lo), err.Error())
		// A later chunk that fails first (the earlier one is slower) still
		// loses to the earlier.
		err = For(n, func(lo, hi int) error {
			switch lo {
			case spans[1].lo:
				time.Sleep(50 * time.Millisecond)
				return errors.New("second chunk")
			case spans[2].lo:
				return errors.New("third chunk")
			}
			return nil
		})
		assert.EqualError(t, err, "second chunk")
	})
}

// panicky panics in the chunk holding index at, with the value v.
func panicky(at int, v any) func(lo, hi int) error {
	return func(lo, hi int) error {
		if lo <= at && at < hi {
			panic(v)
		}
		return nil
	}
}

func TestWorkerPanicBecomesError(t *testing.T) {
	withProcs(t, 4, func() {
		n := 4 * MinWork
		err := For(n, panicky(n-1, "boom"))
		require.ErrorIs(t, err, ErrPanic)
		msg := err.Error()
		assert.True(t, strings.HasPrefix(msg, "parallel: worker panic: boom\n"), msg)
		// The trace names the panicking function and drops the runtime's
		// and the package's own frames.
		assert.Contains(t, msg, "panicky")
		assert.Contains(t, msg, "parallel_test.go:")
		assert.NotContains(t, msg, "runtime/debug.Stack")
		assert.NotContains(t, msg, "goroutine ")
		assert.NotContains(t, msg, "parallel.call(")
		assert.LessOrEqual(t, strings.Count(msg, "\n"), 2*maxFrames)

		// A runtime error stays reachable with errors.As.
		err = For(n, func(lo, hi int) error {
			var s []int
			_ = s[lo] // index out of range in every chunk
			return nil
		})
		require.ErrorIs(t, err, ErrPanic)
		var re runtime.Error
		require.True(t, errors.As(err, &re), "%v", err)
		assert.Contains(t, err.Error(), "index out of range")
	})
}

func TestInlinePanicBecomesError(t *testing.T) {
	err := For(10, panicky(3, errors.New("inline")))
	require.ErrorIs(t, err, ErrPanic)
	assert.True(t, strings.HasPrefix(err.Error(), "parallel: worker panic: inline"), err.Error())
}

func TestTrimStackWithoutPanicFrame(t *testing.T) {
	assert.Empty(t, trimStack("goroutine 1 [running]:\nmain.main()\n\t/x.go:1\n"))
}
