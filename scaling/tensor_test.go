package scaling

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTensorConstructors(t *testing.T) {
	x, err := NewTensor(2, 3)
	require.NoError(t, err)
	assert.Equal(t, 6, x.Len())
	x.Set(1, 2, 5)
	assert.Equal(t, float32(5), x.Data[5])
	assert.Equal(t, []float32{0, 0, 5}, x.Row(1))

	for _, sh := range [][2]int{{0, 1}, {1, 0}, {-1, 4}, {1 << 20, 1 << 20}} {
		_, err := NewTensor(sh[0], sh[1])
		assert.ErrorIs(t, err, ErrShape, "%v", sh)
	}
	_, err = FromSlice(2, 2, []float32{1, 2, 3})
	assert.ErrorIs(t, err, ErrShape)
	_, err = FromRows([][]float32{{1, 2}, {3}})
	assert.ErrorIs(t, err, ErrShape)
	_, err = FromRows(nil)
	assert.ErrorIs(t, err, ErrShape)
	_, err = FromRows([][]float32{{}})
	assert.ErrorIs(t, err, ErrShape)
	_, err = FromFloat64(1, 2, []float64{1})
	assert.ErrorIs(t, err, ErrShape)
	y, err := FromFloat64(1, 2, []float64{0.1, 1e300})
	require.NoError(t, err)
	assert.Equal(t, float32(0.1), y.Data[0])
	assert.True(t, math.IsInf(float64(y.Data[1]), 1))
	assert.False(t, y.AllFinite())

	var nilT *Tensor
	assert.ErrorIs(t, nilT.Check(), ErrShape)
	assert.ErrorIs(t, (&Tensor{Rows: 2, Cols: 2}).Check(), ErrShape)
}

func TestTransposeAndClone(t *testing.T) {
	x := normal(t, 37, 70, 1, 4)
	tr, err := x.Transpose()
	require.NoError(t, err)
	require.Equal(t, 70, tr.Rows)
	for i := 0; i < x.Rows; i++ {
		for j := 0; j < x.Cols; j++ {
			require.Equal(t, x.At(i, j), tr.At(j, i))
		}
	}
	c := x.Clone()
	c.Data[0]++
	assert.NotEqual(t, c.Data[0], x.Data[0])
	assert.Equal(t, float64(x.Data[3]), x.Float64()[3])
}

func TestGranularityNames(t *testing.T) {
	for _, g := range append(Granularities(), Tile(64), Block(64, 64), Block(32, 128), ColTile(64), NVFP4Block16) {
		p, err := ParseGranularity(g.String())
		require.NoError(t, err, g.String())
		assert.Equal(t, g, p)
		b, err := g.MarshalText()
		require.NoError(t, err)
		var back Granularity
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, g, back)
	}
	names := map[string]Granularity{
		"tensor": PerTensor, "row": PerRow, "col": PerCol, "tile1x128": Tile1x128,
		"block128": Block128, "mx": MX, "nvfp4": NVFP4, " Column ": PerCol, "TILE": Tile1x128,
		"block": Block128, "block16x32": Block(16, 32), "tile128x1": Tile128x1, "tile32x1": ColTile(32),
		"nvfp4-16x16": NVFP4Block16, "NVFP4-16X16": NVFP4Block16,
	}
	for s, want := range names {
		g, err := ParseGranularity(s)
		require.NoError(t, err, s)
		assert.Equal(t, want, g, s)
	}
	for _, s := range []string{"", "rows", "tile2x128", "tile1x0", "tile1x-4", "block0", "blockx", "block4x", "tile1x+5", "block99999999999", "mx16", "nvfp4-8x8", "nvfp4-16x32", "nvfp4-"} {
		_, err := ParseGranularity(s)
		assert.ErrorIs(t, err, ErrGranularity, s)
	}
	var g Granularity
	assert.Error(t, g.UnmarshalText([]byte("nope")))
	_, err := Granularity{Kind: 99}.MarshalText()
	assert.ErrorIs(t, err, ErrGranularity)
}

