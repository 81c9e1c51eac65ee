package scaling

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/fp8lab/fp8lab/internal/parallel"
)

// The amax ("absolute maximum") of a block is max |x| over its elements, the
// statistic every scale rule starts from. The functions here propagate
// specials as torch.amax does: a block holding a NaN has amax NaN, otherwise
// a block holding ±Inf has amax +Inf. They never fail on values, only on
// shapes; deciding what a NaN or Inf amax means is the scale rule's job.

const (
	f32AbsMask = 0x7FFFFFFF
	f32InfBits = 0x7F800000
)

// absMaxBits returns the largest float32 bit pattern of |x| over s, 0 for an
// empty slice. Non-negative float32 values order like their bit patterns,
// and every NaN pattern is above +Inf's, so a result above f32InfBits means
// s holds a NaN and one equal to it means s holds an infinity. On amd64
// with AVX2 the whole vectors go through an assembly loop (amax_amd64.s:
// mask the sign, unsigned max, eight lanes at a time); absMaxBitsGo is the
// portable loop and the reference the assembly is tested against.
func absMaxBits(s []float32) uint32 {
	n := 0
	var m uint32
	if useAVX2 {
		n = len(s) &^ 7
		m = absMaxBitsVec(s[:n])
	}
	return max(m, absMaxBitsGo(s[n:]))
}

// absMaxBitsGo is absMaxBits in Go. It reads the values as integers (no
// float register round trip), eight per iteration into two independent
// maxima, without bounds checks. Two maxima rather than four keep every
// value in a register (four spilled one maximum and the length to the stack
// each iteration): 0.355 against 0.39 ns/value on one core of
// BENCHMARKS.md's VM (issue 14, run G).
func absMaxBitsGo(s []float32) uint32 {
	w := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
	var m0, m1 uint32
	i := 0
	for ; i+8 <= len(w); i += 8 {
		x := (*[8]uint32)(w[i : i+8])
		m0 = max(m0, x[0]&f32AbsMask, x[1]&f32AbsMask, x[2]&f32AbsMask, x[3]&f32AbsMask)
		m1 = max(m1, x[4]&f32AbsMask, x[5]&f32AbsMask, x[6]&f32AbsMask, x[7]&f32AbsMask)
	}
	for _, u := range w[i:] {
		m0 = max(m0, u&f32AbsMask)
	}
	return max(m0, m1)
}

// absMaxBlocks folds absMaxBits of each bc-element block of row into g
// (one entry per block, the last block possibly short). Whole blocks whose
// length is a multiple of 8 go through the AVX2 loop where there is one
// (one call for all of them: MX's 32 values would not pay for a call
// each); the rest through absMaxBlocksGo.
func absMaxBlocks(g []uint32, row []float32, bc int) {
	if useAVX2 && bc%8 == 0 {
		whole := min(len(row)/bc, len(g))
		absMaxBlocksVec(g[:whole], row[:whole*bc], bc)
		g, row = g[whole:], row[whole*bc:]
	}
	absMaxBlocksGo(g, row, bc)
}

// absMaxBlocksGo is absMaxBlocks in Go, with absMaxBitsGo's loop inlined:
// short blocks (MX's 32, NVFP4's 16) pay no call each.
func absMaxBlocksGo(g []uint32, row []float32, bc int) {
	w := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(row))), len(row))
	for b := range g {
		if len(w) == 0 {
			return
		}
		x := w[:min(bc, len(w))]
		w = w[len(x):]
		var m0, m1, m2, m3 uint32
		for len(x) >= 8 {
			y := x[:8:8]
			m0 = max(m0, y[0]&f32AbsMask, y[4]&f32AbsMask)
			m1 = max(m1, y[1]&f32AbsMask, y[5]&f32AbsMask)
			m2 = max(m2, y[2]&f32AbsMask, y[6]&f32AbsMask)
			m3 = max(m3, y[3]&f32AbsMask, y[7]&f32AbsMask)
			x = x[8:]
		}
		for _, u := range x {
			m0 = max(m0, u&f32AbsMask)
		}
		g[b] = max(g[b], m0, m1, m2, m3)
	}
}

// amaxFromBits turns an absMaxBits result into a float32: NaN when any
// NaN was seen (the canonical quiet NaN, whatever its payload).
func amaxFromBits(b uint32) float32 {
	if b > f32InfBits {
		return float32(math.NaN())
	}
	return math.Float32frombits(b)
}

