package scaling

import (
	"fmt"
	"slices"

	"github.com/fp8lab/fp8lab/internal/parallel"
)

// MatMul returns the product a·b (a is M×K, b is K×N) with every dot
// product accumulated in float64 and rounded once to float32: the reference
// that scaled and low-precision products are measured against.
func MatMul(a, b *Tensor) (*Tensor, error) {
	if err := a.Check(); err != nil {
		return nil, err
	}
	if err := b.Check(); err != nil {
		return nil, err
	}
	if a.Cols != b.Rows {
		return nil, fmt.Errorf("%w: cannot multiply %d×%d by %d×%d", ErrShape, a.Rows, a.Cols, b.Rows, b.Cols)
	}
	m, k, n := a.Rows, a.Cols, b.Cols
	if err := checkDims(m, n); err != nil {
		return nil, err
	}
	out := &Tensor{Rows: m, Cols: n, Data: make([]float32, m*n)}
	err := parallel.Chunks(m, 1, m*n*k, func(lo, hi int) error {
		acc := make([]float64, n)
		for i := lo; i < hi; i++ {
			clear(acc)
			for p := 0; p < k; p++ {
				av := float64(a.Data[i*k+p])
				brow := b.Data[p*n : (p+1)*n]
				for j, bv := range brow {
					acc[j] += av * float64(bv)
				}
			}
			for j, v := range acc {
				out.Data[i*n+j] = float32(v)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ScaledMatMul multiplies two quantized matrices the way a scaled FP8 GEMM
// does: a holds A (M×K) and b holds B (K×N), each quantized with any
// granularity. The decoded codes are multiplied in float32 (exactly: FP8
// products fit a float32), summed in acc, and the sum is multiplied by the
// product of the two blocks' decode scales before it joins the float32
// output accumulator.
//
// The K dimension is cut into segments where both scales stay constant:
// blocks along A's columns and along B's rows (all of K for per-tensor,
// per-row A and per-column B; 128 for 1×128 tiles and 128×128 blocks; 32
// for MX). The partial sum is promoted (descaled and added to the float32
// total) at each segment end and every acc.PromoteEvery products. Scales
// that change along K at every element (per-column A, per-row or 1×N-tiled
// B) give segments of one product: correct, but no GPU works that way,
// which is why hardware recipes quantize B along K (as weights Wᵀ).
func ScaledMatMul(a, b *Quantized, acc Accumulator) (*Tensor, error) {
	return scaledMatMul(a, b, acc, true)
}

// scaledMatMul is ScaledMatMul; fast false keeps truncating accumulators
// on the general per-product loop, the reference the fast path is tested
// against.
func scaledMatMul(a, b *Quantized, acc Accumulator, fast bool) (*Tensor, error) {
	if err := a.Check(); err != nil {
		return nil, fmt.Errorf("A: %w", err)
	}
	if err := b.Check(); err != nil {
		return nil, fmt.Errorf("B: %w", err)
	}
	if err := acc.Check(); err != nil {
		return nil, err
	}
	if a.Cols != b.Rows {
		return nil, fmt.Errorf("%w: cannot multiply %d×%d by %d×%d", ErrShape, a.Rows, a.Cols, b.Rows, b.Cols)
	}
	m, k, n := a.Rows, a.Cols, b.Cols
	if err := checkDims(m, n); err != nil {
		return nil, err
	}
	// Decoded codes, not descaled: A row-major, B transposed to N×K.
	va := make([]float32, m*k)
	if err := a.Format.DecodeSlice32(va, a.Codes); err != nil {
		return nil, err
	}
	vb := make([]float32, k*n)
	if err := b.Format.DecodeSlice32(vb, b.Codes); err != nil {
		return nil, err
	}
	bt, err := (&Tensor{Rows: k, Cols: n, Data: vb}).Transpose()
	if err != nil {
		return nil, err
	}
	da, db := decodeFactors(a), decodeFactors(b)
	// Segment boundaries along K.
	var cuts []int
	for p := 0; p < k; p += a.BlockCols {
		cuts = append(cuts, p)
	}
	for p := 0; p < k; p += b.BlockRows {
		cuts = append(cuts, p)
	}
	slices.Sort(cuts)
	cuts = append(slices.Compact(cuts), k)

	out := &Tensor{Rows: m, Cols: n, Data: make([]float32, m*n)}
	if fast && (acc.plainFloat32() || !acc.RoundNearest && truncOperandsFit(a.Format, b.Format, k)) {
		var mask uint64 // 0: a plain float32 running sum
		if !acc.plainFloat32() {
			mask = truncMask(acc.MantissaBits)
		}
		err = parallel.Chunks(m, 1, m*n*k, func(lo, hi int) error {
			for i := lo; i < hi; i++ {
				aBase := (i / a.BlockRows) * a.ScaleCols
				factor := func(s, j int) float32 {
					k0 := cuts[s]
					return float32(da[aBase+k0/a.BlockCols] * db[(k0/b.BlockRows)*b.ScaleCols+j/b.BlockCols])
				}
				kernelRow(out.Data[i*n:(i+1)*n], va[i*k:(i+1)*k], bt.Data, k, cuts, acc.PromoteEvery, mask, factor)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		return out, nil
	}
	err = parallel.Chunks(m, 1, m*n*k, func(lo, hi int) error {
		for i := lo; i < hi; i++ {
			arow := va[i*k : (i+1)*k]
			aBase := (i / a.BlockRows) * a.ScaleCols
			for j := 0; j < n; j++ {
				brow := bt.Data[j*k : (j+1)*k]
				bCol := j / b.BlockCols
				var total float32
				for s := 0; s+1 < len(cuts); s++ {
					k0, k1 := cuts[s], cuts[s+1]
					factor := float32(da[aBase+k0/a.BlockCols] * db[(k0/b.BlockRows)*b.ScaleCols+bCol])
					var partial float32
					count := 0
					for p := k0; p < k1; p++ {
						partial = acc.add(partial, float32(arow[p]*brow[p]))
						if count++; count == acc.PromoteEvery {
							total += float32(partial * factor)
							partial, count = 0, 0
						}
					}
					total += float32(partial * factor)
				}
				out.Data[i*n+j] = total
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// decodeFactors returns the float32 decode factor of every block of q.
func decodeFactors(q *Quantized) []float32 {
	f := make([]float32, len(q.Scales))
	for b := range f {
		f[b] = float32(q.BlockDecodeScale(b))
	}
	return f
}
