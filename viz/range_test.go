package viz

import (
	"fmt"
	"image"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/viz/plot"
)

func TestRangePlacesMaxima(t *testing.T) {
	for _, span := range []string{"fp8", "all"} {
		s, _, err := Render("range", map[string]string{"span": span}, 1280, 720)
		require.NoError(t, err)
		f := s.Facts()
		x := func(k string) float64 {
			v, err := strconv.ParseFloat(f[k], 64)
			require.NoError(t, err, k)
			return v
		}
		assert.Equal(t, "448", f["E4M3FN.max"])
		assert.Equal(t, "57344", f["E5M2.max"])
		assert.Equal(t, "65504", f["FP16.max"])
		assert.Greater(t, x("E5M2.max_x"), x("E4M3FN.max_x"), span)
		assert.Greater(t, x("E4M3FN.max_x"), x("E4M3FNUZ.max_x"), span)
		assert.Greater(t, x("E4M3FNUZ.max_x"), x("E2M1.max_x"), span)
		assert.Less(t, x("E5M2.min_subnormal_x"), x("E4M3FN.min_subnormal_x"), span)
		// The axis is honestly log2: distances are proportional to binades.
		got := (x("E5M2.max_x") - x("E4M3FN.max_x")) / (x("FP16.max_x") - x("E4M3FN.max_x"))
		want := (math.Log2(57344) - math.Log2(448)) / (math.Log2(65504) - math.Log2(448))
		assert.InDelta(t, want, got, 0.01, span)
	}
}

func TestRangeFormatsParam(t *testing.T) {
	s, err := New("range")
	require.NoError(t, err)
	require.NoError(t, s.Set("formats", " e4m3fn , bf16"))
	v, _ := s.Get("formats")
	assert.Equal(t, "E4M3FN,BF16", v)
	assert.ErrorIs(t, s.Set("formats", "E4M3FN,FP7"), ErrParam)
	assert.ErrorIs(t, s.Set("formats", ""), ErrParam)
	v, _ = s.Get("formats")
	assert.Equal(t, "E4M3FN,BF16", v)
	// The focus choices follow the formats.
	require.NoError(t, s.Set("focus", "bf16"))
	assert.ErrorIs(t, s.Set("focus", "E5M2"), ErrParam)
	require.NoError(t, s.Set("formats", "E5M2,E4M3FN"))
	v, _ = s.Get("focus")
	assert.Equal(t, "none", v, "the focused format left the list")
	require.NoError(t, s.Set("focus", "E5M2"))
	render(t, s, 640, 360)
	assert.Equal(t, "0.25", s.Facts()["E5M2.eps"])
}

func TestRangeClickFocusesLane(t *testing.T) {
	s, err := New("range")
	require.NoError(t, err)
	render(t, s, 1280, 720)
	lane := s.(*rangeScene).lanes[1]
	require.True(t, s.Click(lane.Min.X+20, (lane.Min.Y+lane.Max.Y)/2, 1280, 720))
	v, _ := s.Get("focus")
	assert.Equal(t, "E5M2", v)
	require.True(t, s.Click(lane.Min.X+20, (lane.Min.Y+lane.Max.Y)/2, 1280, 720))
	v, _ = s.Get("focus")
	assert.Equal(t, "none", v)
}

func TestSawtooth(t *testing.T) {
	// E2M1: 0.5 1 1.5 2 3 4 6. Spacing 0.5 until 2, then 1, then 2.
	xs, ys := sawtooth([]float64{0.5, 1, 1.5, 2, 3, 4, 6}, false)
	assert.Equal(t, []float64{0.5, 2, 2, 4, 4, 6}, xs)
	assert.Equal(t, []float64{0.5, 0.5, 1, 1, 2, 2}, ys)
	_, rel := sawtooth([]float64{0.5, 1, 1.5, 2, 3, 4, 6}, true)
	assert.Equal(t, []float64{1, 0.25, 0.5, 0.25, 0.5, 1.0 / 3}, rel)
}

