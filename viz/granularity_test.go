package viz

import (
	"image"
	"image/color"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/viz/plot"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGranularityFinerScalesProtectSmallRows(t *testing.T) {
	s, _, err := Render("granularity", nil, 640, 360)
	require.NoError(t, err)
	f := s.Facts()
	// Whole-tensor SQNR barely differs, the worst row tells the story.
	assert.InDelta(t, factFloat(t, f, "tensor.sqnr_db"), factFloat(t, f, "row.sqnr_db"), 3)
	assert.Greater(t, factFloat(t, f, "row.worst_row_db"), factFloat(t, f, "tensor.worst_row_db")+10)
	assert.Greater(t, factFloat(t, f, "tile1x128.worst_row_db"), factFloat(t, f, "block128.worst_row_db")+10)
	assert.Greater(t, factFloat(t, f, "tensor.underflow"), factFloat(t, f, "row.underflow"))
	assert.Equal(t, "1", f["tensor.scales"])
	assert.Equal(t, "256", f["row.scales"])
	assert.Equal(t, "512", f["tile1x128.scales"])
	assert.Equal(t, "4", f["block128.scales"])
	assert.Equal(t, "2048", f["mx.scales"])
	assert.Equal(t, "4096", f["nvfp4.scales"])
	assert.Equal(t, "E2M1", f["nvfp4.format"])
	// Without outliers every granularity does about as well.
	require.NoError(t, s.Set("outlier_rows", "0"))
	f = s.Facts()
	assert.InDelta(t, factFloat(t, f, "tensor.worst_row_db"), factFloat(t, f, "row.worst_row_db"), 3)
}

// lutPos returns the position in [0, 1] of a Viridis colour, or -1 for a
// colour not in the map (a NaN cell, a frame).
func lutPos(lut []color.RGBA) func(color.RGBA) float64 {
	pos := map[color.RGBA]float64{}
	for i, c := range lut {
		if _, ok := pos[c]; !ok {
			pos[c] = float64(i) / float64(len(lut)-1)
		}
	}
	return func(c color.RGBA) float64 {
		if p, ok := pos[c]; ok {
			return p
		}
		return -1
	}
}

