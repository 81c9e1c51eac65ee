package viz

import (
	"fmt"
	"image"
	"strconv"
	"sync"
	"testing"

	"github.com/fp8lab/fp8lab/viz/plot/plottest"
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

// No legend and no label of any scene hides drawn data (bars, curves and
// their points, bar and marker labels), even data drawn after it: every
// legend Axes.Legend places, every marker and band label, and every legend
// drawn beside the plots (DrawLegend, DrawInlineLegend) covers, once the
// picture is drawn, no data pixel of any axes of the picture, at every size
// and setting; only in the smallest layout (MinWidth×MinHeight) may a
// legend or label with no free place be left out. Sizes rotate over the
// settings beyond the defaults to keep the test quick; the defaults are
// drawn at every size.
func TestLegendsCoverNoData(t *testing.T) {
	var mu sync.Mutex
	var placed []plottest.LegendPlacement
	var axes []*plottest.Axes
	stop := plottest.ObserveLegends(func(p plottest.LegendPlacement) {
		mu.Lock()
		placed = append(placed, p)
		mu.Unlock()
	})
	defer stop()
	stopAxes := plottest.ObserveAxes(func(a *plottest.Axes) {
		mu.Lock()
		axes = append(axes, a)
		mu.Unlock()
	})
	defer stopAxes()
	kinds := map[plottest.PlacementKind]string{plottest.PlacedLegend: "legend", plottest.PlacedLabel: "label", plottest.PlacedBeside: "legend beside the plots"}
	total, omitted := map[plottest.PlacementKind]int{}, map[plottest.PlacementKind]int{}
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
				placed, axes = placed[:0], axes[:0]
				mu.Unlock()
				img := image.NewRGBA(image.Rect(0, 0, sz.w, sz.h))
				require.NoError(t, RenderFor(sc, img, sz.d), "%s %v %dx%d", name, set, sz.w, sz.h)
				mu.Lock()
				for _, p := range placed {
					total[p.Kind]++
					at := fmt.Sprintf("%s %v at %dx%d (ratio %g): %s %v", name, set, sz.w, sz.h, sz.d.PixelRatio, kinds[p.Kind], p.Box)
					if p.Omitted {
						omitted[p.Kind]++
						assert.True(t, sz.w <= MinWidth && sz.h <= MinHeight, "%s left out of plot %v at a size with room for it", at, p.Plot)
						continue
					}
					assert.Zero(t, p.Covered, "%s covers %d data pixels of plot %v when placed", at, p.Covered, p.Plot)
					for _, a := range axes {
						if p.Axes == a || (p.Axes == nil && p.On(a)) {
							assert.Zero(t, a.CoveredData(p.Box), "%s covers %d data pixels of plot %v once drawn", at, a.CoveredData(p.Box), a.Plot)
						}
					}
				}
				mu.Unlock()
			}
		}
	}
	assert.Greater(t, total[plottest.PlacedLegend], 100, "legends checked")
	assert.Greater(t, total[plottest.PlacedLabel], 100, "labels checked")
	assert.Greater(t, total[plottest.PlacedBeside], 50, "legends beside the plots checked")
	// A chart without its key cannot be read: at 480×270 dither's two
	// charts (about 100×40 pixels each) give their titles, axis labels and
	// long names up for their keys, hadamard's SQNR chart its title.
	assert.Zero(t, omitted[plottest.PlacedLegend], "legends left out")
	for k, name := range kinds {
		t.Logf("%d %s placements checked, %d left out at %dx%d for want of room", total[k], name, omitted[k], MinWidth, MinHeight)
	}
}
