package scaling

import (
	"fmt"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/parallel"
)

// byRows reports whether quantize may run row by row (quantizeByRows): the
// blocks lie within one row (per row, 1×N tiles, MX), each block's scale
// depends on its amax alone (not NVFP4, whose block scales need the
// tensor's amax first; MX only with the floor rule, which cannot fail, so
// that the first error is the same as a whole-tensor pass would report),
// the encoder scales inside its loop (blocks of at least fusedMinBlock,
// no stochastic rounding), and no error statistics are gathered.
func byRows(l layout, g Granularity, opts Options, st *statsAcc) bool {
	return l.br == 1 && l.bc >= fusedMinBlock && st == nil && opts.Mode.Round != fp8.Stochastic &&
		(g.Scales() == ScaleFloat32 || g.Scales() == ScaleE8M0 && opts.MXRounding == fp8.ScaleFloor)
}

// quantizeByRows fills q's amax, scales and codes one row at a time: the
// row's block amaxes, their scales, then its codes, before the next row.
// A row (8 KiB at 2048 columns) is read from memory once, by the amax
// loop, and encoded from cache, where a whole-tensor amax pass followed
// by an encode pass reads every element from memory twice. The results
// are those of the whole-tensor passes, including the first non-finite
// block reported: rows are claimed in increasing order, and the lowest
// failing chunk's error is returned.
func quantizeByRows(q *Quantized, t *Tensor, l layout, g Granularity, opts Options) error {
	f, mode := q.Format, opts.Mode
	f.PrepareEncode(mode, t.Len())
	return parallel.Chunks(t.Rows, 1, t.Len(), func(lo, hi int) error {
		bits := make([]uint32, l.gc)
		for i := lo; i < hi; i++ {
			row := t.Data[i*t.Cols : (i+1)*t.Cols]
			clear(bits)
			amaxRowInto(bits, row, l.bc)
			b0 := i * l.gc
			if err := blockAmax(q, l, bits, b0); err != nil {
				return err
			}
			if err := blockScales(q, g, bits, b0, opts); err != nil {
				return err
			}
			if err := f.EncodeScaledSlice32(q.Codes[i*t.Cols:(i+1)*t.Cols], row, q.Scales[b0:b0+l.gc], l.bc, mode); err != nil {
				return fmt.Errorf("row %d: %w", i, err)
			}
		}
		return nil
	})
}
