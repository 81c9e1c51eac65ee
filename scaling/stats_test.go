package scaling

import (
	"fmt"
	"math"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/stretchr/testify/require"
)

// TestQuantizeWithStatsMatchesMeasure checks the statistics gathered in the
// encode pass against Measure's decode pass: the same codes, the same
// counts, and sums equal up to the order of addition.
func TestQuantizeWithStatsMatchesMeasure(t *testing.T) {
	outliers, err := MakeOutlierTensor(OutlierSpec{Rows: 256, Cols: 640, Seed: 7, OutlierRows: []int{3, 200}, RowFactor: 1e5})
	require.NoError(t, err)
	normal, err := RandomNormal(300, 1000, 3, 5) // ragged blocks, several chunks per worker
	require.NoError(t, err)
	random := make([]uint32, normal.Len())
	for i := range random {
		random[i] = uint32(i) * 0x9E3779B9
	}
	for _, x := range []*Tensor{outliers, normal} {
		for _, c := range []struct {
			f    *fp8.Format
			g    Granularity
			opts Options
		}{
			{fp8.E4M3FN, PerTensor, Options{}},
			{fp8.E5M2, PerTensor, Options{Mode: fp8.Mode{Round: fp8.TowardZero}}},
			{fp8.E4M3FN, PerRow, Options{}},
			{fp8.E4M3FN, PerCol, Options{}},
			{fp8.E4M3FN, Tile1x128, Options{}},
			{fp8.E4M3FN, Block128, Options{Mode: fp8.Mode{Overflow: fp8.NoSaturate}}},
			{fp8.E4M3FN, MX, Options{}},
			{fp8.E2M1, MX, Options{}},
			{fp8.E2M1, NVFP4, Options{}},
			{fp8.E4M3FN, PerTensor, Options{Rule: ScaleRule{Margin: -2}}}, // scale 4× too large: overflow
		} {
			t.Run(fmt.Sprintf("%dx%d/%s/%s/%s", x.Rows, x.Cols, c.f, c.g, c.opts.Mode.Round), func(t *testing.T) {
				opts := c.opts
				q, err := Quantize(x, c.f, c.g, opts)
				require.NoError(t, err)
				q2, st, err := QuantizeWithStats(x, c.f, c.g, opts)
				require.NoError(t, err)
				require.Equal(t, q.Codes, q2.Codes)
				m, err := Measure(x, q)
				require.NoError(t, err)
				require.Equal(t, m.Elements, st.Elements)
				require.Equal(t, m.NonFinite, st.NonFinite)
				require.Equal(t, m.Overflow, st.Overflow)
				require.Equal(t, m.Underflow, st.Underflow)
				require.InEpsilon(t, m.MSE, st.MSE, 1e-9)
				if math.IsInf(m.SQNR, 0) {
					require.Equal(t, m.SQNR, st.SQNR)
				} else {
					require.InDelta(t, m.SQNR, st.SQNR, 1e-9)
				}
			})
		}
	}
	// Stochastic rounding: the "can overflow" count and the sums.
	opts := Options{Mode: fp8.Mode{Round: fp8.Stochastic, RandomBits: 16}, Random: random}
	q, err := Quantize(normal, fp8.E4M3FN, Tile1x128, opts)
	require.NoError(t, err)
	_, st, err := QuantizeWithStats(normal, fp8.E4M3FN, Tile1x128, opts)
	require.NoError(t, err)
	m, err := Measure(normal, q)
	require.NoError(t, err)
	require.Equal(t, m.Overflow, st.Overflow)
	require.Equal(t, m.Underflow, st.Underflow)
	require.InEpsilon(t, m.MSE, st.MSE, 1e-9)
}
