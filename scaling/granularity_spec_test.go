package scaling

import (
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/testenv"
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
		gpu            bool
		transpose      string // the name of Transpose's granularity, "" for none
	}{
		{PerTensor, "tensor", "tensor", 300, 500, ScaleFloat32, nil, nil, false, false, true, true, true, "tensor"},
		{PerRow, "row", "row", 1, 500, ScaleFloat32, nil, nil, false, false, true, false, true, "col"},
		{PerCol, "col", "column", 300, 1, ScaleFloat32, nil, nil, false, false, false, true, false, "row"},
		{Tile1x128, "tile1x128", "1×128 tile", 1, 128, ScaleFloat32, nil, nil, false, true, false, false, true, "tile128x1"},
		{Tile(64), "tile1x64", "1×64 tile", 1, 64, ScaleFloat32, nil, nil, false, true, false, false, true, "tile64x1"},
		{Granularity{Kind: KindTile}, "tile1x128", "1×128 tile", 1, 128, ScaleFloat32, nil, nil, false, true, false, false, true, "tile128x1"},
		{Block128, "block128", "128×128 block", 128, 128, ScaleFloat32, nil, nil, false, true, false, false, true, "block128"},
		{Block(32, 64), "block32x64", "32×64 block", 32, 64, ScaleFloat32, nil, nil, false, true, false, false, true, "block64x32"},
		{Granularity{Kind: KindBlock}, "block128", "128×128 block", 128, 128, ScaleFloat32, nil, nil, false, true, false, false, true, "block128"},
		{MX, "mx", "MX", 1, 32, ScaleE8M0, fp8.E8M0, nil, false, true, false, false, true, ""},
		{Granularity{Kind: KindMX}, "mx", "MX", 1, 32, ScaleE8M0, fp8.E8M0, nil, false, true, false, false, true, ""},
		{NVFP4, "nvfp4", "NVFP4", 1, 16, ScaleE4M3, fp8.E4M3FN, fp8.E2M1, true, true, false, false, false, ""},
		{NVFP4Block16, "nvfp4-16x16", "NVFP4 16×16", 16, 16, ScaleE4M3, fp8.E4M3FN, fp8.E2M1, true, true, false, false, false, "nvfp4-16x16"},
		{Tile128x1, "tile128x1", "128×1 tile", 128, 1, ScaleFloat32, nil, nil, false, true, false, false, false, "tile1x128"},
		{ColTile(64), "tile64x1", "64×1 tile", 64, 1, ScaleFloat32, nil, nil, false, true, false, false, false, "tile1x64"},
		{Granularity{Kind: KindColTile}, "tile128x1", "128×1 tile", 128, 1, ScaleFloat32, nil, nil, false, true, false, false, false, "tile1x128"},
	}
	covered := map[Kind]bool{}
	for _, c := range cases {
		g := c.g
		covered[g.Kind] = true
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
		assert.Equal(t, c.gpu, g.GPUQuantizes(), "%s", g)
		tr, ok := g.Transpose()
		assert.Equal(t, c.transpose != "", ok, "%s", g)
		if ok {
			assert.Equal(t, c.transpose, tr.String(), "%s", g)
		}
		back, err := ParseGranularity(g.String())
		require.NoError(t, err)
		wantBack := g
		if g.TakesBlockShape() {
			wantBack.BlockRows, wantBack.BlockCols = br, bc
		}
		assert.Equal(t, wantBack, back, "%s", g)
	}
	kindsCovered(t, covered, testenv.Step("Add a granularity", 4))
}

// kindsCovered fails t for every kind of the table that covered lacks.
func kindsCovered(t *testing.T, covered map[Kind]bool, step string) {
	t.Helper()
	for _, g := range Granularities() {
		assert.True(t, covered[g.Kind], "%s has no row here (%s)", g, step)
	}
}

// TestGranularitiesOnePerKind checks that Granularities lists every kind
// of the table once, in Kind order, with a default shape that its name
// reads back as, and that each exported default appears in it.
func TestGranularitiesOnePerKind(t *testing.T) {
	gs := Granularities()
	require.Len(t, gs, len(granularitySpecs))
	names := map[string]bool{}
	for k, g := range gs {
		assert.Equal(t, Kind(k), g.Kind)
		require.NoError(t, g.Validate())
		step := testenv.Step("Add a granularity", 2)
		assert.NotEmpty(t, granularitySpecs[k].name, step)
		assert.NotEmpty(t, granularitySpecs[k].syntax, step)
		assert.NotEmpty(t, granularitySpecs[k].shapeHelp, step)
		assert.NotEmpty(t, granularitySpecs[k].desc, step)
		assert.False(t, names[g.String()], "%s twice", g)
		names[g.String()] = true
		back, err := ParseGranularity(granularitySpecs[k].name)
		require.NoError(t, err)
		assert.Equal(t, g, back)
		if g.TakesBlockShape() {
			assert.Positive(t, g.BlockRows*g.BlockCols, "%s: the default shape is filled in", g)
		}
		if !g.FloatScales() {
			assert.NotEmpty(t, granularitySpecs[k].scaleSource, "%s", g)
		}
	}
	for _, g := range []Granularity{PerTensor, PerRow, PerCol, Tile1x128, Block128, MX, NVFP4, Tile128x1} {
		assert.Contains(t, gs, g)
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
	assert.False(t, g.GPUQuantizes())
	_, ok := g.Transpose()
	assert.False(t, ok)
	assert.Empty(t, g.ElementFormats())
}