// Every outlier row shows in the input map and in every scale map with a
// scale per row, at the smallest layout and at 1280×720: some pixel row
// among those covering it is bright across the map, while the rows
// between outliers stay dark. A map drawn by sampling one cell per pixel
// would drop rows at these sizes (2 to 3 rows a pixel).
func TestGranularityOutlierRowsInEveryMap(t *testing.T) {
	pos := lutPos(plot.Viridis.LUT())
	step := 1 / float64(len(plot.Viridis.LUT())-1)
	for _, set := range []map[string]string{nil, {"outlier_rows": "16", "seed": "3"}, {"outlier_rows": "1", "factor": "8", "format": "E2M1"}} {
		for _, sz := range []image.Point{{480, 270}, {1280, 720}} {
			s, img, err := Render("granularity", set, sz.X, sz.Y)
			require.NoError(t, err)
			g := s.(*granularityScene)
			outl := g.outlierRows()
			require.NotEmpty(t, outl)
			isOut := map[int]bool{}
			for _, i := range outl {
				isOut[i] = true
			}
			checked := 0
			for _, m := range g.maps {
				if m.kind == "sqnr" || m.rows != granSide {
					continue // patch maps and maps with no scale per row
				}
				checked++
				v := m.v.WithRange(0, 1)
				var grid [][]float64
				if m.kind == "input" {
					grid = g.logx
				} else {
					for _, c := range g.cases {
						if c.key == m.key {
							grid = c.scale
						}
					}
				}
				// The brightness every pixel row over outlier row i must
				// reach: for a scale map the smallest scale of the row (a
				// max-pooled pixel shows at least that); for the input map
				// 2^(factor-4), which 95 % of N(0,1) outlier values pass.
				bright := func(i int) float64 {
					if m.kind == "input" {
						return v.Map(float64(g.ps.int("factor") - 4))
					}
					lo := math.Inf(1)
					for _, x := range grid[i] {
						lo = math.Min(lo, x)
					}
					return v.Map(lo)
				}
				frac := func(y int, thr float64) float64 {
					n := 0
					for x := m.r.Min.X; x < m.r.Max.X; x++ {
						if pos(img.RGBAAt(x, y)) >= thr-step {
							n++
						}
					}
					return float64(n) / float64(m.r.Dx())
				}
				need := 1.0
				if m.kind == "input" {
					need = 0.75
				}
				// Pixel row y of a map H pixels tall shows grid rows
				// [y·256/H, (y+1)·256/H), at least one.
				H := m.r.Dy()
				span := func(y int) (int, int) {
					r0 := y * granSide / H
					return r0, max((y+1)*granSide/H, r0+1)
				}
				for _, i := range outl {
					best, over := 0.0, 0
					for y := 0; y < H; y++ {
						if r0, r1 := span(y); r0 <= i && i < r1 {
							best = math.Max(best, frac(m.r.Min.Y+y, bright(i)))
							over++
						}
					}
					assert.GreaterOrEqual(t, best, need, "%v %v: outlier row %d in the %s map of %s (%d pixel rows of %d over it)", set, sz, i, m.kind, m.key, over, H)
				}
				// A pixel row covering no outlier is not bright: the test
				// tells outliers from the rest.
				if m.kind == "input" {
					thr := bright(outl[0])
					for y := 0; y < H; y++ {
						r0, r1 := span(y)
						hit := false
						for i := r0; i < r1; i++ {
							hit = hit || isOut[i]
						}
						if !hit {
							assert.Less(t, frac(m.r.Min.Y+y, thr), 0.05, "%v %v: pixel row %d has no outlier", set, sz, y)
						}
					}
				}
			}
			assert.Equal(t, 5, checked, "the input map and the scale maps of row, 1×128 tile, MX and NVFP4")
		}
	}
}

// mxSaturated counts, independently of scaling and fp8's encoders, the
// values of t that MX with the floor rule clamps: with X = 2^(floor(log2
// amax) - emax) per 32-value block, those with |x/X| above max + half the
// last step below it (round to nearest first, then compare). Ties at that
// midpoint round to max, whose last mantissa bit is even in E4M3FN.
func mxSaturated(t *scaling.Tensor, f *fp8.Format, emax int) int {
	mx := f.Max()
	e := math.Floor(math.Log2(mx))
	half := math.Exp2(e-float64(f.Spec().ManBits)) / 2
	n := 0
	for b := 0; b < len(t.Data); b += 32 {
		amax := 0.0
		for _, x := range t.Data[b : b+32] {
			amax = math.Max(amax, math.Abs(float64(x)))
		}
		X := math.Exp2(math.Floor(math.Log2(amax)) - float64(emax))
		for _, x := range t.Data[b : b+32] {
			if math.Abs(float64(x))/X > mx+half {
				n++
			}
		}
	}
	return n
}

// The explanation's claims follow the facts in settings whose conclusions
// differ: outliers present or not, MX saturating or not (the count checked
// against an independent one). TestSweep checks every claim over the controls.
func TestExplainGranularityFollowsFacts(t *testing.T) {
	saturating := map[bool]bool{}
	for _, p := range []map[string]string{nil, {"mx_rounding": "ceil"}, {"outlier_rows": "0"}, {"format": "E5M2"},
		{"outlier_rows": "0", "outlier_cols": "4", "format": "E2M1"}, {"factor": "0", "mx_rounding": "nearest-even"}, {"tensor": "gradients", "outlier_rows": "0"}, {"tensor": "lognormal"}} {
		f, text := explained(t, "granularity", p)
		outliers := (f.int("outlier_rows") > 0 || f.int("outlier_cols") > 0) && f.int("factor_log2") > 0
		assert.Equal(t, !outliers, strings.Contains(text, "without outliers"), p)
		n := f.int("mx.overflow")
		saturating[n > 0] = true
		if n > 0 {
			assert.Contains(t, text, "MX with the "+f["mx_rounding"]+" rule for its scale X: "+strconv.Itoa(n)+" values saturate", p)
		} else {
			assert.Contains(t, text, "MX with the "+f["mx_rounding"]+" rule for its scale X: no value saturates", p)
		}
		if f["mx_rounding"] == "ceil" {
			assert.Zero(t, n, "ceil never saturates")
		}
	}
	assert.True(t, saturating[true] && saturating[false], "settings with and without MX saturation")
	// The count is the independent one.
	s, err := New("granularity")
	require.NoError(t, err)
	g := s.(*granularityScene)
	require.NoError(t, g.compute())
	emax, err := scaling.MXEmax(fp8.E4M3FN)
	require.NoError(t, err)
	want := mxSaturated(g.t, fp8.E4M3FN, emax)
	assert.Positive(t, want)
	assert.Equal(t, strconv.Itoa(want), g.Facts()["mx.overflow"])
}

