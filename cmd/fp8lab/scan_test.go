package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/scan"
	"github.com/fp8lab/fp8lab/tensorio"
)

// scanFixture writes a two-tensor safetensors file (one with an outlier
// row) and returns its path and the library's report.
func scanFixture(t *testing.T) (string, *scan.Report) {
	var raws []tensorio.Raw
	for k, name := range []string{"layer.0.weight", "layer.1.weight"} {
		x, err := scaling.RandomNormal(32, 64, 0.02, uint64(k+1))
		require.NoError(t, err)
		if k == 1 {
			for j := range x.Row(3) {
				x.Row(3)[j] *= 1e6
			}
		}
		var b bytes.Buffer
		for _, v := range x.Data {
			b.Write([]byte{byte(math.Float32bits(v)), byte(math.Float32bits(v) >> 8), byte(math.Float32bits(v) >> 16), byte(math.Float32bits(v) >> 24)})
		}
		raws = append(raws, tensorio.Raw{Name: name, DType: "F32", Shape: []int64{32, 64}, Data: b.Bytes()})
	}
	path := filepath.Join(t.TempDir(), "m.safetensors")
	var b bytes.Buffer
	require.NoError(t, tensorio.WriteSafetensors(&b, raws, nil))
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))
	as, closeFiles, err := tensorio.OpenFile(path, tensorio.Limits{})
	require.NoError(t, err)
	defer closeFiles()
	rep, err := scan.Run(context.Background(), as, scan.Options{})
	require.NoError(t, err)
	return path, rep
}

func TestScanJSONMatchesLibrary(t *testing.T) {
	path, rep := scanFixture(t)
	code, out, errOut := cli(t, "", "scan", "--json", path)
	require.Equal(t, 0, code, errOut)
	var got scan.Report
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.Len(t, got.Tensors, 2)
	for i, ts := range rep.Tensors {
		g := got.Tensors[i]
		assert.Equal(t, ts.Name, g.Name)
		assert.Equal(t, ts.Amax, g.Amax)
		assert.Equal(t, ts.OutlierRows, g.OutlierRows)
		require.Len(t, g.Results, 5)
		for k, r := range ts.Results {
			assert.Equal(t, r, g.Results[k])
		}
	}
	assert.Equal(t, rep.Summary, got.Summary)
	require.Len(t, got.Summary[0].KeepBF16, 1, "tensorwise")
	assert.Equal(t, "layer.1.weight", got.Summary[0].KeepBF16[0].Tensor, "tensorwise")
}

func TestScanCSVAndTextMatchLibrary(t *testing.T) {
	path, rep := scanFixture(t)
	code, out, errOut := cli(t, "", "scan", "--csv", path)
	require.Equal(t, 0, code, errOut)
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 1+2*5)
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	code, text, errOut := cli(t, "", "scan", path)
	require.Equal(t, 0, code, errOut)
	k := 1
	for _, ts := range rep.Tensors {
		for _, r := range ts.Results {
			row := rows[k]
			k++
			assert.Equal(t, ts.Name, row[col["tensor"]])
			assert.Equal(t, r.Recipe, row[col["recipe"]])
			for name, want := range map[string]float64{"sqnr_db": r.SQNR, "worst_block_sqnr_db": r.WorstBlockSQNR,
				"underflow_pct": r.Underflow, "mse": r.MSE, "scale_inv_max": r.ScaleInvMax, "amax": ts.Amax} {
				v, err := strconv.ParseFloat(row[col[name]], 64)
				require.NoError(t, err)
				assert.Equal(t, want, v, name)
			}
			// The text table prints the same numbers rounded.
			line := fmt.Sprintf(`%s\s+%s\s+%.2f\s+%.2f\s+%.2f\s`, r.Recipe, r.Format, r.SQNR, r.WorstRowSQNR, r.WorstBlockSQNR)
			assert.Regexp(t, line, text)
		}
	}
	keep := rep.Summary[0].KeepBF16[0]
	assert.Contains(t, text, fmt.Sprintf("tensorwise E4M3FN: worst: layer.1.weight, layer.0.weight; keep in BF16: layer.1.weight (worst block %.1f dB, %.1f dB below 15)",
		keep.WorstBlockSQNR, 15-keep.WorstBlockSQNR))
}

func TestScanFlags(t *testing.T) {
	path, _ := scanFixture(t)
	code, _, errOut := cli(t, "", "scan", "--json", "--csv", path)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "exclude")
	code, _, errOut = cli(t, "", "scan", "--recipes", "nope", path)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "unknown recipe")
	code, out, errOut := cli(t, "", "scan", "--json", "--recipes", "all", "--formats", "E4M3FN,E5M2", "--filter", `\.1\.`, "--progress", path)
	require.Equal(t, 0, code, errOut)
	var got scan.Report
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.Len(t, got.Tensors, 1)
	assert.Len(t, got.Tensors[0].Results, 2*(4*2+1))
	assert.Contains(t, errOut, "1/1 tensors")
}

func TestScanInterrupt(t *testing.T) {
	path, _ := scanFixture(t)
	old := scanInterrupt
	defer func() { scanInterrupt = old }()
	scanInterrupt = func() (context.Context, func()) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		return ctx, cancel
	}
	code, out, errOut := cli(t, "", "scan", path)
	assert.Equal(t, 0, code)
	assert.Contains(t, errOut, "interrupted")
	assert.Contains(t, out, "Summary (0 tensors")
}

func TestScanHTML(t *testing.T) {
	path, rep := scanFixture(t)
	out := filepath.Join(t.TempDir(), "report.html")
	code, _, errOut := cli(t, "", "scan", "--html", out, path)
	require.Equal(t, 0, code, errOut)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	s := string(b)
	assert.Contains(t, s, "layer.1.weight")
	assert.Contains(t, s, "Worst-block SQNR")
	assert.NotContains(t, s, "<script")
	assert.NotContains(t, s, "http")

	// One histogram per tensor, whose window edges are E4M3FN's smallest
	// subnormal (2^-9) and Max (448) times the tensorwise scale_inv.
	svgs := regexp.MustCompile(`<svg class="hist" data-tensor="([^"]*)"[^>]*data-window-e4m3fn-lo="([^"]*)" data-window-e4m3fn-hi="([^"]*)"`).FindAllStringSubmatch(s, -1)
	require.Len(t, svgs, len(rep.Tensors))
	assert.Equal(t, len(rep.Tensors), strings.Count(s, "</svg>"))
	in := fp8.E4M3FN.Info()
	require.Equal(t, []float64{math.Ldexp(1, -9), 448}, []float64{in.MinSubnormal, in.Max})
	for i, ts := range rep.Tensors {
		require.Equal(t, ts.Name, svgs[i][1])
		var d float64
		for _, r := range ts.Results {
			if r.Recipe == "tensorwise" {
				d = r.ScaleInvMin
			}
		}
		lo, err := strconv.ParseFloat(svgs[i][2], 64)
		require.NoError(t, err)
		hi, err := strconv.ParseFloat(svgs[i][3], 64)
		require.NoError(t, err)
		assert.Equal(t, in.MinSubnormal*d, lo, ts.Name)
		assert.Equal(t, in.Max*d, hi, ts.Name)
		assert.InDelta(t, ts.Amax, hi, 1e-6*ts.Amax, ts.Name)
	}
}
