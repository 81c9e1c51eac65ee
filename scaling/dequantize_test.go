package scaling

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// DequantizeInto, on every path (a table per long run of one scale, one
// scale per element, blocks; power-of-two scales multiplied by their
// inverse), gives each element dec(code)/Scales[b], or dec(code)·factor for
// MX and NVFP4, in float32, bit for bit.
func TestDequantizeIntoMatchesElementwise(t *testing.T) {
	shapes := [][2]int{{3, 700}, {64, 48}, {600, 5}, {1, 1}, {40, 1024}}
	gs := append(Granularities(), ColTile(16), Tile(4), Block(8, 4))
	rules := []ScaleRule{{}, {Pow2: Pow2Down}, {Pow2: Pow2Up, Margin: 3}}
	cases := 0
	for _, g := range gs {
		for ri, rule := range rules {
			if !g.FloatScales() && ri > 0 {
				break
			}
			for k, sh := range shapes {
				fs := elementFormats(g)
				f := fs[k%len(fs)]
				// Values from 1e-20 up, so that the scales reach far.
				x := normal(t, sh[0], sh[1], math.Pow(10, float64(10*k-20)), uint64(10+k))
				q, err := Quantize(x, f, g, Options{Rule: rule})
				if err != nil {
					continue // a shape the granularity does not take
				}
				cases++
				got := make([]float32, x.Len())
				for i := range got {
					got[i] = float32(math.NaN()) // stale values must not survive
				}
				require.NoError(t, q.DequantizeInto(got))
				for i := range q.Rows {
					for j := range q.Cols {
						b := (i/q.BlockRows)*q.ScaleCols + j/q.BlockCols
						v := f.Decode32(q.Codes[i*q.Cols+j])
						var want float32
						if g.FloatScales() {
							want = v / q.Scales[b]
						} else {
							want = v * float32(q.BlockDecodeScale(b))
						}
						if math.Float32bits(want) != math.Float32bits(got[i*q.Cols+j]) {
							t.Fatalf("%s %s %v: element (%d, %d) is %g, want %g", g, f.Name(), sh, i, j, got[i*q.Cols+j], want)
						}
					}
				}
				deq, err := q.Dequantize()
				require.NoError(t, err)
				assert.Equal(t, got, deq.Data)
			}
		}
	}
	assert.Greater(t, cases, 50)
}

func TestDequantizeIntoLength(t *testing.T) {
	q, err := Quantize(normal(t, 4, 8, 1, 1), elementFormats(PerTensor)[0], PerTensor, Options{})
	require.NoError(t, err)
	assert.ErrorIs(t, q.DequantizeInto(make([]float32, 31)), ErrShape)
	assert.Error(t, (&Quantized{}).DequantizeInto(nil))
}
