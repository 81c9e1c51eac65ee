package scaling

import (
	"math"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/rng"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// colTileInput returns a rows×cols normal tensor with an outlier in the
// first column tile of column 1, a zero column 0 and, where the rows allow,
// tiny values in the last (ragged) tile of the last column.
func colTileInput(t *testing.T, rows, cols int, seed uint64) *Tensor {
	t.Helper()
	x := normal(t, rows, cols, 1, seed)
	for i := 0; i < rows; i++ {
		x.Set(i, 0, 0)
	}
	if cols > 1 {
		x.Set(min(5, rows-1), 1, 3000)
	}
	for i := rows - rows%DefaultTile; i < rows && cols > 2; i++ {
		x.Set(i, cols-1, x.At(i, cols-1)*1e-6)
	}
	return x
}

// TestColTileMatchesFloat64Reference recomputes N×1 tile quantization per
// column tile in float64: amax over the tile's rows (the last tile of each
// column is ragged when N does not divide the rows), the multiplier
// fmt.Max/max(amax, eps) (or its power of two, DeepSeek-V3's round scale),
// the float32 product and fp8's scalar Encode; and Dequantize as dec(q)/s.
func TestColTileMatchesFloat64Reference(t *testing.T) {
	cases := []struct {
		g          Granularity
		rows, cols int
		rule       ScaleRule
	}{
		{Tile128x1, 300, 7, ScaleRule{}}, // tiles of 128, 128, 44 rows
		{Tile128x1, 129, 3, ScaleRule{}}, // a one-row last tile
		{Tile128x1, 256, 5, ScaleRule{}}, // exact
		{Tile128x1, 1, 4, ScaleRule{}},   // one row: one partial tile per column
		{Tile128x1, 300, 6, ScaleRule{Pow2: Pow2Down}},
		{ColTile(5), 13, 6, ScaleRule{}}, // tiles of 5, 5, 3 rows
		{Granularity{Kind: KindColTile}, 200, 3, ScaleRule{}},
	}
	for ci, c := range cases {
		x := colTileInput(t, c.rows, c.cols, uint64(ci+1))
		n := c.g.BlockRows
		if n == 0 {
			n = DefaultTile
		}
		for _, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2} {
			q, err := Quantize(x, f, c.g, Options{Rule: c.rule})
			require.NoError(t, err, "%s %s", c.g, f)
			gr := (c.rows + n - 1) / n
			require.Equal(t, [4]int{n, 1, gr, c.cols}, [4]int{q.BlockRows, q.BlockCols, q.ScaleRows, q.ScaleCols}, "%s", c.g)
			assert.Equal(t, ColTile(n), q.Granularity, "the resolved shape is recorded")
			deq, err := q.Dequantize()
			require.NoError(t, err)
			for j := 0; j < c.cols; j++ {
				for r0 := 0; r0 < c.rows; r0 += n {
					amax := 0.0
					for i := r0; i < min(r0+n, c.rows); i++ {
						amax = math.Max(amax, math.Abs(float64(x.At(i, j))))
					}
					s64 := f.Max() / math.Max(amax, DefaultEps)
					if c.rule.Pow2 == Pow2Down {
						s64 = math.Exp2(math.Floor(math.Log2(s64)))
					}
					s := float32(s64)
					b := (r0/n)*c.cols + j
					require.Equal(t, float32(amax), q.Amax[b], "%s %s amax of tile (%d, %d)", c.g, f, r0/n, j)
					require.Equal(t, s, q.Scales[b], "%s %s scale of tile (%d, %d)", c.g, f, r0/n, j)
					for i := r0; i < min(r0+n, c.rows); i++ {
						want, err := f.Encode(float64(x.At(i, j)*s), fp8.Mode{})
						require.NoError(t, err)
						require.Equal(t, want, q.Codes[i*c.cols+j], "%s %s element (%d, %d)", c.g, f, i, j)
						require.Equal(t, float32(f.Decode(want))/s, deq.At(i, j), "%s %s dequantized (%d, %d)", c.g, f, i, j)
					}
				}
			}
		}
	}
}

