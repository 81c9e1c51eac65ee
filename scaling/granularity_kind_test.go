package scaling

import (
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kindVariants returns every kind's default granularity and a few other
// shapes of the kinds that take one.
func kindVariants() []Granularity {
	return append(Granularities(), Tile(5), ColTile(5), Block(8, 4), NVFP4Block16)
}

// TestTransposeIsTheQuantizationOfTheTranspose checks what the table's
// transpose column claims by quantizing: where Transpose gives gᵀ,
// quantizing Xᵀ with gᵀ equals Quantized.Transpose of quantizing X with g,
// bit for bit, and gᵀᵀ is g; where it gives none, no kind's swapped block
// shape covers Xᵀ as g covers X with the same kind of scales.
func TestTransposeIsTheQuantizationOfTheTranspose(t *testing.T) {
	x := normal(t, 37, 70, 2, 9)
	x.Set(3, 5, 900)
	x.Set(30, 66, 1e-4)
	xt, err := x.Transpose()
	require.NoError(t, err)
	for _, g := range kindVariants() {
		f := elementFormats(g)[0]
		q, err := Quantize(x, f, g, Options{})
		require.NoError(t, err, "%s", g)
		gt, ok := g.Transpose()
		if !ok {
			_, err := q.Transpose()
			assert.ErrorIs(t, err, ErrGranularity, "%s", g)
			br, bc, err := g.BlockShape(x.Rows, x.Cols)
			require.NoError(t, err)
			for k := range granularitySpecs {
				h := Granularity{Kind: Kind(k)}
				if h.TakesBlockShape() {
					h.BlockRows, h.BlockCols = bc, br
				}
				hr, hc, err := h.BlockShape(xt.Rows, xt.Cols)
				covers := err == nil && hr == bc && hc == br && h.Scales() == g.Scales()
				assert.False(t, covers, "%s has no transpose in the table, but %s covers Xᵀ as it covers X", g, h)
			}
			continue
		}
		back, ok := gt.Transpose()
		require.True(t, ok, "%s: %s has no transpose", g, gt)
		assert.Equal(t, q.Granularity, back, "%s: the transpose of %s", g, gt)
		want, err := Quantize(xt, f, gt, Options{})
		require.NoError(t, err, "%s", gt)
		got, err := q.Transpose()
		require.NoError(t, err, "%s", g)
		assert.Equal(t, want, got, "%s on X, transposed, is %s on Xᵀ (the table's transpose, %s)", g, gt, testenv.Step("Add a granularity", 2))
	}
	_, err = (*Quantized)(nil).Transpose()
	assert.ErrorIs(t, err, ErrShape)
}

// TestElementFormatsQuantize checks ElementFormats against Quantize: every
// listed format quantizes, every other preset is refused with ErrFormat,
// and the list is the helper's, which is decided by the kind's scales.
func TestElementFormatsQuantize(t *testing.T) {
	x := normal(t, 2, 40, 1, 3)
	for _, g := range kindVariants() {
		listed := g.ElementFormats()
		assert.ElementsMatch(t, formatNames(elementFormats(g)), formatNames(listed),
			"%s (an OCP MX element type goes in mxElements and elementFormats, %s)", g, testenv.Step("Add a format", 5))
		for _, f := range fp8.Presets() {
			_, err := Quantize(x, f, g, Options{})
			if assert.Contains(t, fp8.Presets(), f); containsFormat(listed, f) {
				assert.NoError(t, err, "%s %s", g, f.Name())
			} else {
				assert.ErrorIs(t, err, ErrFormat, "%s %s", g, f.Name())
			}
		}
	}
}

func formatNames(fs []*fp8.Format) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name()
	}
	return out
}

func containsFormat(fs []*fp8.Format, f *fp8.Format) bool {
	for _, e := range fs {
		if e == f {
			return true
		}
	}
	return false
}