// TestRangeOverflowThresholds: each format's threshold against exact values
// worked out by hand from the bit patterns (DESIGN.md §3), and the codec.
func TestRangeOverflowThresholds(t *testing.T) {
	s, err := New("range")
	require.NoError(t, err)
	require.NoError(t, s.Set("formats", "E4M3FN,E5M2,E4M3FNUZ,E2M1,FP16,BF16"))
	f := s.Facts()
	want := map[string]struct {
		t         float64
		inclusive bool
	}{
		"E4M3FN":   {464, false},                                 // 448 = 1.110·2⁸ is even: the tie stays
		"E5M2":     {61440, true},                                // 57344 = 1.11·2¹⁵ is odd
		"E4M3FNUZ": {248, true},                                  // 240 = 1.111·2⁷ is odd
		"E2M1":     {7, true},                                    // 6 = 1.1·2² is odd
		"FP16":     {65520, true},                                // 65504 = (2−2⁻¹⁰)·2¹⁵ is odd
		"BF16":     {math.Ldexp(2-math.Ldexp(1, -8), 127), true}, // max (2−2⁻⁷)·2¹²⁷
	}
	for name, w := range want {
		got, err := strconv.ParseFloat(f[name+".overflow_threshold"], 64)
		require.NoError(t, err, name)
		assert.Equal(t, w.t, got, name)
		assert.Equal(t, strconv.FormatBool(w.inclusive), f[name+".overflow_inclusive"], name)
	}
	for _, name := range []string{"E4M3FN", "E5M2", "E4M3FNUZ", "E2M1"} {
		fm, err := fp8.Lookup(name)
		require.NoError(t, err)
		m := fp8.Mode{Round: fp8.NearestEven}
		assert.Equal(t, want[name].inclusive, fm.Overflows(want[name].t, m), name)
		assert.True(t, fm.Overflows(math.Nextafter(want[name].t, math.Inf(1)), m), name)
		assert.False(t, fm.Overflows(math.Nextafter(want[name].t, 0), m), name)
	}
}

// TestRangeNothingClipped: at every size the legend lies inside the picture,
// beside the plots (above them on a phone's stacked canvas), and every lane is tall enough for the axis to label it
// (its label's height plus the 2 px the axis keeps between y labels).
func TestRangeNothingClipped(t *testing.T) {
	for _, formats := range []string{defaultRangeFormats, "E4M3FN,E5M2,E4M3FNUZ,E5M2FNUZ,E4M3,E3M4,FP16,BF16"} {
		for _, sz := range [][2]int{{480, 270}, {640, 360}, {1024, 768}, {1920, 1080}, {357, 1152}} {
			s, err := New("range")
			require.NoError(t, err)
			require.NoError(t, s.Set("formats", formats))
			img := render(t, s, sz[0], sz[1])
			r := s.(*rangeScene)
			assert.True(t, r.legend.In(img.Bounds()), "%v: legend %v outside the picture", sz, r.legend)
			st := newStyle(sz[0], sz[1], Display{})
			if st.stacked {
				assert.LessOrEqual(t, r.legend.Max.Y, r.plots.Min.Y, "%v: legend over the plots", sz)
				assert.Equal(t, img.Bounds().Dx()-2*r.plots.Min.X, r.plots.Dx(), "%v: plots as wide as the picture", sz)
			} else {
				assert.GreaterOrEqual(t, r.legend.Min.X, r.plots.Max.X, "%v: legend over the plots", sz)
			}
			need := plot.MeasureText("Xg", plot.TextStyle{Size: st.th.TickSize}).Height() + 2 // the axis keeps 2 px between y labels
			n := len(r.lanes)
			step := float64(r.lanes[n-1].Min.Y-r.lanes[0].Min.Y) / float64(n-1)
			if n == 8 && sz[0] == 480 {
				continue // eight lanes and a spacing plot do not fit 270 px: the axis labels every other lane
			}
			assert.GreaterOrEqual(t, step, float64(need), "%v %s: lanes too short for their labels", sz, formats)
		}
	}
}

