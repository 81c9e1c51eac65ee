package viz

import (
	"bytes"
	"image"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/dither"
	"github.com/fp8lab/fp8lab/dither/quality"
	"github.com/fp8lab/fp8lab/viz/plot/plottest"
)

func TestDitherNearestAndStochasticDiffer(t *testing.T) {
	s, err := New("dither")
	require.NoError(t, err)
	img := render(t, s, 1280, 720)
	d := s.(*ditherScene)
	assert.NotEqual(t, d.nearest.Pix(), d.frame0.Pix(), "a stochastic frame equals round to nearest")
	// On the picture: the nearest panel and the stochastic panel differ.
	cells := panelCells(t, 1280, 720)
	assert.False(t, bytes.Equal(crop(img, cells[1]), crop(img, cells[2])))
	f := s.Facts()
	assert.Greater(t, factFloat(t, f, "psnr_average_db"), factFloat(t, f, "psnr_stochastic_1_db")+6, "averaging 16 frames must help")
	// The running mean is the dither package's own mean of N frames.
	o := dither.Options{Method: dither.Stochastic, Levels: 2, Frames: 16, Seed: 1, RandomBits: 32}
	want, err := dither.Dither(d.img, o)
	require.NoError(t, err)
	assert.Equal(t, want.Pix(), d.avg.Pix())
}

// panelCells recomputes the six image cells of a w×h dither picture, as
// Render lays them out.
func panelCells(t *testing.T, w, h int) []image.Rectangle {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	st, body, err := begin(img, Display{}, "Dithering and stochastic rounding", "x")
	require.NoError(t, err)
	cols := splitCols(t, body, st.px(24), 1.85, 1)
	return gridCells(t, cols[0], 2, 3, st.px(10))
}

func crop(img *image.RGBA, r image.Rectangle) []byte {
	var out []byte
	for y := r.Min.Y; y < r.Max.Y; y++ {
		out = append(out, img.Pix[img.PixOffset(r.Min.X, y):img.PixOffset(r.Max.X, y)]...)
	}
	return out
}

func TestDitherGrowsN(t *testing.T) {
	s, err := New("dither")
	require.NoError(t, err)
	a, ok := s.(Animator)
	require.True(t, ok)
	get := func(name string) string { v, _ := s.Get(name); return v }
	// Setting N by hand stops the growth: the two controls never pull N
	// different ways.
	require.Equal(t, "true", get("animate"))
	require.NoError(t, s.Set("frames", "1"))
	assert.Equal(t, "false", get("animate"))
	assert.False(t, a.Animate(), "N stays where it was put")
	assert.Equal(t, "1", get("frames"))
	require.NoError(t, s.Set("animate", "true"))
	for i := 0; i < 10; i++ {
		require.True(t, a.Animate())
	}
	assert.Equal(t, "11", get("frames"))
	// Facts, explanation and caption all read the one frames parameter.
	f := s.Facts()
	assert.Equal(t, "11", f["frames"])
	assert.Contains(t, strings.Join(s.Explain().Paragraphs(), " "), "The mean of 11 stochastic frames")
	assert.Contains(t, strings.Join(s.Explain().Paragraphs(), " "), "Grow N live is on")
	assert.Greater(t, factFloat(t, f, "psnr_average_db"), factFloat(t, f, "psnr_stochastic_1_db"))
	// Going back to fewer frames recomputes the mean.
	require.NoError(t, s.Set("frames", "4"))
	assert.Equal(t, "false", get("animate"))
	assert.NotContains(t, strings.Join(s.Explain().Paragraphs(), " "), "Grow N live is on")
	o := dither.Options{Method: dither.Stochastic, Levels: 2, Frames: 4, Seed: 1, RandomBits: 32}
	want, err := dither.Dither(s.(*ditherScene).img, o)
	require.NoError(t, err)
	assert.Equal(t, want.Pix(), s.(*ditherScene).avg.Pix())
	// The growth stops itself at 256 and clears the box.
	require.NoError(t, s.Set("frames", "255"))
	require.NoError(t, s.Set("animate", "true"))
	assert.True(t, a.Animate())
	assert.Equal(t, "256", get("frames"))
	assert.Equal(t, "false", get("animate"))
	assert.False(t, a.Animate(), "N stops at 256")
	// Ticking the box at 256 starts again from 1, so it always acts.
	require.NoError(t, s.Set("animate", "true"))
	assert.Equal(t, "1", get("frames"))
	assert.True(t, a.Animate())
	assert.Equal(t, "2", get("frames"))
}

