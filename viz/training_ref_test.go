package viz

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/viz/plot"
	"github.com/fp8lab/fp8lab/viz/plot/plottest"
)

// shippedRun is what the tests read of a run in the shipped record, with
// encoding/json alone (not train/records, not train/compare).
type shippedRun struct {
	Recipe struct {
		Name string `json:"name"`
	} `json:"recipe"`
	Seed      uint64    `json:"seed"`
	TrainLoss []float64 `json:"train_loss"`
	Val       []struct {
		Step int     `json:"step"`
		Loss float64 `json:"loss"`
	} `json:"val"`
	Stats []struct {
		Operands []struct {
			Layer     string  `json:"layer"`
			Operand   string  `json:"operand"`
			Amax      float64 `json:"amax"`
			Underflow float64 `json:"underflow"`
			Elements  float64 `json:"elements"`
		} `json:"operands"`
	} `json:"stats"`
}

// shipped decodes the reference record from its file.
func shipped(t *testing.T) (recipes []string, steps int, runs map[string][]shippedRun, command string) {
	t.Helper()
	z, err := os.ReadFile(filepath.Join("..", "train", "records", "reference-runs.json.gz"))
	require.NoError(t, err)
	zr, err := gzip.NewReader(bytes.NewReader(z))
	require.NoError(t, err)
	var rec struct {
		Recipes []string     `json:"recipes"`
		Steps   int          `json:"steps"`
		Command string       `json:"command"`
		Runs    []shippedRun `json:"runs"`
	}
	require.NoError(t, json.NewDecoder(zr).Decode(&rec))
	runs = map[string][]shippedRun{}
	for _, r := range rec.Runs {
		runs[r.Recipe.Name] = append(runs[r.Recipe.Name], r)
	}
	return rec.Recipes, rec.Steps, runs, rec.Command
}

// finalVal is a run's last validation loss.
func (r shippedRun) finalVal() float64 { return r.Val[len(r.Val)-1].Loss }

// TestTrainingReferencePickers: every recipe the shipped record holds can
// be shown; a recipe it lacks (the failure recipes came after it, and live
// runs train them) is refused with an error that says so; and a live run
// in training goes on where it was when Runs is live again.
func TestTrainingReferencePickers(t *testing.T) {
	recipes, _, _, _ := shipped(t)
	s := newTrainingWith(t, map[string]string{"steps": "25", "train": "true"})
	require.NoError(t, s.advanceSteps(3))
	before, _ := s.run.snapshot()
	require.NoError(t, s.Set("runs", runsReference))
	shown := map[string]bool{}
	for _, p := range s.Params() {
		if !strings.HasPrefix(p.Name, "recipe") {
			continue
		}
		for _, o := range p.Options {
			if o == noRecipe {
				continue
			}
			err := s.Set(p.Name, o)
			if slices.Contains(recipes, o) {
				assert.NoError(t, err, "%s: %s", p.Name, o)
				shown[o] = true
			} else {
				assert.ErrorContains(t, err, "the shipped runs hold no "+o, p.Name)
			}
		}
		require.NoError(t, s.Set(p.Name, p.Default))
	}
	assert.Len(t, shown, len(recipes), "every recipe of the record can be shown")
	assert.Equal(t, "shipped", facts(s.Facts())["status"])
	assert.False(t, s.Animate(), "the shipped runs do not animate")
	require.NoError(t, s.Set("runs", runsLive))
	after, _ := s.run.snapshot()
	assert.Equal(t, before[0].loss, after[0].loss, "the live run is kept while the reference runs are shown")
}

