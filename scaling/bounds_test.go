package scaling

import (
	"math"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestValidateBoundsBlockSides: block sides near math.MaxInt used to pass
// Validate and overflow (rows+br-1)/br; a 1024×4096 Quantize then panicked
// inside a worker goroutine and killed the process (issue 12 item 3).
func TestValidateBoundsBlockSides(t *testing.T) {
	huge := []Granularity{
		Block(math.MaxInt, 128), Block(128, math.MaxInt), Block(math.MaxInt, math.MaxInt),
		Block(math.MaxInt-1, 1), Tile(math.MaxInt), Tile(MaxBlockSide + 1),
		{Kind: KindMX, BlockRows: math.MaxInt, BlockCols: MXBlockSize},
	}
	x := normal(t, 1024, 4096, 1, 1)
	for _, g := range huge {
		assert.ErrorIs(t, g.Validate(), ErrGranularity, "%+v", g)
		_, _, err := g.BlockShape(1024, 4096)
		assert.ErrorIs(t, err, ErrGranularity, "%+v", g)
		_, err = Quantize(x, fp8.E4M3FN, g, Options{})
		assert.ErrorIs(t, err, ErrGranularity, "%+v", g)
		_, err = AmaxGrid(x, g)
		assert.ErrorIs(t, err, ErrGranularity, "%+v", g)
	}
	// The largest accepted side still works, as one partial block.
	q, err := Quantize(x, fp8.E4M3FN, Block(MaxBlockSide, MaxBlockSide), Options{})
	require.NoError(t, err)
	assert.Equal(t, 1, q.ScaleRows*q.ScaleCols)
	_, err = ParseGranularity("block1048577")
	assert.ErrorIs(t, err, ErrGranularity)
}

// TestShapeProductsBounded: shapes whose product overflows int are refused
// by every entry point that takes a shape, not allocated.
func TestShapeProductsBounded(t *testing.T) {
	for _, s := range [][2]int{{math.MaxInt, 2}, {1 << 32, 1 << 32}, {math.MaxInt, math.MaxInt}, {MaxElements, 2}} {
		_, err := NewTensor(s[0], s[1])
		assert.ErrorIs(t, err, ErrShape)
		_, _, err = Block128.BlockShape(s[0], s[1])
		assert.ErrorIs(t, err, ErrShape)
		_, err = (&Tensor{Rows: s[0], Cols: s[1], Data: make([]float32, 4)}).Transpose()
		assert.ErrorIs(t, err, ErrShape)
		q := &Quantized{Rows: s[0], Cols: s[1], Format: fp8.E4M3FN, Granularity: PerTensor}
		assert.ErrorIs(t, q.Check(), ErrShape)
	}
}