// TestDitherEyeMeasures checks, at settings whose conclusions differ, that
// the explanation names the winner of each measure as the facts rank them,
// and says whether the rankings differ.
func TestDitherEyeMeasures(t *testing.T) {
	blurWinners := map[string]bool{}
	for _, p := range []map[string]string{nil, {"blur": "0.5"}, {"blur": "0.25"}, {"grid": "E2M1", "view": "blurred"}} {
		f, text := explained(t, "dither", p)
		best := func(val func(k string) float64, txt func(float64) string) string {
			top := math.Inf(-1)
			for _, m := range ditherMethods {
				top = math.Max(top, val(m.key))
			}
			var names []string
			for _, m := range ditherMethods {
				if txt(val(m.key)) == txt(top) {
					names = append(names, m.name)
				}
			}
			return strings.Join(names, " and ")
		}
		raw := best(func(k string) float64 { return f.num(ditherRaw(k)) }, dbText)
		blur := best(func(k string) float64 { return f.num("blur_psnr_" + k + "_db") }, dbText)
		ssim := best(func(k string) float64 { return f.num("ssim_" + k) }, ssimText)
		assert.Contains(t, text, "the best one-frame method is "+raw+" (", p)
		assert.Contains(t, text, "the best is "+blur+" (", p)
		assert.Contains(t, text, "ranks "+ssim+" first", p)
		assert.Equal(t, raw != blur, strings.Contains(text, "The rankings differ"), p)
		assert.Equal(t, raw == blur, strings.Contains(text, "Both PSNRs rank the same method first"), p)
		if raw != blur && ssim == raw {
			assert.Contains(t, text, "SSIM sides with raw PSNR", p)
		}
		blurWinners[blur] = true
		// "Fine-grained" only when the blur raises the blurred winner more
		// than the raw winner.
		gain := func(name string) float64 {
			for _, m := range ditherMethods {
				if strings.HasPrefix(name, m.name) {
					return f.num("blur_psnr_"+m.key+"_db") - f.num(ditherRaw(m.key))
				}
			}
			t.Fatalf("no method %q", name)
			return 0
		}
		assert.Equal(t, raw != blur && gain(blur) > gain(raw), strings.Contains(text, "is fine-grained"), p)
	}
	assert.Len(t, blurWinners, 3, "settings whose conclusions differ: %v", blurWinners)
	// The case: raw PSNR ranks Floyd–Steinberg below rounding to
	// nearest, the blurred PSNR above it.
	f, _ := explained(t, "dither", nil)
	assert.Less(t, f.num("psnr_floyd_db"), f.num("psnr_nearest_db"))
	assert.Greater(t, f.num("blur_psnr_floyd_db"), f.num("blur_psnr_nearest_db"))
	// SSIM and the blurred PSNR of the scene are dither's own.
	s, err := New("dither")
	require.NoError(t, err)
	require.NoError(t, s.Set("blur", "2"))
	d := s.(*ditherScene)
	want, err := quality.BlurredPSNR(d.img, d.floyd, 2)
	require.NoError(t, err)
	assert.Equal(t, fact(want), s.Facts()["blur_psnr_floyd_db"])
	q, err := quality.SSIM(d.img, d.nearest)
	require.NoError(t, err)
	assert.Equal(t, fact(q), s.Facts()["ssim_nearest"])
}

func TestDitherTinyUpdates(t *testing.T) {
	s, err := New("dither")
	require.NoError(t, err)
	f := s.Facts()
	assert.Equal(t, "1", f["tiny_nearest_final"], "round to nearest stalls: 2^-10 is below half of BF16's spacing at 1")
	exact := factFloat(t, f, "tiny_exact_final")
	assert.InDelta(t, exact, factFloat(t, f, "tiny_stochastic_final"), 0.05*exact)
	// With one random bit stochastic rounding is biased toward zero and
	// with an update this small it never moves (probability floor(u/step·2)/2 = 0).
	require.NoError(t, s.Set("bits", "1"))
	assert.Equal(t, "1", s.Facts()["tiny_stochastic_final"])
}

// TestDitherPhoneChartsHaveHeight: on a phone (the scene page's 357×1152
// CSS canvas at ×2 and ×3, and a wider 412×1340 one), each chart's plot
// area is at least a third as tall as it is wide once its title and legend
// have their room, and the pictures above keep their captions.
func TestDitherPhoneChartsHaveHeight(t *testing.T) {
	var axes []*plottest.Axes
	stop := plottest.ObserveAxes(func(a *plottest.Axes) { axes = append(axes, a) })
	defer stop()
	for _, sz := range []struct {
		w, h int
		r    float64
	}{{357, 1152, 2}, {357, 1152, 3}, {412, 1340, 3}} {
		s, err := New("dither")
		require.NoError(t, err)
		axes = axes[:0]
		img := image.NewRGBA(image.Rect(0, 0, int(float64(sz.w)*sz.r), int(float64(sz.h)*sz.r)))
		require.NoError(t, RenderFor(s, img, Display{PixelRatio: sz.r}))
		require.Len(t, axes, 2, "the two charts")
		for _, a := range axes {
			assert.GreaterOrEqual(t, 3*a.Plot.Dy(), a.Plot.Dx(), "%v at ×%g: plot %v too short", sz, sz.r, a.Plot)
		}
	}
}

// TestDitherChartsReadableAt1024: on the 1024×768 page's canvas beside
// the controls (757×594) and at 1280×720 both charts are drawn, each plot
// area at least 64 px tall (three tick labels of 14-px type) and showing
// at least three y tick labels (at the old 991×541 canvas the legends
// stacked above them left 52 and 54 px, the PSNR chart one label); tick
// labels are the texts at the tick size drawn left of the plot area,
// beside it.
func TestDitherChartsReadableAt1024(t *testing.T) {
	var axes []*plottest.Axes
	stop := plottest.ObserveAxes(func(a *plottest.Axes) { axes = append(axes, a) })
	defer stop()
	for _, sz := range []image.Point{{757, 594}, {1280, 720}} {
		s, err := New("dither")
		require.NoError(t, err)
		axes = axes[:0]
		_, boxes := renderRecorded(t, s, image.Rectangle{Max: sz}, Display{PixelRatio: 1})
		require.Len(t, axes, 2, "the two charts")
		for i, a := range axes {
			assert.GreaterOrEqual(t, a.Plot.Dy(), 64, "%v: chart %d's plot %v", sz, i, a.Plot)
			ticks := 0
			for _, b := range boxes {
				mid := (b.Box.Min.Y + b.Box.Max.Y) / 2
				if math.Abs(b.Size-a.Theme.TickSize) < 0.1 && b.Box.Min.X >= a.Outer.Min.X && b.Box.Max.X <= a.Plot.Min.X &&
					mid >= a.Plot.Min.Y && mid <= a.Plot.Max.Y {
					ticks++
				}
			}
			assert.GreaterOrEqual(t, ticks, 3, "%v: chart %d's y tick labels", sz, i)
		}
	}
}
