package viz

import (
	"encoding/json"
	"image"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fp8lab/fp8lab/docs/gpu"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawRun reads a shipped run's JSON files generically, independent of
// docs/gpu's types and of the scene.
func rawRun(t *testing.T, name string) (bench, accum, emulated map[string]any) {
	t.Helper()
	read := func(file string) map[string]any {
		b, err := os.ReadFile(filepath.Join("..", "docs", "gpu", name, file))
		require.NoError(t, err)
		var v map[string]any
		require.NoError(t, json.Unmarshal(b, &v))
		return v
	}
	return read("bench.json"), read("accum.json"), read("emulated.json")
}

func list(v any) []map[string]any {
	var out []map[string]any
	for _, x := range v.([]any) {
		out = append(out, x.(map[string]any))
	}
	return out
}

// TestGPUFactsFromShippedRun recomputes the scene's facts about the H100
// run from its files: the product speed-ups by name, the kernels against
// their goals, and the accumulation study's peaks and the emulator's
// largest factor.
func TestGPUFactsFromShippedRun(t *testing.T) {
	s, err := New("gpu")
	require.NoError(t, err)
	require.NoError(t, s.Set("run", "h100-2026-11-22"))
	f := facts(s.Facts())
	bench, accum, emulated := rawRun(t, "h100-2026-11-22")

	tflops := map[string]float64{}
	var met, missed, kernels int
	for _, r := range list(bench["results"]) {
		name := r["name"].(string)
		if v, ok := r["tflops"].(float64); ok {
			tflops[name] = v
		}
		if oc, ok := r["of_copy"].(float64); ok && !strings.HasPrefix(name, "copy ") {
			kernels++
			if g, ok := r["goal"].(float64); ok {
				if oc >= g {
					met++
				} else {
					missed++
				}
			}
		}
	}
	fp8 := math.Max(tflops["gemm fp8 e4m3 8192³ -> bf16, fast accum off"], tflops["gemm fp8 e4m3 8192³ -> bf16, fast accum on"])
	assert.Equal(t, "8192³", f["gemm_largest"])
	assert.InDelta(t, fp8/tflops["gemm bf16 8192³ -> bf16"], f.num("gemm_largest_speedup"), 1e-12)
	assert.Equal(t, kernels, f.int("kernels"))
	assert.Equal(t, met, f.int("kernel_goals_met"))
	assert.Equal(t, missed, f.int("kernel_goals_missed"))

	var peak, peakK, last, lastK float64
	worst := 1.0
	em := map[string]float64{}
	for _, r := range list(emulated["rows"]) {
		em[r["operands"].(string)+strconv.Itoa(int(r["k"].(float64)))] = r["fast"].(map[string]any)["rel"].(float64)
	}
	for _, r := range list(accum["rows"]) {
		on := r["device_fast_accum_on"].(map[string]any)["rel"].(float64)
		k := r["k"].(float64)
		e := em[r["operands"].(string)+strconv.Itoa(int(k))]
		worst = math.Max(worst, math.Max(e/on, on/e))
		if r["operands"] != "positive" {
			continue
		}
		if on > peak {
			peak, peakK = on, k
		}
		if k > lastK {
			last, lastK = on, k
		}
	}
	assert.Equal(t, peak, f.num("accum_positive_on_peak"))
	assert.Equal(t, strconv.Itoa(int(peakK)), f["accum_positive_on_peak_k"])
	assert.Equal(t, last, f.num("accum_positive_on_max_k"))
	assert.Equal(t, "true", f["accum_positive_stops_growing"], "7.0% at 4096, 4.5% at 16384")
	assert.InDelta(t, worst, f.num("accum_fit_worst_on"), 1e-12)
	assert.Less(t, f.num("accum_fit_worst_on"), 2.0, "the 2× bound of issue 30")
	assert.Equal(t, "deepseek,fast-accum-bwd,fast-accum-wgrad", f["accum_recipes"])

	ex := s.Explain().Paragraphs()
	require.GreaterOrEqual(t, len(ex), 5)
	first := ex[0]
	assert.Zero(t, strings.Count(first, ". "), "the first paragraph is one sentence: %q", first)
	assert.True(t, strings.HasSuffix(first, "."))
	for _, want := range []string{"NVIDIA H100 80GB HBM3", "CUDA driver 13.0", "cuBLASLt 13.1", "2026-11-22", "1.89× as fast as BF16 at 8192³", "no faster", "7.0% of a growing sum at K = 4096"} {
		assert.Contains(t, first, want)
	}
	all := strings.Join(ex, "\n")
	assert.Contains(t, all, "stopped growing (4.5% at K = 16384)")
	assert.Contains(t, all, "44× less")
	assert.Contains(t, all, "the emulation splits K there too")
	assert.NotContains(t, all, "linear layer", "the run timed none")
}

// syntheticRun is a run made up for the tests of the scene's decisions;
// none of it is shipped.
func syntheticRun(fp8Small, grows bool, emulated bool) *gpu.Run {
	r := &gpu.Run{Name: "test-2030-01-01", Date: "2030-01-01", Info: gpu.Info{Name: "Test GPU X1", Driver: 12040, ComputeCapability: "sm_100", CUBLASLtVersion: 120805, PeakGBps: 8000}}
	small := 0.8
	if fp8Small {
		small = 1.5
	}
	r.Bench = &gpu.Bench{Results: []gpu.BenchResult{
		{Name: gpu.CopyName, GBps: 6000, OfCopy: 1},
		{Name: "quantize tensor E4M3 software (given scale)", GBps: 5400, OfCopy: 0.9, Goal: 0.85},
		{Name: "fwht block 128 (read + write)", GBps: 3000, OfCopy: 0.5, Goal: 0.6},
		{Name: gpu.FP8GEMMName(gpu.SquareShape(256), false), TFLOPS: 10 * small},
		{Name: gpu.BF16GEMMName(gpu.SquareShape(256)), TFLOPS: 10},
		{Name: gpu.FP8GEMMName(gpu.SquareShape(8192), true), TFLOPS: 4000},
		{Name: gpu.BF16GEMMName(gpu.SquareShape(8192)), TFLOPS: 2000},
	}}
	r.Accum = &gpu.AccumReport{M: 128, N: 128, Seed: 1}
	r.Emulated = &gpu.Emulated{Fast: scaling.FastAccumulator, Promoted: scaling.PromotedAccumulator}
	for _, kind := range []string{"positive", "signed"} {
		for i, k := range []int{1024, 2048, 4096} {
			on := 0.01 * float64(i+1)
			if !grows && i == 2 {
				on = 0.015
			}
			if kind == "signed" {
				on /= 20
			}
			r.Accum.Rows = append(r.Accum.Rows, gpu.AccumRow{Operands: kind, K: k, On: gpu.AccumError{Rel: on}, Off: gpu.AccumError{Rel: 6e-4}})
			r.Emulated.Rows = append(r.Emulated.Rows, gpu.EmulatedRow{Operands: kind, K: k, Fast: gpu.AccumError{Rel: on * 1.5}, Promoted: gpu.AccumError{Rel: 6e-4}})
		}
	}
	if !emulated {
		r.Emulated = nil
	}
	return r
}

// TestGPUClaimsFollowTheData: runs whose conclusions differ give
// explanations that differ the same way.
func TestGPUClaimsFollowTheData(t *testing.T) {
	for _, tc := range []struct {
		name                      string
		fp8Small, grows, emulated bool
		want, not                 []string
	}{
		{"fp8 faster everywhere, still growing, no emulation", true, true, false,
			[]string{"2.00× as fast as BF16 at 8192³ and at the smallest, 256³ (1.50×)", "FP8 was faster at every size", "Of the 2 kernels with a goal, 1 kernel met it"},
			[]string{"no faster", "stopped growing", "emulation", "splits K"}},
		{"fp8 slower at the smallest, stops growing, emulated", false, false, true,
			[]string{"but slower at the smallest, 256³ (0.80×)", "then stopped growing", "within a factor 1.50", "20× less"},
			[]string{"at every size"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newGPUScene([]*gpu.Run{syntheticRun(tc.fp8Small, tc.grows, tc.emulated)}, nil)
			all := strings.Join(s.Explain().Paragraphs(), "\n")
			for _, w := range tc.want {
				assert.Contains(t, all, w)
			}
			for _, w := range tc.not {
				assert.NotContains(t, all, w)
			}
			assert.Contains(t, s.Explain().Takeaway(), "Test GPU X1 (sm_100, CUDA driver 12.4, cuBLASLt 12.8) on 2030-01-01")
			require.NoError(t, s.Render(image.NewRGBA(image.Rect(0, 0, 960, 540))))
		})
	}
	bare := &gpu.Run{Name: "bare-2030-01-02", Date: "2030-01-02", Info: gpu.Info{Name: "Bare GPU", Driver: 13000}}
	s := newGPUScene([]*gpu.Run{bare}, nil)
	assert.Contains(t, s.Explain().Takeaway(), "holds neither products nor an accumulation study")
	require.NoError(t, s.Render(image.NewRGBA(image.Rect(0, 0, 960, 540))), "panels without data say so")
	broken := newGPUScene(nil, os.ErrNotExist)
	assert.Contains(t, broken.Explain().Takeaway(), "cannot be computed")
	require.NoError(t, broken.Render(image.NewRGBA(image.Rect(0, 0, 960, 540))))
	assert.False(t, broken.Click(10, 10, 960, 540))
}

// TestGPULinearPanel: a run that timed the linear layer offers the panel
// and the shape, and explains the plans' times and the transposes' share.
func TestGPULinearPanel(t *testing.T) {
	r := syntheticRun(false, true, true)
	plan := func(name string, steps ...gpu.LinearStep) gpu.LinearPlan {
		return gpu.LinearPlan{Plan: name, Steps: steps}
	}
	g := func(ms float64) gpu.LinearStep { return gpu.LinearStep{Name: "gemm", Role: gpu.RoleGEMM, Millis: ms} }
	r.Linear = &gpu.LinearReport{Shapes: []gpu.LinearShape{
		{Tokens: 4096, In: 4096, Out: 4096, Plans: []gpu.LinearPlan{plan("bf16", g(1)), plan("fp8-naive", g(0.5), gpu.LinearStep{Role: gpu.RoleTranspose, Millis: 0.5})}},
		{Tokens: 1024, In: 1024, Out: 1024, Plans: []gpu.LinearPlan{plan("bf16", g(0.1))}},
	}}
	s := newGPUScene([]*gpu.Run{r}, nil)
	var layer, focus []string
	for _, p := range s.Params() {
		switch p.Name {
		case "layer":
			layer = p.Options
		case "focus":
			focus = p.Options
		}
	}
	assert.Equal(t, []string{"largest", "4096x4096x4096", "1024x1024x1024"}, layer)
	assert.Contains(t, focus, gpuLinear)
	f := facts(s.Facts())
	assert.Equal(t, "4096x4096x4096", f["layer"])
	assert.Equal(t, 0.5, f.num("layer_fp8-naive_transpose_share"))
	all := strings.Join(s.Explain().Paragraphs(), "\n")
	assert.Contains(t, all, "bf16 1 ms (products 100%) and fp8-naive 1 ms (products 50.0%)")
	assert.Contains(t, all, "the transposed copies of X, W and dY took 50.0% of the time")
	require.NoError(t, s.Set("layer", "1024x1024x1024"))
	assert.Equal(t, "1024x1024x1024", s.Facts()["layer"])
	require.NoError(t, s.Set("focus", gpuLinear))
	require.NoError(t, s.Render(image.NewRGBA(image.Rect(0, 0, 960, 540))))
	require.NoError(t, s.Set("focus", gpuAll))
	require.NoError(t, s.Render(image.NewRGBA(image.Rect(0, 0, 960, 540))), "four panels, two by two")
	assert.ErrorIs(t, newGPUScene(nil, nil).Set("layer", "1x1x1"), ErrParam)
}

func TestGPUHelpers(t *testing.T) {
	assert.Equal(t, "7.0%", pct2(0.0699))
	assert.Equal(t, "0.062%", pct2(0.000624))
	assert.Equal(t, "0.10%", pct2(0.00104))
	assert.Equal(t, "44%", pct2(0.44))
	assert.Equal(t, "0%", pct2(0))
	assert.Equal(t, "1.89×", times(1.888))
	assert.Equal(t, "44×", times(43.6))
	assert.Equal(t, "within 0.19%", closeness(1.0019))
	assert.Equal(t, "within a factor 1.50", closeness(1.5))
	assert.Equal(t, "faster", speedWord(1.1))
	assert.Equal(t, "as fast", speedWord(1.05))
	assert.Equal(t, "slower", speedWord(0.9))
	assert.Equal(t, math.Inf(1), factor(0, 1))
	assert.Equal(t, 2.0, factor(1, 2))
	assert.Equal(t, "1x128 E4M3 sw (fused)", kernelLabel("quantize 1x128 E4M3 software (fused)"))
}