// TestTrainingReferenceRenders draws the reference runs at 480×270,
// 1280×720 and on a phone's canvas (339×1094 CSS pixels at ×3): four
// axes (with the gaps to bf16), coloured curves across the loss plot's
// width (outside its legend), and the maps coloured.
func TestTrainingReferenceRenders(t *testing.T) {
	var axes []*plottest.Axes
	var legends []image.Rectangle
	stop := plottest.ObserveAxes(func(a *plottest.Axes) { axes = append(axes, a) })
	defer stop()
	stopL := plottest.ObserveLegends(func(p plottest.LegendPlacement) { legends = append(legends, p.Box) })
	defer stopL()
	s := newTrainingWith(t, map[string]string{"runs": runsReference, "recipe1": "fp32", "recipe2": "bf16", "recipe3": "tensorwise", "inspect": "3"})
	// The curves are the only coloured pixels of the loss plot: its
	// background, grid and text are grey.
	coloured := func(c color.RGBA) bool {
		return int(max(c.R, c.G, c.B))-int(min(c.R, c.G, c.B)) > 50
	}
	for _, c := range []struct {
		w, h int
		r    float64
	}{{480, 270, 1}, {1280, 720, 1}, {339, 1094, 3}} {
		t.Run(fmt.Sprintf("%dx%d@%g", c.w, c.h, c.r), func(t *testing.T) {
			axes, legends = axes[:0], legends[:0]
			img := image.NewRGBA(image.Rect(0, 0, int(float64(c.w)*c.r), int(float64(c.h)*c.r)))
			require.NoError(t, RenderFor(s, img, Display{PixelRatio: c.r}))
			require.Len(t, axes, 4, "the loss curves, the gaps to bf16 and two maps")
			// The loss curves: the first axes without a band scale (the
			// gaps come next); the amax map: the first with layers (a band).
			var loss, amax *plottest.Axes
			for _, a := range axes {
				_, yb := a.Y.(plot.BandScale)
				switch {
				case !yb && loss == nil:
					loss = a
				case yb && amax == nil:
					amax = a
				}
			}
			require.NotNil(t, loss)
			require.NotNil(t, amax)
			p := loss.Plot
			cols := 0
			for x := p.Min.X; x < p.Max.X; x++ {
			column:
				for y := p.Min.Y; y < p.Max.Y; y++ {
					for _, l := range legends {
						if image.Pt(x, y).In(l) {
							continue column
						}
					}
					if coloured(img.RGBAAt(x, y)) {
						cols++
						break
					}
				}
			}
			assert.Greater(t, float64(cols), 0.9*float64(p.Dx()), "the curves run across the loss plot")
			// The maps are coloured: many distinct colours in the amax map.
			seen := map[[3]uint8]bool{}
			p = amax.Plot
			for y := p.Min.Y; y < p.Max.Y; y += 2 {
				for x := p.Min.X; x < p.Max.X; x += 2 {
					c := img.RGBAAt(x, y)
					seen[[3]uint8{c.R, c.G, c.B}] = true
				}
			}
			assert.Greater(t, len(seen), 5, "the amax map has colours")
		})
	}
}

// refConclusion is what the explanation concludes in one setting.
type refConclusion struct {
	lowest   string
	resolved string // per recipe against the baseline: + (higher), - (lower), = (too small to tell)
	worst    string
}