func TestBlockShape(t *testing.T) {
	cases := []struct {
		g      Granularity
		br, bc int
	}{
		{PerTensor, 300, 500}, {PerRow, 1, 500}, {PerCol, 300, 1}, {Tile1x128, 1, 128},
		{Block128, 128, 128}, {MX, 1, 32}, {NVFP4, 1, 16}, {Granularity{Kind: KindTile}, 1, 128},
		{Granularity{Kind: KindBlock}, 128, 128}, {Block(8, 4), 8, 4}, {Tile128x1, 128, 1}, {NVFP4Block16, 16, 16},
	}
	for _, c := range cases {
		br, bc, err := c.g.BlockShape(300, 500)
		require.NoError(t, err)
		assert.Equal(t, [2]int{c.br, c.bc}, [2]int{br, bc}, c.g.String())
	}
	_, _, err := PerRow.BlockShape(0, 5)
	assert.ErrorIs(t, err, ErrShape)
	_, _, err = Granularity{Kind: KindTensor, BlockRows: 3}.BlockShape(4, 4)
	assert.ErrorIs(t, err, ErrGranularity)
	_, _, err = Granularity{Kind: KindNVFP4, BlockRows: 8, BlockCols: 16}.BlockShape(4, 4)
	assert.ErrorIs(t, err, ErrGranularity, "NVFP4 blocks are 1×16 or 16×16 only")
}

// TestAmaxGrid checks every granularity's amax against brute force, and
// the propagation of NaN and Inf.
func TestAmaxGrid(t *testing.T) {
	for si, sh := range [][2]int{{1, 1}, {5, 33}, {130, 17}, {300, 300}} {
		x := normal(t, sh[0], sh[1], 2, uint64(si+10))
		for _, g := range append(Granularities(), Block(3, 5)) {
			br, bc, err := g.BlockShape(x.Rows, x.Cols)
			require.NoError(t, err)
			grid, err := AmaxGrid(x, g)
			require.NoError(t, err)
			require.Equal(t, (x.Rows+br-1)/br, grid.Rows)
			require.Equal(t, (x.Cols+bc-1)/bc, grid.Cols)
			for bi := 0; bi < grid.Rows; bi++ {
				for bj := 0; bj < grid.Cols; bj++ {
					assert.Equal(t, refBlockAmax(x, bi*br, bj*bc, br, bc), float64(grid.At(bi, bj)))
				}
			}
		}
	}
	x := normal(t, 4, 40, 1, 1)
	x.Set(1, 3, float32(math.Inf(-1)))
	x.Set(2, 35, float32(math.NaN()))
	x.Set(2, 36, float32(math.Inf(1)))
	a, err := Amax(x)
	require.NoError(t, err)
	assert.True(t, math.IsNaN(float64(a)), "NaN wins")
	rows, err := AmaxRows(x)
	require.NoError(t, err)
	assert.True(t, math.IsInf(float64(rows[1]), 1))
	assert.True(t, math.IsNaN(float64(rows[2])))
	assert.False(t, math.IsNaN(float64(rows[0])) || math.IsInf(float64(rows[0]), 0))
	cols, err := AmaxCols(x)
	require.NoError(t, err)
	assert.True(t, math.IsInf(float64(cols[3]), 1))
	assert.True(t, math.IsNaN(float64(cols[35])))
	blocks, err := AmaxBlocks(x, 2, 32)
	require.NoError(t, err)
	assert.Equal(t, 2, blocks.Rows)
	assert.True(t, math.IsInf(float64(blocks.At(0, 0)), 1))
	assert.True(t, math.IsNaN(float64(blocks.At(1, 1))))
	_, err = AmaxBlocks(x, 0, 3)
	assert.ErrorIs(t, err, ErrGranularity)
	_, err = Amax(nil)
	assert.ErrorIs(t, err, ErrShape)
	// Negative zero and subnormals.
	y, err := FromRows([][]float32{{float32(math.Copysign(0, -1)), -1e-45}})
	require.NoError(t, err)
	a, err = Amax(y)
	require.NoError(t, err)
	assert.Equal(t, float32(1e-45), a)
}
