package main

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/csv"
	"encoding/json"
	"hash/crc32"
	"html"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/scan"
	"github.com/fp8lab/fp8lab/scan/report"
	"github.com/fp8lab/fp8lab/tensorio"
)

func f32le(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// riskFile writes a TF-layout checkpoint: a convolution kernel [3, 3, 8,
// 16], a tensor of which tensorwise flushes most values (one value 10^6
// times the rest), an outlier tensor (one row 10^5 times the others) and
// an exact one (all ±1).
func riskFile(t *testing.T) string {
	gauss := func(rows, cols int, seed uint64) []float32 {
		x, err := scaling.RandomNormal(rows, cols, 0.02, seed)
		require.NoError(t, err)
		return x.Data
	}
	flushed, outlier, exact := gauss(64, 128, 2), gauss(64, 128, 3), make([]float32, 64)
	flushed[0] = 2e4
	for j := 7 * 128; j < 8*128; j++ {
		outlier[j] *= 1e5
	}
	for i := range exact {
		exact[i] = float32(1 - 2*(i%2))
	}
	var b bytes.Buffer
	require.NoError(t, tensorio.WriteSafetensors(&b, []tensorio.Raw{
		{Name: "conv/kernel", DType: "F32", Shape: []int64{3, 3, 8, 16}, Data: f32le(gauss(72, 16, 1))},
		{Name: "flushed/kernel", DType: "F32", Shape: []int64{128, 64}, Data: f32le(flushed)},
		{Name: "outlier/kernel", DType: "F32", Shape: []int64{128, 64}, Data: f32le(outlier)},
		{Name: "exact", DType: "F32", Shape: []int64{64}, Data: f32le(exact)},
	}, nil))
	p := filepath.Join(t.TempDir(), "tf.safetensors")
	require.NoError(t, os.WriteFile(p, b.Bytes(), 0o644))
	return p
}

// Issue 27: every output prints each tensor's view; the text and HTML
// reports say which measure decides, why each tensor stays in BF16 (by
// how much), which tensors lose values to flushing with the energy they
// carry, and explain every column once.
func TestScanReportsSayWhy(t *testing.T) {
	path := riskFile(t)
	code, out, errOut := cli(t, "", "scan", "--layout", "tf", "--json", path)
	require.Equal(t, 0, code, errOut)
	var rep scan.Report
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, "tf", rep.Layout)
	view := "16×72 (rows: dim 3; row: dims 0·1·2)"
	assert.Equal(t, view, rep.Tensors[0].View)
	tw := rep.Summary[0]
	require.Equal(t, "tensorwise", tw.Recipe)
	require.NotEmpty(t, tw.Flushed)
	fl := tw.Flushed[0]
	assert.Equal(t, "flushed/kernel", fl.Tensor)
	assert.Greater(t, fl.Values, scan.FlushRisk)
	assert.Less(t, fl.Energy, 1e-3, "the flushed values carry almost no energy")
	var keep []string
	for _, k := range tw.KeepBF16 {
		keep = append(keep, k.Tensor)
	}
	assert.Equal(t, []string{"flushed/kernel", "outlier/kernel"}, keep)

	code, text, errOut := cli(t, "", "scan", "--layout", "tf", path)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, text, "conv/kernel  F32 [3 3 8 16]  view "+view)
	assert.Contains(t, text, report.Threshold(15))
	assert.Contains(t, text, "tensorwise E4M3FN: worst: flushed/kernel, outlier/kernel, conv/kernel; "+report.KeepText(tw.KeepBF16, 15, nil))
	assert.Contains(t, text, "tensorwise E4M3FN: "+report.RiskText("flushed", tw.Flushed, nil))
	assert.Regexp(t, `keep in BF16: flushed/kernel \(worst block -?\d+\.\d dB, \d+\.\d dB below 15\)`, text)
	assert.NotContains(t, text, "worst ;")
	for _, term := range report.Legend() {
		assert.Equal(t, 1, strings.Count(text, "  "+term.Name+": "), term.Name)
	}

	exactOnly := filepath.Join(t.TempDir(), "exact.html")
	code, text, errOut = cli(t, "", "scan", "--filter", "^exact$", "--html", exactOnly, path)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, text, "worst: none (every tensor is exact or all zero); keep in BF16: none")
	assert.NotContains(t, text, "Range risks")

	code, out, errOut = cli(t, "", "scan", "--layout", "tf", "--csv", path)
	require.Equal(t, 0, code, errOut)
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	assert.Equal(t, report.Columns, rows[0])
	assert.Equal(t, view, rows[1][4])

	htmlPath := filepath.Join(t.TempDir(), "r.html")
	code, _, errOut = cli(t, "", "scan", "--layout", "tf", "--html", htmlPath, path)
	require.Equal(t, 0, code, errOut)
	page, err := os.ReadFile(htmlPath)
	require.NoError(t, err)
	for _, want := range []string{view, report.Threshold(15), report.RiskIntro(), report.KeepText(tw.KeepBF16, 15, nil)} {
		assert.Contains(t, string(page), html.EscapeString(want))
	}
	assert.Contains(t, string(page), "<dt>worst block dB</dt>")

	code, _, errOut = cli(t, "", "scan", "--layout", "nchw", path)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "known: torch, tf")
}

// Issue 27 defect 4: a scan that fails prints nothing on stdout (it
// printed "Summary (0 tensors…)" before the error). Here the deflated
// stream of an .npz's second member ends within its values, while its
// header claims them all, so the error comes mid-scan.
func TestScanFailurePrintsNothing(t *testing.T) {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, name := range []string{"a.npy", "b.npy"} {
		x, err := scaling.RandomNormal(4, 64, 1, 1)
		require.NoError(t, err)
		var npy bytes.Buffer
		require.NoError(t, tensorio.WriteNPY(&npy, x))
		data := npy.Bytes()
		if name == "b.npy" {
			data = data[:len(data)-100]
		}
		var deflated bytes.Buffer
		fw, err := flate.NewWriter(&deflated, flate.BestSpeed)
		require.NoError(t, err)
		fw.Write(data)
		require.NoError(t, fw.Close())
		w, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(npy.Bytes()),
			CompressedSize64: uint64(deflated.Len()), UncompressedSize64: uint64(npy.Len())})
		require.NoError(t, err)
		w.Write(deflated.Bytes())
	}
	require.NoError(t, zw.Close())
	p := filepath.Join(t.TempDir(), "m.npz")
	require.NoError(t, os.WriteFile(p, b.Bytes(), 0o644))
	code, out, errOut := cli(t, "", "scan", p)
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, `tensor "b"`)
}