// amaxGridBits returns, for each block of l, the absMaxBits of its elements.
func amaxGridBits(t *Tensor, l layout) ([]uint32, error) {
	grid := make([]uint32, l.blocks())
	workers := parallel.Workers(t.Len())
	if l.gr >= workers {
		// Enough bands of blocks (or one worker): each worker owns whole
		// bands, no merging.
		err := parallel.Chunks(t.Rows, l.br, t.Len(), func(lo, hi int) error {
			amaxRowsInto(grid, t, l, lo, hi)
			return nil
		})
		return grid, err
	}
	// Few bands (tensor or column granularity): split rows among workers,
	// each with its own partial grid, then merge.
	partial := make([][]uint32, workers)
	chunk := (t.Rows + workers - 1) / workers
	err := parallel.Chunks(workers, 1, t.Len(), func(lo, hi int) error {
		for w := lo; w < hi; w++ {
			p := make([]uint32, len(grid))
			amaxRowsInto(p, t, l, min(w*chunk, t.Rows), min((w+1)*chunk, t.Rows))
			partial[w] = p
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, p := range partial {
		for i, v := range p {
			grid[i] = max(grid[i], v)
		}
	}
	return grid, nil
}

// amaxRowsInto folds rows [lo, hi) of t into grid with max.
func amaxRowsInto(grid []uint32, t *Tensor, l layout, lo, hi int) {
	for i := lo; i < hi; i++ {
		amaxRowInto(grid[(i/l.br)*l.gc:(i/l.br+1)*l.gc], t.Data[i*t.Cols:(i+1)*t.Cols], l.bc)
	}
}

// amaxRowInto folds the absMaxBits of each bc-element block of row into g
// (one entry per block, the last block possibly short).
func amaxRowInto(g []uint32, row []float32, bc int) {
	switch {
	case bc == 1:
		for j, v := range row {
			g[j] = max(g[j], math.Float32bits(v)&f32AbsMask)
		}
	case bc < 256:
		absMaxBlocks(g, row, bc)
	default:
		for b := range g {
			g[b] = max(g[b], absMaxBits(row[b*bc:min((b+1)*bc, len(row))]))
		}
	}
}

// Amax returns max |x| over the whole tensor (NaN if any element is NaN,
// else +Inf if any is infinite).
func Amax(t *Tensor) (float32, error) {
	if err := t.Check(); err != nil {
		return 0, err
	}
	l, _ := newLayout(PerTensor, t.Rows, t.Cols)
	bits, err := amaxGridBits(t, l)
	if err != nil {
		return 0, err
	}
	return amaxFromBits(bits[0]), nil
}

// AmaxGrid returns the amax of every block of granularity g as a tensor with
// one element per block: ceil(Rows/R)×ceil(Cols/C) for g's R×C blocks
// (BlockShape), so 1×1 for per-tensor and Rows×1 for per-row.
func AmaxGrid(t *Tensor, g Granularity) (*Tensor, error) {
	if err := t.Check(); err != nil {
		return nil, err
	}
	l, err := newLayout(g, t.Rows, t.Cols)
	if err != nil {
		return nil, err
	}
	bits, err := amaxGridBits(t, l)
	if err != nil {
		return nil, err
	}
	out := &Tensor{Rows: l.gr, Cols: l.gc, Data: make([]float32, len(bits))}
	for i, b := range bits {
		out.Data[i] = amaxFromBits(b)
	}
	return out, nil
}

// AmaxRows returns the amax of each row.
func AmaxRows(t *Tensor) ([]float32, error) {
	g, err := AmaxGrid(t, PerRow)
	if err != nil {
		return nil, err
	}
	return g.Data, nil
}

// AmaxCols returns the amax of each column.
func AmaxCols(t *Tensor) ([]float32, error) {
	g, err := AmaxGrid(t, PerCol)
	if err != nil {
		return nil, err
	}
	return g.Data, nil
}

// AmaxBlocks returns the amax of each rows×cols block (1×128 tiles:
// AmaxBlocks(t, 1, 128); 128×128 blocks: AmaxBlocks(t, 128, 128)).
func AmaxBlocks(t *Tensor, rows, cols int) (*Tensor, error) {
	if rows < 1 || cols < 1 {
		return nil, fmt.Errorf("%w: block %d×%d", ErrGranularity, rows, cols)
	}
	return AmaxGrid(t, Block(rows, cols))
}