// TestRangeExplainFollowsFacts: three settings whose conclusions differ; each
// comparison and each overflow claim is checked against the facts.
func TestRangeExplainFollowsFacts(t *testing.T) {
	for _, formats := range []string{"E4M3FN,E5M2", "E5M2,E4M3FN", "E4M3FN,E4M3FNUZ", "E2M1,FP16"} {
		s, err := New("range")
		require.NoError(t, err)
		require.NoError(t, s.Set("formats", formats))
		f := facts(s.Facts())
		text := strings.Join(s.Explain().Paragraphs(), " ")
		names := strings.Split(formats, ",")
		a, b := names[0], names[1]
		wider := map[bool]string{true: "more", false: "fewer"}[f.num(a+".binades") > f.num(b+".binades")]
		if f.num(a+".binades") == f.num(b+".binades") {
			wider = "as many"
		}
		finer := map[bool]string{true: "finer", false: "coarser"}[f.num(a+".eps") < f.num(b+".eps")]
		if f.num(a+".eps") == f.num(b+".eps") {
			finer = "as fine"
		}
		assert.Regexp(t, a+" spans "+wider+" powers of two than "+b+` \([^)]*\) and is `+finer, text, formats)
		for _, n := range names {
			if f[n+".overflow_inclusive"] == "true" {
				assert.Contains(t, text, n+" from "+f[n+".overflow_threshold"]+" (the tie goes to the even step", formats)
			} else {
				assert.Contains(t, text, n+" above "+f[n+".overflow_threshold"]+" (the tie rounds back to "+f[n+".max"], formats)
			}
		}
	}
}

// TestRangeLaneLabelsClear: on a phone (the scene page's 357×1152 canvas at
// ×1 and ×3), on the 1024×768 page's short canvas (991×541) and on wider
// pictures, every lane label (max and overflow
// threshold, extremes beyond the axis) lies inside its lane, covers no
// marker and no other label, and none is left out where there is room
// (only the 480×270 layout, eight lanes in 270 px, may leave one out).
func TestRangeLaneLabelsClear(t *testing.T) {
	sizes := []struct {
		w, h int
		d    Display
	}{{357, 1152, Display{PixelRatio: 1}}, {1071, 3456, Display{PixelRatio: 3}}, {390, 1300, Display{}}, {480, 270, Display{}}, {991, 541, Display{}}, {980, 570, Display{}}, {1024, 768, Display{}}, {1920, 1080, Display{}}}
	for _, formats := range []string{defaultRangeFormats, "E4M3FN,E5M2,E4M3FNUZ,E5M2FNUZ,E4M3,E3M4,FP16,BF16"} {
		for _, span := range []string{"fp8", "all"} {
			for _, sz := range sizes {
				s, err := New("range")
				require.NoError(t, err)
				require.NoError(t, SetAll(s, map[string]string{"formats": formats, "span": span}))
				img := image.NewRGBA(image.Rect(0, 0, sz.w, sz.h))
				require.NoError(t, RenderFor(s, img, sz.d))
				r := s.(*rangeScene)
				at := fmt.Sprintf("%s %s %dx%d", formats, span, sz.w, sz.h)
				if sz.w > MinWidth {
					assert.Empty(t, r.unlabelled, "%s: labels left out", at)
				}
				require.NotEmpty(t, r.labels, at)
				area := r.lanes[0].Union(r.lanes[len(r.lanes)-1])
				for i, l := range r.labels {
					assert.True(t, l.In(area), "%s: label %v outside the lanes %v", at, l, area)
					for _, m := range r.marks {
						assert.False(t, l.Overlaps(m), "%s: label %v covers marker %v", at, l, m)
					}
					for _, o := range r.labels[i+1:] {
						assert.False(t, l.Overlaps(o), "%s: labels %v and %v overlap", at, l, o)
					}
				}
			}
		}
	}
}