// TestColTileIsTransposedRowTile checks the identity DeepSeek-V3's backward
// pass relies on: N×1 tiles of X are 1×N tiles of Xᵀ. Codes, scales and
// amaxes of Tile128x1 on X equal those of Tile1x128 on Xᵀ, transposed back,
// bit for bit; so do the dequantized values, and stochastic rounding when
// each element keeps its random word.
func TestColTileIsTransposedRowTile(t *testing.T) {
	cases := []struct {
		col, row   Granularity
		rows, cols int
	}{
		{Tile128x1, Tile1x128, 300, 37},
		{Tile128x1, Tile1x128, 130, 257},
		{ColTile(7), Tile(7), 50, 9},
	}
	for ci, c := range cases {
		x := colTileInput(t, c.rows, c.cols, uint64(ci+20))
		xt, err := x.Transpose()
		require.NoError(t, err)
		random := make([]uint32, x.Len())
		rng.Fill(random, 9, 1, 0)
		randomT := make([]uint32, x.Len())
		for i := 0; i < c.rows; i++ {
			for j := 0; j < c.cols; j++ {
				randomT[j*c.rows+i] = random[i*c.cols+j]
			}
		}
		stoch := fp8.Mode{Round: fp8.Stochastic, RandomBits: 11}
		for _, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2, fp8.E3M2} {
			for _, o := range [][2]Options{
				{{}, {}},
				{{Rule: ScaleRule{Pow2: Pow2Down}}, {Rule: ScaleRule{Pow2: Pow2Down}}},
				{{Mode: stoch, Random: random}, {Mode: stoch, Random: randomT}},
			} {
				qc, err := Quantize(x, f, c.col, o[0])
				require.NoError(t, err)
				qr, err := Quantize(xt, f, c.row, o[1])
				require.NoError(t, err)
				require.Equal(t, [2]int{qr.ScaleCols, qr.ScaleRows}, [2]int{qc.ScaleRows, qc.ScaleCols}, "%s", c.col)
				for i := 0; i < c.rows; i++ {
					for j := 0; j < c.cols; j++ {
						require.Equal(t, qr.Codes[j*c.rows+i], qc.Codes[i*c.cols+j], "%s %s code (%d, %d)", c.col, f, i, j)
					}
				}
				for b := 0; b < qc.ScaleRows; b++ {
					for j := 0; j < qc.ScaleCols; j++ {
						require.Equal(t, math.Float32bits(qr.Scales[j*qr.ScaleCols+b]), math.Float32bits(qc.Scales[b*qc.ScaleCols+j]), "%s %s scale (%d, %d)", c.col, f, b, j)
						require.Equal(t, qr.Amax[j*qr.ScaleCols+b], qc.Amax[b*qc.ScaleCols+j])
					}
				}
				dc, err := qc.Dequantize()
				require.NoError(t, err)
				dr, err := qr.Dequantize()
				require.NoError(t, err)
				back, err := dr.Transpose()
				require.NoError(t, err)
				require.Equal(t, back.Data, dc.Data, "%s %s dequantized", c.col, f)
			}
		}
	}
}

// TestColTileNames pins the names and the shapes Validate accepts.
func TestColTileNames(t *testing.T) {
	for s, want := range map[string]Granularity{
		"tile128x1": Tile128x1, "TILE64x1": ColTile(64), "tile2x1": ColTile(2),
		"tile1x1":   Tile(1), // the row tile: the same 1×1 blocks
		"tile1x128": Tile1x128, "tile": Tile1x128,
	} {
		g, err := ParseGranularity(s)
		require.NoError(t, err, s)
		assert.Equal(t, want, g, s)
	}
	for _, s := range []string{"tile0x1", "tile128x2", "tile128x", "tilex1", "tile-3x1", "tile+3x1", "tile128x1x1", "tile99999999999x1"} {
		_, err := ParseGranularity(s)
		assert.ErrorIs(t, err, ErrGranularity, s)
	}
	assert.Equal(t, "tile64x1", ColTile(64).String())
	assert.Equal(t, "64×1 tile", ColTile(64).Label())
	assert.ErrorIs(t, Granularity{Kind: KindColTile, BlockRows: 128, BlockCols: 2}.Validate(), ErrGranularity)
	assert.ErrorIs(t, ColTile(-1).Validate(), ErrGranularity)
	assert.ErrorIs(t, ColTile(MaxBlockSide+1).Validate(), ErrGranularity)
	assert.NoError(t, Granularity{Kind: KindColTile, BlockRows: 16}.Validate())
	_, err := ParseGranularity("diagonal")
	assert.ErrorContains(t, err, "tileNx1")
}
