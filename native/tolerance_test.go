package native

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/fp8lab/fp8lab/scaling"
)

func TestProductError(t *testing.T) {
	a := &scaling.Tensor{Rows: 1, Cols: 2, Data: []float32{1, -2}}
	b := &scaling.Tensor{Rows: 2, Cols: 1, Data: []float32{3, 4}}
	r := &scaling.Tensor{Rows: 1, Cols: 1, Data: []float32{-5}}
	d := &scaling.Tensor{Rows: 1, Cols: 1, Data: []float32{-5.11}}
	e, i, j := ProductError(a, b, r, d, OutputFloat32)
	assert.InDelta(t, 0.11/11, e, 1e-6) // Σ|a||b| = 3 + 8
	assert.Equal(t, [2]int{0, 0}, [2]int{i, j})
	d.Data[0] = float32(math.NaN())
	e, _, _ = ProductError(a, b, r, d, OutputFloat32)
	assert.True(t, math.IsInf(e, 1))
	// One BF16 ulp is forgiven for bf16 output: ulp(5) = 2^-5.
	d.Data[0] = -5 - 0x1p-5
	e, _, _ = ProductError(a, b, r, d, OutputBF16)
	assert.Zero(t, e)
	e, _, _ = ProductError(a, b, r, d, OutputFloat32)
	assert.Positive(t, e)
}
