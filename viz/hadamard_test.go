package viz

import (
	"fmt"
	"image"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/viz/plot/plottest"
)

func TestHadamardSpreadsTheOutlier(t *testing.T) {
	s, err := New("hadamard")
	require.NoError(t, err)
	for _, p := range [][2]string{{"format", "E4M3FN"}, {"outlier", "10"}, {"n", "1024"}, {"block", "full"}, {"random_signs", "false"}} {
		require.NoError(t, s.Set(p[0], p[1]))
	}
	f := s.Facts()
	assert.Equal(t, "1024", f["amax_before"])
	// One outlier of 1024 spread over 1024 elements: ±32 plus the bulk.
	after := factFloat(t, f, "amax_after")
	assert.Greater(t, after, 32.0)
	assert.Less(t, after, 32.0+6)
	// The bimodal case: every rotated value is near ±32.
	h := s.(*hadamardScene).after
	mid := 0.0
	for i, c := range h.counts {
		if math.Abs((h.edges[i]+h.edges[i+1])/2) < 16 {
			mid += c
		}
	}
	assert.Zero(t, mid, "no rotated value should be near zero")
	// A block of 16 spreads it less: 1024/4 = 256.
	require.NoError(t, s.Set("block", "16"))
	assert.InDelta(t, 256, factFloat(t, s.Facts(), "amax_after"), 6)
}

func TestHadamardRescuesFP4(t *testing.T) {
	s, _, err := Render("hadamard", nil, 640, 360) // defaults: E2M1, outlier 2^6
	require.NoError(t, err)
	f := s.Facts()
	assert.Equal(t, "E2M1", f["format"])
	assert.Greater(t, factFloat(t, f, "rotated_bulk_sqnr_db"), factFloat(t, f, "plain_bulk_sqnr_db")+6)
	assert.Greater(t, factFloat(t, f, "plain_underflow"), factFloat(t, f, "rotated_underflow"))
}

func TestHadamardRefusesBadCombination(t *testing.T) {
	s, err := New("hadamard")
	require.NoError(t, err)
	require.NoError(t, s.Set("format", "E4M3FNUZ"))
	assert.ErrorIs(t, s.Set("granularity", "mx"), ErrParam, "MX has no FNUZ element type")
	g, _ := s.Get("granularity")
	assert.Equal(t, "tensor", g)
	render(t, s, 640, 360)
}

// TestHadamardFormatsSideBySide checks, at settings whose conclusions
// differ, that the explanation sorts every format of the side-by-side chart
// by what the facts say the rotation does to it, and that the chart's
// numbers are the scene's own experiment in that format.
func TestHadamardFormatsSideBySide(t *testing.T) {
	verdicts := map[string]bool{}
	for _, p := range []map[string]string{nil, {"format": "E4M3FN"}, {"outliers": "0", "format": "E4M3FN"}, {"granularity": "mx", "outlier": "10"}, {"block": "16", "random_signs": "true"}} {
		f, text := explained(t, "hadamard", p)
		var hurt []string
		for _, name := range compareFormats {
			a, b := f.num(name+".plain_sqnr_db"), f.num(name+".rotated_sqnr_db")
			switch verb(a, b) {
			case "raises":
				assert.Regexp(t, `helps [^;]*`+name+` \(\+`, text, "%v %s", p, name)
			case "lowers":
				assert.Regexp(t, `hurts [^;]*`+name+` \(-`, text, "%v %s", p, name)
				hurt = append(hurt, name)
			default:
				assert.Regexp(t, `leaves unchanged [^;]*`+name, text, "%v %s", p, name)
			}
		}
		assert.Equal(t, len(hurt) > 0 && len(hurt) < len(compareFormats) && strings.Contains(text, "helps E"),
			strings.Contains(text, "it helps some formats and hurts others"), p)
		// The chosen format's bar is the chosen format's experiment.
		name := f["format"]
		assert.Equal(t, f["plain_sqnr_db"], f[name+".plain_sqnr_db"], p)
		assert.Equal(t, f["rotated_sqnr_db"], f[name+".rotated_sqnr_db"], p)
		v := verb(f.num("plain_sqnr_db"), f.num("rotated_sqnr_db"))
		verdicts[v] = true
		// "Stored exactly" only when the outliers' error was zero.
		assert.Equal(t, v == "lowers" && f.int("outlier_values") > 0 && f.num("outlier_plain_max_error") == 0,
			strings.Contains(text, "stored exactly"), p)
	}
	assert.True(t, verdicts["raises"] && verdicts["lowers"], "rotation both helps and hurts across the settings: %v", verdicts)
	// By default, FP4 is helped and E4M3FN hurt: the talk's "might be net
	// negative" is on screen without a click.
	f, _ := explained(t, "hadamard", nil)
	assert.Greater(t, f.num("E2M1.rotated_sqnr_db"), f.num("E2M1.plain_sqnr_db"))
	assert.Less(t, f.num("E4M3FN.rotated_sqnr_db"), f.num("E4M3FN.plain_sqnr_db"))
}

func TestHadamardClickSelectsFormat(t *testing.T) {
	s, err := New("hadamard")
	require.NoError(t, err)
	render(t, s, 1280, 720)
	h := s.(*hadamardScene)
	require.NotNil(t, h.gainAx)
	i := slices.Index(compareFormats, "E4M3FN")
	p := h.gainAx.Map(float64(i), 0)
	y := (h.gainAx.Plot.Min.Y + h.gainAx.Plot.Max.Y) / 2
	require.True(t, s.Click(int(p.X), y, 1280, 720))
	got, _ := s.Get("format")
	assert.Equal(t, "E4M3FN", got)
	assert.False(t, s.Click(int(p.X), y, 1280, 720), "already shown")
	assert.False(t, s.Click(2, 2, 1280, 720), "outside the chart")
}

