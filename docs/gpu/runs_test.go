package gpu

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestShippedRuns: every folder decodes, and the H100 run of 2026-11-22
// reads as its files say (compared with the JSON read generically, not
// through this package's types).
func TestShippedRuns(t *testing.T) {
	runs, err := Runs()
	require.NoError(t, err)
	require.NotEmpty(t, runs)
	dirs, err := os.ReadDir(".")
	require.NoError(t, err)
	folders := 0
	for _, d := range dirs {
		if d.IsDir() {
			folders++
		}
	}
	assert.Len(t, runs, folders, "every folder is a run")
	var h100 *Run
	for _, r := range runs {
		if r.Name == "h100-2026-11-22" {
			h100 = r
		}
	}
	require.NotNil(t, h100)
	latest, err := Latest()
	require.NoError(t, err)
	assert.Equal(t, runs[len(runs)-1], latest)
	assert.Equal(t, "2026-11-22", h100.Date)
	assert.Equal(t, "NVIDIA H100 80GB HBM3", h100.Info.Name)
	assert.Equal(t, "13.0", h100.Info.DriverVersion())
	assert.Equal(t, "13.1", h100.Info.CUBLASLtRelease())
	assert.Equal(t, "sm_90", h100.Info.ComputeCapability)

	var raw struct {
		Results []map[string]any `json:"results"`
	}
	b, err := os.ReadFile(filepath.Join(h100.Name, "bench.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &raw))
	require.NotNil(t, h100.Bench)
	require.Len(t, h100.Bench.Results, len(raw.Results))
	tflops := map[string]float64{}
	kernels := 0
	for _, r := range raw.Results {
		if v, ok := r["tflops"].(float64); ok {
			tflops[r["name"].(string)] = v
		}
		if _, ok := r["of_copy"]; ok && r["name"] != CopyName {
			kernels++
		}
	}
	assert.Len(t, h100.Bench.Kernels(), kernels)
	products := h100.Bench.Products()
	require.Len(t, products, 2+15, "4096³, 8192³ and the reference model's 15 shapes")
	p := products[1]
	assert.Equal(t, "8192³", p.Shape)
	assert.Equal(t, [3]int{8192, 8192, 8192}, [3]int{p.M, p.K, p.N})
	assert.Equal(t, tflops["gemm fp8 e4m3 8192³ -> bf16, fast accum on"], p.FP8())
	assert.Equal(t, tflops["gemm bf16 8192³ -> bf16"], p.BF16.TFLOPS)
	assert.InDelta(t, 1.888, p.Speedup(), 0.001, "BENCHMARKS.md: 1.89×")
	q := products[2]
	assert.Equal(t, [3]int{1024, 64, 192}, [3]int{q.M, q.K, q.N}, "reference qkv.forward is M×K×N")
	c, ok := h100.Bench.Copy()
	require.True(t, ok)
	assert.InDelta(t, 3009, c.GBps, 1)

	require.NotNil(t, h100.Accum)
	assert.Equal(t, uint64(1), h100.Accum.Seed, "absent: the default seed")
	assert.Len(t, h100.Accum.Rows, 12)
	assert.Nil(t, h100.Accum.Promoted, "the first run did not report it")
	require.NotNil(t, h100.Emulated)
	for _, r := range h100.Accum.Rows {
		assert.NotNil(t, h100.Emulated.Row(r.Operands, r.K), "%s K=%d", r.Operands, r.K)
	}
	assert.Nil(t, h100.Linear)
}

// TestGEMMNames: the names bench writes read back as the shape and kind
// they were written with.
func TestGEMMNames(t *testing.T) {
	for _, tc := range []struct {
		shape   string
		m, k, n int
	}{{SquareShape(256), 256, 256, 256}, {SquareShape(16384), 16384, 16384, 16384}, {TrainShape("classroom", "fc", "wgrad", 32, 256, 128), 32, 256, 128}} {
		for name, kind := range map[string]string{FP8GEMMName(tc.shape, false): "off", FP8GEMMName(tc.shape, true): "on", BF16GEMMName(tc.shape): "bf16"} {
			shape, k := parseGEMMName(name)
			assert.Equal(t, tc.shape, shape, name)
			assert.Equal(t, kind, k, name)
		}
		m, k, n, ok := parseShape(tc.shape)
		require.True(t, ok, tc.shape)
		assert.Equal(t, [3]int{tc.m, tc.k, tc.n}, [3]int{m, k, n})
	}
	for _, name := range []string{FP8BestName("8192³"), RatioName("8192³"), CopyName, "gemm fp8 e4m3 8192³ -> fp32", ""} {
		_, kind := parseGEMMName(name)
		assert.Empty(t, kind, name)
	}
	for _, bad := range []string{"x³", "0³", "-4³", "a 1x2", "a 1x2x", "a 1x0x3", "1x2x3x4"} {
		_, _, _, ok := parseShape(bad)
		assert.False(t, ok, bad)
	}
	b := &Bench{Results: []BenchResult{{Name: FP8GEMMName("odd shape", true), TFLOPS: 1}, {Name: BF16GEMMName("64³"), TFLOPS: 2}}}
	ps := b.Products()
	require.Len(t, ps, 1, "a shape without dimensions is left out")
	assert.Zero(t, ps[0].Speedup(), "no FP8 result: no speed-up")
}

// TestLoadRefusesBadRuns: a folder that is not a run is an error that
// names it, never a panic or a silently missing run.
func TestLoadRefusesBadRuns(t *testing.T) {
	info := &fstest.MapFile{Data: []byte(`{"name":"GPU X","driver":12040}`)}
	good := fstest.MapFS{"x-2027-01-02/info.json": info, "README.md": {Data: []byte("notes")}}
	runs, err := Load(good)
	require.NoError(t, err)
	require.Len(t, runs, 1)
	assert.Equal(t, "12.4", runs[0].Info.DriverVersion())
	assert.Empty(t, runs[0].Info.CUBLASLtRelease())
	assert.Nil(t, runs[0].Bench)
	for name, fsys := range map[string]fstest.MapFS{
		"bad name":   {"H100_today/info.json": info},
		"no date":    {"h100/info.json": info},
		"no info":    {"h100-2026-11-22/bench.json": {Data: []byte(`{}`)}},
		"no device":  {"h100-2026-11-22/info.json": {Data: []byte(`{}`)}},
		"bad json":   {"h100-2026-11-22/info.json": info, "h100-2026-11-22/accum.json": {Data: []byte(`{"rows":`)}},
		"wrong type": {"h100-2026-11-22/info.json": info, "h100-2026-11-22/bench.json": {Data: []byte(`{"results":{}}`)}},
	} {
		_, err := Load(fsys)
		assert.Error(t, err, name)
	}
	ordered, err := Load(fstest.MapFS{"b-2027-01-01/info.json": info, "a-2027-01-02/info.json": info, "a-2027-01-01/info.json": info})
	require.NoError(t, err)
	assert.Equal(t, []string{"a-2027-01-01", "b-2027-01-01", "a-2027-01-02"}, []string{ordered[0].Name, ordered[1].Name, ordered[2].Name})
}

// TestLinearPlanSums: role and step sums.
func TestLinearPlanSums(t *testing.T) {
	s := LinearShape{Plans: []LinearPlan{{Plan: "fp8-naive", Steps: []LinearStep{{Role: "gemm", Millis: 2}, {Role: "transpose", Millis: 0.5}, {Role: "gemm", Millis: 1}}}}}
	p := s.Plan("fp8-naive")
	require.NotNil(t, p)
	assert.Equal(t, 3.0, p.RoleMillis("gemm"))
	assert.Equal(t, 3.5, p.StepMillis())
	assert.Nil(t, s.Plan("bf16"))
}
