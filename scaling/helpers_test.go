package scaling

import (
	"math"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/stretchr/testify/require"
)

// normal returns a seeded normal tensor or fails the test.
func normal(t testing.TB, rows, cols int, std float64, seed uint64) *Tensor {
	t.Helper()
	x, err := RandomNormal(rows, cols, std, seed)
	require.NoError(t, err)
	return x
}

// elementFormats returns the element formats a granularity accepts, from
// what the kind does rather than which kind it is: its own format where it
// has one, the OCP MX v1.0 element types (Table 1) under E8M0 scales, every
// signed preset under float32 scales.
func elementFormats(g Granularity) []*fp8.Format {
	if e := g.ElementFormat(); e != nil {
		return []*fp8.Format{e}
	}
	if g.Scales() == ScaleE8M0 {
		return []*fp8.Format{fp8.E4M3FN, fp8.E5M2, fp8.E3M2, fp8.E2M3, fp8.E2M1}
	}
	var out []*fp8.Format
	for _, f := range fp8.Presets() {
		if f.Signed() {
			out = append(out, f)
		}
	}
	return out
}

// refBlockAmax computes a block's amax in float64 by brute force.
func refBlockAmax(x *Tensor, i0, j0, br, bc int) float64 {
	m := 0.0
	for i := i0; i < min(i0+br, x.Rows); i++ {
		for j := j0; j < min(j0+bc, x.Cols); j++ {
			m = math.Max(m, math.Abs(float64(x.At(i, j))))
		}
	}
	return m
}

// info returns the format's facts.
func info(f *fp8.Format) fp8.Info { return f.Info() }