func TestHadamardLoadsTensor(t *testing.T) {
	s, err := New("hadamard")
	require.NoError(t, err)
	assert.ErrorIs(t, s.Set("tensor", "loaded"), ErrParam, "nothing loaded yet")
	tl, ok := s.(TensorLoader)
	require.True(t, ok)
	// A 2-D tensor: its first rows × (a power of two) columns are rotated.
	src, err := scaling.RandomNormal(100, 3000, 1, 7)
	require.NoError(t, err)
	src.Set(2, 5, 200) // one outlier
	require.NoError(t, tl.LoadTensor(src))
	f := s.Facts()
	assert.Equal(t, "loaded", f["tensor"])
	assert.Equal(t, "8", f["rows"])
	assert.Equal(t, "1024", f["cols"])
	assert.Equal(t, "the first 8×1024 of the loaded 100×3000 tensor", f["crop"])
	assert.Equal(t, "1", f["outlier_values"], "200 is beyond 6× the RMS, no N(0, 1) value is")
	h := s.(*hadamardScene)
	for i := 0; i < 8; i++ {
		assert.Equal(t, src.Row(i)[:1024], h.t.Row(i))
	}
	text := strings.Join(s.Explain().Paragraphs(), " ")
	assert.Contains(t, text, "the first 8×1024 of the loaded 100×3000 tensor")
	assert.Contains(t, text, "1 value lies beyond 6 times the RMS")
	img := render(t, s, 1280, 720)
	assert.NotNil(t, img)
	require.NoError(t, s.Set("n", "4096"))
	assert.Equal(t, "2048", s.Facts()["cols"], "3000 columns hold 2048, the largest power of two")
	// A 1-D tensor (1×m) is cut into rows.
	one, err := scaling.RandomNormal(1, 5000, 1, 8)
	require.NoError(t, err)
	require.NoError(t, s.Set("n", "1024"))
	require.NoError(t, tl.LoadTensor(one))
	f = s.Facts()
	assert.Equal(t, "4", f["rows"])
	assert.Equal(t, "the first 4096 values of the loaded 1-D tensor (5000 values), cut into 4 rows of 1024", f["crop"])
	assert.Equal(t, one.Data[1024:2048], s.(*hadamardScene).t.Row(1))
	// Bad tensors are refused and leave the scene as it was.
	bad, err := scaling.NewTensor(3, 1)
	require.NoError(t, err)
	assert.Error(t, tl.LoadTensor(bad))
	nan := one.Clone()
	nan.Data[3] = float32(math.NaN())
	assert.Error(t, tl.LoadTensor(nan))
	assert.Equal(t, f["crop"], s.Facts()["crop"])
	// Back to the synthetic tensor and again to the loaded one.
	require.NoError(t, s.Set("tensor", "synthetic"))
	assert.Empty(t, s.Facts()["crop"])
	require.NoError(t, s.Set("tensor", "loaded"))
	assert.Equal(t, f["crop"], s.Facts()["crop"])
}

// The note under the rotated histogram ("outlier ÷ √N = …") and the error
// chart's note are placed like labels (plot.Axes.Note): at every size the
// brief of issue 13 named, the desktop app's 980×417 picture included,
// each covers no bar or curve, even one drawn after it; where the plot is
// tall enough for the strip its axis reserves, it is drawn.
func TestHadamardNotesCoverNoData(t *testing.T) {
	var mu sync.Mutex
	var placed []plottest.LegendPlacement
	stop := plottest.ObserveLegends(func(p plottest.LegendPlacement) {
		mu.Lock()
		placed = append(placed, p)
		mu.Unlock()
	})
	defer stop()
	sizes := []image.Point{{480, 270}, {1280, 720}, {757, 594}, {1432, 889}, {1105, 3537}, {980, 417}}
	for _, set := range []map[string]string{nil, {"block": "256"}, {"outlier": "20", "format": "E4M3FN"}, {"n": "256", "rows": "64", "outliers": "8"}} {
		for _, sz := range sizes {
			s, err := New("hadamard")
			require.NoError(t, err)
			require.NoError(t, SetAll(s, set))
			mu.Lock()
			placed = placed[:0]
			mu.Unlock()
			img := image.NewRGBA(image.Rect(0, 0, sz.X, sz.Y))
			require.NoError(t, RenderFor(s, img, Display{}))
			h := s.(*hadamardScene)
			want := fmt.Sprintf("outlier ÷ √%d = ", h.block)
			const errNote = "zero error is not drawn on the log axis"
			notes := map[string]plottest.LegendPlacement{} // by which note
			mu.Lock()
			for _, p := range placed {
				switch {
				case strings.HasPrefix(p.Text, want):
					notes["histogram"] = p
				case p.Text == errNote:
					notes["errors"] = p
				}
			}
			mu.Unlock()
			at := fmt.Sprintf("%v at %v", set, sz)
			require.Contains(t, notes, "histogram", "%s: the histogram's note is not placed as a label", at)
			for k, p := range notes {
				if p.Omitted {
					assert.False(t, sz.X >= 1280 && sz.Y >= 720, "%s: the %s note left out at a size with room for it", at, k)
					continue
				}
				assert.Zero(t, p.Covered, "%s: the %s note covers data when placed", at, k)
				assert.Zero(t, p.Axes.CoveredData(p.Box.Inset(-2)), "%s: the %s note covers data once drawn", at, k)
			}
			if sz.X >= 1280 && sz.Y >= 720 {
				assert.Contains(t, notes, "errors", "%s: the error chart and its note", at)
			}
		}
	}
}
