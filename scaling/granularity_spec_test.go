package scaling

import (
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGranularityTable pins what the table of per-granularity behaviour
// says for every kind, through the exported accessors.
func TestGranularityTable(t *testing.T) {
	cases := []struct {
		g              Granularity
		name, label    string
		br, bc         int // block shape in a 300×500 tensor
		scales         ScaleKind
		scaleFormat    *fp8.Format
		element        *fp8.Format
		tensorScale    bool
		takesShape     bool
		wholeRows, col bool
	}{
		{PerTensor, "tensor", "tensor", 300, 500, ScaleFloat32, nil, nil, false, false, true, true},
		{PerRow, "row", "row", 1, 500, ScaleFloat32, nil, nil, false, false, true, false},
		{PerCol, "col", "column", 300, 1, ScaleFloat32, nil, nil, false, false, false, true},
		{Tile1x128, "tile1x128", "1×128 tile", 1, 128, ScaleFloat32, nil, nil, false, true, false, false},
		{Tile(64), "tile1x64", "1×64 tile", 1, 64, ScaleFloat32, nil, nil, false, true, false, false},
		{Granularity{Kind: KindTile}, "tile1x128", "1×128 tile", 1, 128, ScaleFloat32, nil, nil, false, true, false, false},
		{Block128, "block128", "128×128 block", 128, 128, ScaleFloat32, nil, nil, false, true, false, false},
		{Block(32, 64), "block32x64", "32×64 block", 32, 64, ScaleFloat32, nil, nil, false, true, false, false},
		{Granularity{Kind: KindBlock}, "block128", "128×128 block", 128, 128, ScaleFloat32, nil, nil, false, true, false, false},
		{MX, "mx", "MX", 1, 32, ScaleE8M0, fp8.E8M0, nil, false, true, false, false},
		{Granularity{Kind: KindMX}, "mx", "MX", 1, 32, ScaleE8M0, fp8.E8M0, nil, false, true, false, false},
		{NVFP4, "nvfp4", "NVFP4", 1, 16, ScaleE4M3, fp8.E4M3FN, fp8.E2M1, true, true, false, false},
		{NVFP4Block16, "nvfp4-16x16", "NVFP4 16×16", 16, 16, ScaleE4M3, fp8.E4M3FN, fp8.E2M1, true, true, false, false},
		{Tile128x1, "tile128x1", "128×1 tile", 128, 1, ScaleFloat32, nil, nil, false, true, false, false},
		{ColTile(64), "tile64x1", "64×1 tile", 64, 1, ScaleFloat32, nil, nil, false, true, false, false},
		{Granularity{Kind: KindColTile}, "tile128x1", "128×1 tile", 128, 1, ScaleFloat32, nil, nil, false, true, false, false},
	}
	for _, c := range cases {
		g := c.g
		require.NoError(t, g.Validate(), "%+v", g)
		assert.Equal(t, c.name, g.String())
		assert.Equal(t, c.label, g.Label())
		br, bc, err := g.BlockShape(300, 500)
		require.NoError(t, err)
		assert.Equal(t, [2]int{c.br, c.bc}, [2]int{br, bc}, "%s", g)
		assert.Equal(t, c.scales, g.Scales(), "%s", g)
		assert.Equal(t, c.scales == ScaleFloat32, g.FloatScales(), "%s", g)
		assert.Same(t, c.scaleFormat, g.ScaleFormat(), "%s", g)
		assert.Same(t, c.element, g.ElementFormat(), "%s", g)
		assert.Equal(t, c.tensorScale, g.HasTensorScale(), "%s", g)
		assert.Equal(t, c.takesShape, g.TakesBlockShape(), "%s", g)
		assert.Equal(t, c.wholeRows, g.WholeRows(), "%s", g)
		assert.Equal(t, c.col, g.WholeCols(), "%s", g)
		assert.NotEmpty(t, g.Description(), "%s", g)
		assert.Equal(t, granularitySpecs[g.Kind].syntax, g.Syntax())
		back, err := ParseGranularity(g.String())
		require.NoError(t, err)
		wantBack := g
		if g.TakesBlockShape() {
			wantBack.BlockRows, wantBack.BlockCols = br, bc
		}
		assert.Equal(t, wantBack, back, "%s", g)
	}
}

// TestGranularitiesOnePerKind checks that Granularities lists every kind
// of the table once, in Kind order, with its default shape.
func TestGranularitiesOnePerKind(t *testing.T) {
	gs := Granularities()
	require.Len(t, gs, len(granularitySpecs))
	assert.Equal(t, []Granularity{PerTensor, PerRow, PerCol, Tile1x128, Block128, MX, NVFP4, Tile128x1}, gs)
	for k, g := range gs {
		assert.Equal(t, Kind(k), g.Kind)
		assert.NoError(t, g.Validate())
		assert.NotEmpty(t, granularitySpecs[k].name)
		assert.NotEmpty(t, granularitySpecs[k].syntax)
		assert.NotEmpty(t, granularitySpecs[k].shapeHelp)
		if !g.FloatScales() {
			assert.NotEmpty(t, granularitySpecs[k].scaleSource, "%s", g)
		}
	}
}

func TestUnknownKindAccessors(t *testing.T) {
	g := Granularity{Kind: 42}
	assert.ErrorIs(t, g.Validate(), ErrGranularity)
	assert.Equal(t, "Granularity(42)", g.String())
	assert.Equal(t, "Granularity(42)", g.Label())
	assert.True(t, g.FloatScales(), "unknown kinds fall through to Validate's error")
	assert.Nil(t, g.ScaleFormat())
	assert.Nil(t, g.ElementFormat())
	assert.False(t, g.TakesBlockShape())
	assert.False(t, g.WholeRows())
	assert.False(t, g.WholeCols())
	assert.Empty(t, g.Description())
	assert.Empty(t, g.Syntax())
}
