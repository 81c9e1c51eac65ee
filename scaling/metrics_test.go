package scaling

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompareHandComputed(t *testing.T) {
	orig, err := FromRows([][]float32{{1, 2, 3, 4}, {0, 0, 0, 0}, {2, -2, 0, 1}})
	require.NoError(t, err)
	approx, err := FromRows([][]float32{{1, 2, 3, 5}, {0, 0, 0, 0}, {0, -2, 0, 1}})
	require.NoError(t, err)
	m, err := Compare(orig, approx, PerRow)
	require.NoError(t, err)
	// errors: row 0: 1 (x=4), row 2: 2 (x=2, flushed)
	assert.Equal(t, 12, m.Elements)
	assert.InDelta(t, (1.0+4.0)/12, m.MSE, 1e-15)
	assert.InDelta(t, 10*math.Log10((30.0+9.0)/5.0), m.SQNR, 1e-12)
	assert.Equal(t, 2.0, m.MaxAbsError)
	assert.Equal(t, 1.0, m.MaxRelError)
	assert.Equal(t, 1, m.Underflow)
	assert.Equal(t, 2, m.Rows.Parts) // the zero row has no signal
	row0, row2 := 10*math.Log10(30.0/1), 10*math.Log10(9.0/4)
	assert.InDelta(t, row2, m.Rows.Worst, 1e-12)
	assert.Equal(t, 2, m.Rows.WorstIndex)
	assert.InDelta(t, (row0+row2)/2, m.Rows.Mean, 1e-12)

	per, err := SQNRByBlock(orig, approx, PerRow)
	require.NoError(t, err)
	assert.InDelta(t, row0, per[0], 1e-12)
	assert.True(t, math.IsNaN(per[1]))
	assert.InDelta(t, row2, per[2], 1e-12)

	// Exact parts count separately and stay out of the mean.
	m, err = Compare(orig, orig, PerRow)
	require.NoError(t, err)
	assert.True(t, math.IsInf(m.SQNR, 1))
	assert.Equal(t, 2, m.Rows.Exact)
	assert.True(t, math.IsInf(m.Rows.Mean, 1))
	b, err := json.Marshal(m)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"sqnr_db":"+Inf"`)
	assert.Contains(t, string(b), `"row_sqnr":{"mean_db":"+Inf"`)

	_, err = Compare(orig, approx.Clone(), Granularity{Kind: 77})
	assert.ErrorIs(t, err, ErrGranularity)
	short, err := NewTensor(3, 3)
	require.NoError(t, err)
	_, err = Compare(orig, short, PerRow)
	assert.ErrorIs(t, err, ErrShape)
	_, err = SQNRByBlock(orig, short, PerRow)
	assert.ErrorIs(t, err, ErrShape)
}

func TestSQNRDefinition(t *testing.T) {
	assert.InDelta(t, 20.0, SQNR(100, 1), 1e-12)
	assert.True(t, math.IsInf(SQNR(1, 0), 1))
	assert.True(t, math.IsNaN(SQNR(0, 0)))
}

// TestMeasureCodeStatistics checks the counts that need codes.
func TestMeasureCodeStatistics(t *testing.T) {
	// Scale 1 (given): 1000 saturates, 2^-8 is a subnormal of E4M3FN,
	// 2^-11 flushes to zero, 1 and 2 are normal.
	x, err := FromRows([][]float32{{1000, 0x1p-8, 0x1p-11, 1, 2, 2}})
	require.NoError(t, err)
	q, err := QuantizeWithScales(x, fp8.E4M3FN, PerTensor, []float32{1}, Options{})
	require.NoError(t, err)
	m, err := Measure(x, q)
	require.NoError(t, err)
	assert.Equal(t, 1, m.Overflow)
	assert.Equal(t, 1, m.Underflow)
	assert.InDelta(t, 1.0/6, m.FractionSubnormal, 1e-15)
	assert.Equal(t, 5, m.DistinctCodes) // 448, 2^-8, 0, 1, 2
	assert.Equal(t, 1, m.BlockRows)
	assert.Equal(t, 32, m.BlockCols)

	m2, err := MeasureWith(x, q, PerTensor)
	require.NoError(t, err)
	assert.Equal(t, 1, m2.Blocks.Parts)
	other, err := NewTensor(2, 3)
	require.NoError(t, err)
	_, err = Measure(other, q)
	assert.ErrorIs(t, err, ErrShape)
}
