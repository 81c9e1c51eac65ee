package parity

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/native"
	"github.com/fp8lab/fp8lab/scaling"
)

// input returns MakeInput's tensor, which must exist.
func input(t *testing.T, rows, cols int, k InputKind, seed uint64) *scaling.Tensor {
	t.Helper()
	x, err := MakeInput(rows, cols, k, seed)
	require.NoError(t, err)
	return x
}

func TestMakeInputIsSeededAndCoversClasses(t *testing.T) {
	a := input(t, 64, 300, InputSpecial, 1)
	b := input(t, 64, 300, InputSpecial, 1)
	c := input(t, 64, 300, InputSpecial, 2)
	assert.Equal(t, -1, diffFloats(a.Data, b.Data), "same seed, same tensor")
	assert.NotEqual(t, -1, diffFloats(a.Data, c.Data), "another seed, another tensor")
	var nan, inf, sub, negZero int
	for _, v := range a.Data {
		switch f := float64(v); {
		case math.IsNaN(f):
			nan++
		case math.IsInf(f, 0):
			inf++
		case v != 0 && math.Abs(f) < 0x1p-126:
			sub++
		case v == 0 && math.Signbit(f):
			negZero++
		}
	}
	assert.Positive(t, nan)
	assert.Positive(t, inf)
	assert.Positive(t, sub)
	assert.Positive(t, negZero)
	w := input(t, 16, 1024, InputWide, 3)
	lo, hi := math.Inf(1), 0.0
	for _, v := range w.Data {
		lo, hi = min(lo, math.Abs(float64(v))), max(hi, math.Abs(float64(v)))
	}
	assert.Less(t, lo, 0x1p-120)
	assert.Greater(t, hi, 0x1p90)
	_, err := MakeInput(2, 2, InputSpecial+1, 1)
	assert.ErrorIs(t, err, native.ErrInvalidArgument)
}