func TestGranularityLoadsTensors(t *testing.T) {
	s, err := New("granularity")
	require.NoError(t, err)
	assert.ErrorIs(t, s.Set("tensor", "loaded"), ErrParam, "nothing loaded yet")
	l := s.(TensorLoader)
	big, err := scaling.RandomNormal(300, 1000, 1, 5)
	require.NoError(t, err)
	big.Set(2, 3, 1e6)  // inside the first 256×256: its row and block show it
	big.Set(280, 3, -7) // outside: cropped away
	require.NoError(t, l.LoadTensor(big))
	f := facts(s.Facts())
	assert.Equal(t, "loaded", f["tensor"])
	assert.Equal(t, "first 256×256 of a loaded 300×1000 tensor", f["source"])
	g := s.(*granularityScene)
	assert.Equal(t, float32(1e6), g.t.At(2, 3))
	assert.Equal(t, big.At(255, 255), g.t.At(255, 255))
	paras := s.Explain().Paragraphs()
	assert.Contains(t, strings.Join(paras, " "), "The first 256×256 of a loaded 300×1000 tensor, quantized to E4M3FN")
	assert.NotContains(t, strings.Join(paras, " "), "outliers choose", "no claim about outliers a loaded tensor may not have")
	_, err = RenderScene(s, 1024, 768)
	require.NoError(t, err)
	// A vector is read row by row; a second load recomputes.
	vec, err := scaling.RandomNormal(1, 70000, 1, 6)
	require.NoError(t, err)
	require.NoError(t, l.LoadTensor(vec))
	assert.Equal(t, "first 65536 values of a loaded 1×70000 tensor, as 256 rows of 256", s.Facts()["source"])
	assert.Equal(t, vec.Data[256], g.t.At(1, 0))
	// Too small, or not finite: refused, the scene unchanged.
	small, err := scaling.RandomNormal(100, 100, 1, 7)
	require.NoError(t, err)
	err = l.LoadTensor(small)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "needs a 256×256 matrix")
	small.Data[0] = float32(math.NaN())
	require.Error(t, l.LoadTensor(small))
	assert.Equal(t, "first 65536 values of a loaded 1×70000 tensor, as 256 rows of 256", s.Facts()["source"])
	require.NoError(t, s.Set("tensor", "normal"))
	assert.Equal(t, "3", s.Facts()["outlier_rows"])
}

func TestGranularityClickPicksFocus(t *testing.T) {
	s, err := New("granularity")
	require.NoError(t, err)
	const w, h = 1024, 768
	_, err = RenderScene(s, w, h)
	require.NoError(t, err)
	g := s.(*granularityScene)
	for i, c := range g.cases {
		r := g.cols[i]
		changed := s.Click((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2, w, h)
		assert.Equal(t, c.key != "mx" || i > 0, changed || c.key == "mx", c.key)
		v, _ := s.Get("focus")
		assert.Equal(t, c.key, v)
	}
	assert.False(t, s.Click(2, 2, w, h), "the title bar picks nothing")
}