// TestTrainingReferenceExplainAgrees checks the explanation of the shipped
// runs against numbers computed here from the record's JSON: the recipe
// with the lowest mean final validation loss and its seeds' range, each
// recipe's gap to bf16 seed by seed and its spread, whether the gap is
// larger than the spread, and the inspected recipe's worst layer; the
// settings' conclusions differ.
func TestTrainingReferenceExplainAgrees(t *testing.T) {
	recipes, steps, runs, command := shipped(t)
	const baseline = "bf16"
	require.Contains(t, recipes, baseline)
	mean := func(name string) float64 {
		var m float64
		for _, r := range runs[name] {
			m += r.finalVal() / float64(len(runs[name]))
		}
		return m
	}
	conclusions := map[refConclusion]bool{}
	for _, tc := range []struct {
		recipes []string
		inspect int
		operand string
	}{
		{[]string{"fp32", "bf16", "tensorwise"}, 3, "grad_output"},
		{[]string{"bf16", "nvfp4", "mxfp8"}, 2, "input"},
		{[]string{"e5m2-grads", "bf16", "delayed"}, 1, "grad_output"},
		{[]string{"bf16-weights-rtn", "bf16-weights-sr", "rowwise"}, 3, "weight"},
		{[]string{"bf16", "fp32", "bf16-weights-sr"}, 1, "grad_output"},
	} {
		t.Run(strings.Join(tc.recipes, ","), func(t *testing.T) {
			params := map[string]string{"runs": runsReference, "inspect": strconv.Itoa(tc.inspect), "operand": tc.operand}
			for i, r := range tc.recipes {
				params["recipe"+strconv.Itoa(i+1)] = r
			}
			s := newTrainingWith(t, params)
			text := strings.Join(s.Explain().Paragraphs(), "\n")
			assert.Contains(t, text, " by: "+command+". ", "the command that made the runs")
			var c refConclusion

			lowest := tc.recipes[0]
			for _, r := range tc.recipes {
				if mean(r) < mean(lowest) {
					lowest = r
				}
			}
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, r := range runs[lowest] {
				lo, hi = min(lo, r.finalVal()), max(hi, r.finalVal())
			}
			c.lowest = lowest
			assert.Contains(t, text, fmt.Sprintf("At step %d %s has the lowest mean validation loss, %s nats per byte (its seeds %s to %s)",
				steps, lowest, sig4(mean(lowest)), sig4(lo), sig4(hi)))

			// Gaps seed by seed: the runs of one seed share weights and batches.
			for _, r := range tc.recipes {
				if r == baseline {
					continue
				}
				var per []float64
				for j, run := range runs[r] {
					b := runs[baseline][j]
					require.Equal(t, b.Seed, run.Seed)
					per = append(per, 100*(run.finalVal()-b.finalVal())/b.finalVal())
				}
				gap := 100 * (mean(r) - mean(baseline)) / mean(baseline)
				spread := slices.Max(per) - slices.Min(per)
				claim := fmt.Sprintf("%s is %+.3g%% (per seed the gaps span %s percentage points): ", r, mustFloat(t, sig4(gap)), sig4(spread))
				assert.Contains(t, text, claim)
				// The rule of every verdict: an effect is at least 0.3% and
				// larger than the spread of the per-seed gaps.
				switch {
				case math.Abs(gap) < 0.3 || math.Abs(gap) <= spread:
					assert.Contains(t, text, claim+"no measurable effect at this size")
					c.resolved += "="
				case gap > 0:
					assert.Contains(t, text, claim+"worse, a higher loss on every seed")
					c.resolved += "+"
				default:
					assert.Contains(t, text, claim+"better, a lower loss on every seed")
					c.resolved += "-"
				}
			}

			// The maps: the inspected recipe's layer with the largest
			// underflowed share of the operand, over every seed and step.
			who := tc.recipes[tc.inspect-1]
			uf, el := map[string]float64{}, map[string]float64{}
			var layers []string
			top, topLayer := 0.0, ""
			for _, run := range runs[who] {
				for _, p := range run.Stats {
					for _, o := range p.Operands {
						if o.Operand != tc.operand {
							continue
						}
						if _, ok := el[o.Layer]; !ok {
							layers = append(layers, o.Layer)
						}
						uf[o.Layer] += o.Underflow
						el[o.Layer] += o.Elements
						if o.Amax > top {
							top, topLayer = o.Amax, o.Layer
						}
					}
				}
			}
			worst, wf := "", -1.0
			for _, l := range layers {
				if el[l] > 0 && uf[l]/el[l] > wf {
					worst, wf = l, uf[l]/el[l]
				}
			}
			c.worst = worst
			switch {
			case worst == "":
				assert.Contains(t, text, "The maps of "+who+" stay empty")
			case wf == 0:
				assert.Contains(t, text, "None of its")
			default:
				assert.Contains(t, text, "most in "+worst+" ("+pctText(mustFloat(t, sig4(wf)))+")")
			}
			if worst != "" {
				assert.Contains(t, text, "its largest amax over the seeds is "+sig4(top)+", in "+topLayer)
			}
			conclusions[c] = true
		})
	}
	assert.GreaterOrEqual(t, len(conclusions), 3, "the settings must reach different conclusions: %v", conclusions)
}
