package scaling

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/fp8"
)

// The row-by-row pipeline (Quantize for per-row, 1×N and MX blocks) gives
// what the whole-tensor passes give (QuantizeWithStats still takes them):
// the same codes, scales and amaxes, and for a tensor holding non-finite
// values the same error, naming the first such block in row-major order,
// whichever worker meets it first.
func TestQuantizeByRowsMatchesWholeTensorPasses(t *testing.T) {
	x, err := RandomNormal(300, 512, 40, 7)
	require.NoError(t, err)
	for _, g := range []Granularity{PerRow, Tile1x128, MX, Tile(96)} {
		for _, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2} {
			l, err := newLayout(g, x.Rows, x.Cols)
			require.NoError(t, err)
			require.True(t, byRows(l, g, Options{}, nil), "%s takes the row pipeline", g)
			q, err := Quantize(x, f, g, Options{})
			require.NoError(t, err)
			want, _, err := QuantizeWithStats(x, f, g, Options{})
			require.NoError(t, err)
			assert.Equal(t, want.Codes, q.Codes, "%s %s", g, f)
			assert.Equal(t, want.Scales, q.Scales, "%s %s", g, f)
			assert.Equal(t, want.Amax, q.Amax, "%s %s", g, f)
			assert.Equal(t, want.ScaleCodes, q.ScaleCodes, "%s %s", g, f)
		}
		// Non-finite values in two rows, the later one placed where a
		// second worker would meet it first.
		bad := &Tensor{Rows: x.Rows, Cols: x.Cols, Data: append([]float32(nil), x.Data...)}
		bad.Data[250*bad.Cols+7] = float32(math.NaN())
		bad.Data[41*bad.Cols+300] = float32(math.Inf(-1))
		_, err := Quantize(bad, fp8.E4M3FN, g, Options{})
		require.ErrorIs(t, err, ErrNonFinite)
		l, _ := newLayout(g, bad.Rows, bad.Cols)
		assert.Contains(t, err.Error(), fmt.Sprintf("block (41, %d) of %s holds +Inf", 300/l.bc, g), "%s", g)
		_, _, errWhole := QuantizeWithStats(bad, fp8.E4M3FN, g, Options{})
		assert.Equal(t, errWhole.Error(), err.Error(), "%s", g)
	}
}
