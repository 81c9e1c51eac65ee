package train

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
)

// An operand stored as (K, other) is rounded where it lies (or through a
// K-major copy where scaling has no granularity for its blocks there) to
// exactly what quantizing its K-major transpose gives, and counted alike:
// checked against scaling on the transpose for every kind of granularity,
// on shapes whose sides the blocks divide and shapes they do not.
func TestPrepareStoredMatchesKMajor(t *testing.T) {
	gs := []scaling.Granularity{scaling.PerTensor, scaling.PerRow, scaling.PerCol, scaling.Tile(4),
		scaling.Tile1x128, scaling.Block(8, 4), scaling.Block128, scaling.MX, scaling.NVFP4}
	shapes := [][2]int{{256, 48}, {100, 37}} // K (the stored rows), other
	r := rand.New(rand.NewPCG(5, 5))
	for _, g := range gs {
		for _, sh := range shapes {
			K, other := sh[0], sh[1]
			format := "e4m3fn"
			if g.Kind == scaling.KindNVFP4 {
				format = "e2m1"
			}
			op := Operand{Format: format, Granularity: g}
			rec := &Recipe{Name: "t", WeightGrad: Product{Input: op, GradOutput: op}}
			e, err := newLinearEngine(Tiny(), rec, 1)
			require.NoError(t, err)
			src := make([]float32, K*other)
			for i := range src {
				src[i] = float32(r.NormFloat64() * float64(1+i%7)) // uneven rows and columns
			}
			src[3] = 1e-12 // flushes to zero
			km := make([]float32, K*other)
			transpose(km, src, K, other)
			xt, err := scaling.FromSlice(other, K, km)
			require.NoError(t, err)
			f, err := fp8.Lookup(format)
			require.NoError(t, err)
			q, err := scaling.Quantize(xt, f, g, scaling.Options{})
			if err != nil {
				continue // a shape the granularity does not take
			}
			deq, err := q.Dequantize()
			require.NoError(t, err)
			want := make([]float32, K*other)
			transpose(want, deq.Data, other, K)

			got, err := e.prepare(0, 2, 0, src, K, other, false)
			require.NoError(t, err, "%s %v", g, sh)
			assert.False(t, got.kmajor, "%s: the product reads src's layout", g)
			require.Equal(t, want, got.data, "%s %v", g, sh)
			wantStats := count(km, deq.Data, q)
			st := e.snapshot()
			require.Len(t, st, 1)
			assert.Equal(t, wantStats.Underflow, st[0].Underflow, "%s %v", g, sh)
			assert.Equal(t, wantStats.Overflow, st[0].Overflow, "%s %v", g, sh)
			assert.Equal(t, wantStats.Amax, st[0].Amax, "%s %v", g, sh)
			assert.Positive(t, st[0].Underflow, "%s %v", g, sh)
		}
	}
}
