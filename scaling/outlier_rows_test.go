package scaling

import (
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOutlierRowsTensorScalingFlushesSmallRows is the package's central
// lesson: a matrix whose outlier rows are 10^5 times larger than the rest.
// One tensor scale flushes much of the small rows to zero; row, 1×128,
// 128×128 (away from the outliers) and MX scaling do not; and the
// whole-tensor SQNR barely notices.
func TestOutlierRowsTensorScalingFlushesSmallRows(t *testing.T) {
	const rows, cols = 256, 512
	outlierRows := []int{3, 200} // bands 0 and 1 of 128-row blocks
	x, err := MakeOutlierTensor(OutlierSpec{Rows: rows, Cols: cols, Seed: 7, OutlierRows: outlierRows, RowFactor: 1e5})
	require.NoError(t, err)
	small := rows*cols - len(outlierRows)*cols

	measure := func(g Granularity) (Metrics, []float64) {
		q, err := Quantize(x, fp8.E4M3FN, g, Options{})
		require.NoError(t, err)
		m, err := Measure(x, q)
		require.NoError(t, err)
		deq, err := q.Dequantize()
		require.NoError(t, err)
		perRow, err := SQNRByBlock(x, deq, PerRow)
		require.NoError(t, err)
		return m, perRow
	}
	tensor, tensorRows := measure(PerTensor)
	flushedRows := 0
	for i, db := range tensorRows {
		if i != 3 && i != 200 && db < 10 {
			flushedRows++
		}
	}
	assert.Equal(t, rows-len(outlierRows), flushedRows, "every small row is damaged")
	// scale = 448/amax ≈ 448/(4.5e5): a unit-sized value becomes ~1e-3, below
	// half E4M3FN's smallest subnormal (2^-10) for |x| < ~1: most of them flush.
	assert.Greater(t, tensor.Underflow, small/2, "tensor scaling should flush most small values")
	assert.Less(t, tensor.Rows.Worst, 10.0, "worst row SQNR under tensor scaling")
	assert.NotContains(t, outlierRows, tensor.Rows.WorstIndex)

	for _, g := range []Granularity{PerRow, Tile1x128, MX} {
		m, _ := measure(g)
		assert.LessOrEqual(t, m.Underflow, small/1000, g.String())
		assert.Greater(t, m.Rows.Worst, 25.0, g.String())
		// The whole-tensor SQNR is set by the outlier rows: within 1 dB for
		// float32 scales. MX's power-of-two scales (floor rule) cost about
		// 2 dB everywhere, flushing or not.
		tol := 1.0
		if g.Scales() == ScaleE8M0 {
			tol = 3.0
		}
		assert.InDelta(t, tensor.SQNR, m.SQNR, tol, g.String())
		assert.Greater(t, m.Rows.Mean-tensor.Rows.Mean, 15.0, g.String())
	}

	// 128×128 blocks: every row shares a band with an outlier row here, so
	// use a layout where rows 128..255 are clean.
	x2, err := MakeOutlierTensor(OutlierSpec{Rows: rows, Cols: cols, Seed: 7, OutlierRows: []int{3, 100}, RowFactor: 1e5})
	require.NoError(t, err)
	q, err := Quantize(x2, fp8.E4M3FN, Block128, Options{})
	require.NoError(t, err)
	deq, err := q.Dequantize()
	require.NoError(t, err)
	perRow, err := SQNRByBlock(x2, deq, PerRow)
	require.NoError(t, err)
	worstClean, worstShared := 1000.0, 1000.0
	for i, db := range perRow {
		switch {
		case i == 3 || i == 100:
		case i >= 128:
			worstClean = min(worstClean, db)
		default:
			worstShared = min(worstShared, db)
		}
	}
	assert.Greater(t, worstClean, 25.0, "rows in blocks without an outlier")
	assert.Less(t, worstShared, 10.0, "rows sharing a block with an outlier")
	m, err := Measure(x2, q)
	require.NoError(t, err)
	assert.InDelta(t, tensor.SQNR, m.SQNR, 1.0)

	t.Logf("tensor: sqnr %.2f dB, underflow %d/%d, worst row %.2f dB, mean row %.2f dB",
		tensor.SQNR, tensor.Underflow, small, tensor.Rows.Worst, tensor.Rows.Mean)
}
