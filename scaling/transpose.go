package scaling

import "fmt"

// Transpose returns qᵀ: the codes and block scales of q laid out for the
// transposed tensor, with the granularity Granularity.Transpose gives. For
// round-to-nearest quantization it equals quantizing the transposed input
// with that granularity, bit for bit, since every block keeps its elements
// and so its amax and scale. A granularity without a transpose (MX, 1×16
// NVFP4) gives ErrGranularity; a malformed q the error of Check.
func (q *Quantized) Transpose() (*Quantized, error) {
	if err := q.Check(); err != nil {
		return nil, err
	}
	g, ok := q.Granularity.Transpose()
	if !ok {
		return nil, fmt.Errorf("%w: %s blocks have no transpose", ErrGranularity, q.Granularity)
	}
	t := &Quantized{Rows: q.Cols, Cols: q.Rows, Format: q.Format, Granularity: g,
		BlockRows: q.BlockCols, BlockCols: q.BlockRows, ScaleRows: q.ScaleCols, ScaleCols: q.ScaleRows,
		Codes: transposed(q.Codes, q.Rows, q.Cols), Scales: transposed(q.Scales, q.ScaleRows, q.ScaleCols),
		ScaleFormat: q.ScaleFormat, TensorScale: q.TensorScale, Mode: q.Mode}
	if len(q.Amax) == len(q.Scales) {
		t.Amax = transposed(q.Amax, q.ScaleRows, q.ScaleCols)
	}
	if q.ScaleCodes != nil {
		t.ScaleCodes = transposed(q.ScaleCodes, q.ScaleRows, q.ScaleCols)
	}
	return t, nil
}

// transposed returns the transpose of the rows×cols row-major matrix a.
func transposed[T any](a []T, rows, cols int) []T {
	out := make([]T, len(a))
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			out[j*rows+i] = a[i*cols+j]
		}
	}
	return out
}
