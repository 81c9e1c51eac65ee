package scaling

import (
	"fmt"
	"math"
	"slices"

	"github.com/fp8lab/fp8lab/fp8"
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
// for MX), and at acc's split-K slices. The partial sum is promoted
// (descaled and added to the float32 total) at each segment end and every
// acc.PromoteEvery products. Scales that change along K at every element
// (per-column A, per-row or 1×N-tiled B) give segments of one product:
// correct, but no GPU works that way, which is why hardware recipes quantize
// B along K (as weights Wᵀ).
func ScaledMatMul(a, b *Quantized, acc Accumulator) (*Tensor, error) {
	return scaledMatMul(a, b, false, acc, true)
}

// ScaledMatMulNT is ScaledMatMul with B given transposed: b holds Bᵀ (N×K),
// quantized along its rows, so both operands are K-major, the TN layout of
// cuBLASLt's FP8 products. It returns ScaledMatMul(a, B, acc) bit for bit,
// where B is b transposed with its scale grid (row scales become column
// scales, 1×N tiles N×1 blocks, R×C blocks C×R), without building B.
func ScaledMatMulNT(a, b *Quantized, acc Accumulator) (*Tensor, error) {
	return scaledMatMul(a, b, true, acc, true)
}

// scaledMatMul is ScaledMatMul (b holds B, K×N) or ScaledMatMulNT (nt: b
// holds Bᵀ, N×K); fast false keeps every low-precision accumulator on the
// general per-run loop, the reference the fast paths are tested against.
func scaledMatMul(a, b *Quantized, nt bool, acc Accumulator, fast bool) (*Tensor, error) {
	if err := a.Check(); err != nil {
		return nil, fmt.Errorf("A: %w", err)
	}
	if err := b.Check(); err != nil {
		return nil, fmt.Errorf("B: %w", err)
	}
	if err := acc.Check(); err != nil {
		return nil, err
	}
	m, k := a.Rows, a.Cols
	n, bk := b.Cols, b.Rows
	if nt {
		n, bk = b.Rows, b.Cols
	}
	if k != bk {
		if nt {
			return nil, fmt.Errorf("%w: cannot multiply %d×%d by the transpose of %d×%d", ErrShape, m, k, b.Rows, b.Cols)
		}
		return nil, fmt.Errorf("%w: cannot multiply %d×%d by %d×%d", ErrShape, m, k, b.Rows, b.Cols)
	}
	if err := checkDims(m, n); err != nil {
		return nil, err
	}
	// Decoded codes, not descaled: A row-major; B as the kernel needs it,
	// K×N (vb) or N×K (bt).
	va := make([]float32, m*k)
	if err := a.Format.DecodeSlice32(va, a.Codes); err != nil {
		return nil, err
	}
	alignedFast := fast && acc.AlignGroup > 0 && alignedFits(acc, a, b, k)
	var decoded []float32 // B's codes decoded as they lie (K×N, or N×K for nt)
	var vbT []float32     // for the aligned kernel of nt: B decoded straight into K×N
	if alignedFast && nt {
		vbT = decodeTransposed(b.Format, b.Codes, n, k)
	} else {
		decoded = make([]float32, k*n)
		if err := b.Format.DecodeSlice32(decoded, b.Codes); err != nil {
			return nil, err
		}
	}
	da, db := decodeFactors(a), decodeFactors(b)
	// bFactor(k0, j) is the decode factor of B at row k0, column j;
	// bAlongK is the length of B's blocks along K.
	bFactor := func(k0, j int) float32 { return db[(k0/b.BlockRows)*b.ScaleCols+j/b.BlockCols] }
	bAlongK := b.BlockRows
	if nt {
		bFactor = func(k0, j int) float32 { return db[(j/b.BlockRows)*b.ScaleCols+k0/b.BlockCols] }
		bAlongK = b.BlockCols
	}
	// Segment boundaries along K.
	var cuts []int
	for p := 0; p < k; p += a.BlockCols {
		cuts = append(cuts, p)
	}
	for p := 0; p < k; p += bAlongK {
		cuts = append(cuts, p)
	}
	cuts = append(cuts, acc.slices(k)...)
	slices.Sort(cuts)
	cuts = append(slices.Compact(cuts), k)

	out := &Tensor{Rows: m, Cols: n, Data: make([]float32, m*n)}
	rowFactor := func(i int) func(s, j int) float32 {
		aBase := (i / a.BlockRows) * a.ScaleCols
		return func(s, j int) float32 {
			k0 := cuts[s]
			return float32(da[aBase+k0/a.BlockCols] * bFactor(k0, j))
		}
	}
	kn := func() []float32 { // B as K×N
		switch {
		case vbT != nil:
			return vbT
		case !nt:
			return decoded
		}
		return transpose32(decoded, n, k)
	}
	nk := func() []float32 { // B as N×K
		switch {
		case vbT != nil:
			return transpose32(vbT, k, n)
		case nt:
			return decoded
		}
		return transpose32(decoded, k, n)
	}
	var row func(i int, out []float32)
	switch {
	case alignedFast && allFinite(va) && allFinite(kn()):
		vb := kn()
		row = func(i int, o []float32) {
			alignedRow(o, va[i*k:(i+1)*k], vb, k, cuts, acc, rowFactor(i))
		}
	case fast && acc.AlignGroup == 0 && (acc.plainFloat32() || !acc.RoundNearest && truncOperandsFit(a.Format, b.Format, k)):
		var mask uint64 // 0: a plain float32 running sum
		if !acc.plainFloat32() {
			mask = truncMask(acc.MantissaBits)
		}
		bt := nk()
		row = func(i int, o []float32) {
			kernelRow(o, va[i*k:(i+1)*k], bt, k, cuts, acc.PromoteEvery, mask, rowFactor(i))
		}
	default:
		bt := nk()
		row = func(i int, o []float32) {
			generalRow(o, va[i*k:(i+1)*k], bt, k, cuts, acc, rowFactor(i))
		}
	}
	err := parallel.Chunks(m, 1, m*n*k, func(lo, hi int) error {
		for i := lo; i < hi; i++ {
			row(i, out.Data[i*n:(i+1)*n])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// generalRow computes one output row with acc's reference runs:
// out[j] = Σ over segments and promotion runs of
// float32(run)·factor(s, j), added in that order.
func generalRow(out, arow, bt []float32, k int, cuts []int, acc Accumulator, factor func(s, j int) float32) {
	for j := range out {
		brow := bt[j*k : (j+1)*k]
		var total float32
		for s := 0; s+1 < len(cuts); s++ {
			f := factor(s, j)
			for p := cuts[s]; p < cuts[s+1]; {
				q := cuts[s+1]
				if acc.PromoteEvery > 0 {
					q = min(q, p+acc.PromoteEvery)
				}
				total += float32(acc.run(arow[p:q], brow[p:q]) * f)
				p = q
			}
		}
		out[j] = total
	}
}

// transpose32 returns the cols×rows transpose of the rows×cols matrix v.
func transpose32(v []float32, rows, cols int) []float32 {
	t := make([]float32, len(v))
	for i := 0; i < rows; i++ {
		for j, x := range v[i*cols : (i+1)*cols] {
			t[j*rows+i] = x
		}
	}
	return t
}

// decodeTransposed decodes the rows×cols codes of f into their cols×rows
// transpose, through a table of the 256 decoded codes.
func decodeTransposed(f *fp8.Format, codes []uint8, rows, cols int) []float32 {
	var table [256]float32
	for c := range table {
		table[c] = f.Decode32(uint8(c))
	}
	t := make([]float32, len(codes))
	for i := 0; i < rows; i++ {
		for j, c := range codes[i*cols : (i+1)*cols] {
			t[j*rows+i] = table[c]
		}
	}
	return t
}

// allFinite reports whether v holds no NaN and no infinity.
func allFinite(v []float32) bool {
	for _, x := range v {
		if math.Float32bits(x)&0x7F800000 == 0x7F800000 {
			return false
		}
	}
	return true
}

// decodeFactors returns the float32 decode factor of every block of q.
func decodeFactors(q *Quantized) []float32 {
	f := make([]float32, len(q.Scales))
	for b := range f {
		f[b] = float32(q.BlockDecodeScale(b))
	}
	return f
}
