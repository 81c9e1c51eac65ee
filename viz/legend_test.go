package viz

import (
	"fmt"
	"image"
	"strconv"
	"sync"
	"testing"

	"github.com/fp8lab/fp8lab/viz/plot"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// legendSizes are the pictures the legend test draws: the smallest size a
// scene lays out, a projector-sized canvas at ×1 and ×2 pixel ratio, and a
// full-HD screen.
var legendSizes = []struct {
	w, h int
	d    Display
}{
	{480, 270, Display{}},
	{1024, 768, Display{PixelRatio: 1}},
	{2048, 1536, Display{PixelRatio: 2}},
	{1920, 1080, Display{}},
}

// legendSettings returns settings of s to draw: the defaults, then for
// every choice each other option and for every integer and number its
// smallest and largest value, one parameter at a time.
func legendSettings(s Scene) []map[string]string {
	out := []map[string]string{{}}
	for _, p := range s.Params() {
		switch p.Kind {
		case ParamChoice:
			for _, o := range p.Options {
				if o != p.Default {
					out = append(out, map[string]string{p.Name: o})
				}
			}
		case ParamBool:
			out = append(out, map[string]string{p.Name: strconv.FormatBool(p.Default != "true")})
		case ParamInt, ParamNumber:
			for _, v := range []float64{p.Min, p.Max} {
				if s := strconv.FormatFloat(v, 'g', -1, 64); s != p.Default {
					out = append(out, map[string]string{p.Name: s})
				}
			}
		}
	}
	return out
}

// No legend of any scene hides drawn data (bars, curves and their points,
// bar and marker labels): every placement Axes.Legend makes while a scene
// renders, at every size and setting, covers no data pixel; only in the
// smallest layout (MinWidth×MinHeight) may a legend with no free place be
// left out. Sizes rotate over the settings beyond the defaults to keep the
// test quick; the defaults are drawn at every size.
func TestLegendsCoverNoData(t *testing.T) {
	var mu sync.Mutex
	var placed []plot.LegendPlacement
	stop := plot.ObserveLegends(func(p plot.LegendPlacement) {
		mu.Lock()
		placed = append(placed, p)
		mu.Unlock()
	})
	defer stop()
	total, omitted := 0, 0
	for _, name := range Names() {
		s, err := New(name)
		require.NoError(t, err)
		for i, set := range legendSettings(s) {
			sizes := legendSizes
			if i > 0 {
				sizes = sizes[i%len(sizes) : i%len(sizes)+1]
			}
			for _, sz := range sizes {
				sc, err := New(name)
				require.NoError(t, err)
				if err := SetAll(sc, set); err != nil {
					continue // a combination the scene refuses
				}
				mu.Lock()
				placed = placed[:0]
				mu.Unlock()
				img := image.NewRGBA(image.Rect(0, 0, sz.w, sz.h))
				require.NoError(t, RenderFor(sc, img, sz.d), "%s %v %dx%d", name, set, sz.w, sz.h)
				mu.Lock()
				for _, p := range placed {
					total++
					if p.Omitted {
						omitted++
						assert.True(t, sz.w <= MinWidth && sz.h <= MinHeight, "%s %v at %dx%d: a legend left out of plot %v at a size with room for it", name, set, sz.w, sz.h, p.Plot)
						continue
					}
					assert.Zero(t, p.Covered, "%s %v at %dx%d (ratio %g): legend %v covers %d data pixels of plot %v",
						name, set, sz.w, sz.h, sz.d.PixelRatio, p.Box, p.Covered, p.Plot)
				}
				mu.Unlock()
			}
		}
	}
	assert.Greater(t, total, 100, fmt.Sprintf("legends checked: %d", total))
	t.Logf("%d legend placements checked, %d left out at %dx%d for want of room", total, omitted, MinWidth, MinHeight)
}
