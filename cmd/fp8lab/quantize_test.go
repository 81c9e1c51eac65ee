package main

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fp8lab/fp8lab/scaling"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeOutlierCSV writes a 64×256 matrix whose every 16th row is 10^5 times
// larger than the rest.
func writeOutlierCSV(t *testing.T) string {
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for i := 0; i < 64; i++ {
		s := 1.0
		if i%16 == 0 {
			s = 1e5
		}
		for j := 0; j < 256; j++ {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%g", rng.NormFloat64()*s)
		}
		b.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "m.csv")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

// writeNPY writes a float32 .npy file (format 1.0, C order).
func writeNPY(t *testing.T, rows, cols int, data []float32) string {
	header := fmt.Sprintf("{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }", rows, cols)
	for (10+len(header)+1)%64 != 0 {
		header += " "
	}
	header += "\n"
	buf := []byte("\x93NUMPY\x01\x00")
	buf = binary.LittleEndian.AppendUint16(buf, uint16(len(header)))
	buf = append(buf, header...)
	for _, v := range data {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
	}
	path := filepath.Join(t.TempDir(), "m.npy")
	require.NoError(t, os.WriteFile(path, buf, 0o644))
	return path
}

type quantizeJSON struct {
	Scales  []float64 `json:"scales"`
	Metrics struct {
		SQNR        any     `json:"sqnr_db"`
		MSE         float64 `json:"mse"`
		MaxAbsError float64 `json:"max_abs_error"`
		Overflow    int     `json:"overflow"`
		Underflow   int     `json:"underflow"`
		Rows        struct {
			Worst float64 `json:"worst_db"`
		} `json:"row_sqnr"`
	} `json:"metrics"`
}

func quantizeRun(t *testing.T, args ...string) quantizeJSON {
	t.Helper()
	code, out, errOut := cli(t, "", append([]string{"quantize", "--json"}, args...)...)
	require.Equal(t, 0, code, errOut)
	var q quantizeJSON
	require.NoError(t, json.Unmarshal([]byte(out), &q))
	return q
}

func TestQuantizeGranularities(t *testing.T) {
	path := writeOutlierCSV(t)
	tensor := quantizeRun(t, "--granularity", "tensor", path)
	row := quantizeRun(t, "--granularity", "row", path)
	assert.Len(t, tensor.Scales, 1)
	assert.Len(t, row.Scales, 64)
	assert.Greater(t, tensor.Metrics.Underflow, 5000, "tensor scaling flushes the small rows")
	assert.Zero(t, row.Metrics.Underflow)
	assert.Greater(t, row.Metrics.Rows.Worst, tensor.Metrics.Rows.Worst+15)
	mx := quantizeRun(t, "--granularity", "mx", path)
	assert.Len(t, mx.Scales, 64*256/32)
	nv := quantizeRun(t, "--granularity", "nvfp4", "--format", "E2M1", path)
	assert.Len(t, nv.Scales, 64*256/16)
	sr := quantizeRun(t, "--granularity", "row", "--round", "stochastic", "--seed", "7", path)
	sr2 := quantizeRun(t, "--granularity", "row", "--round", "stochastic", "--seed", "7", path)
	assert.Equal(t, sr, sr2, "stochastic quantization is reproducible")
	assert.NotEqual(t, row.Metrics.MSE, sr.Metrics.MSE)
	code, out, _ := cli(t, "", "quantize", "--granularity", "block128", path)
	require.Equal(t, 0, code)
	assert.Contains(t, out, "row SQNR")
	assert.Len(t, quantizeRun(t, "--granularity", "tile128x1", path).Scales, 256, "64 rows: one partial 128×1 tile per column")
	assert.Len(t, quantizeRun(t, "--granularity", "tile16x1", path).Scales, 4*256)
}

// TestQuantizeHelpListsTheTable checks that the usage names every standard
// granularity and the block-shape patterns, from scaling's table.
func TestQuantizeHelpListsTheTable(t *testing.T) {
	code, _, errOut := cli(t, "", "quantize", "-h")
	require.Equal(t, 0, code)
	for _, g := range scaling.Granularities() {
		assert.Contains(t, errOut, g.String())
		assert.Contains(t, errOut, g.Syntax())
	}
	assert.Contains(t, errOut, "tile128x1")
	assert.Contains(t, errOut, "tileNx1")
}

func TestQuantizeNPYAndErrors(t *testing.T) {
	data := []float32{1, 2, 3, 500, -0.001, 0}
	q := quantizeRun(t, writeNPY(t, 2, 3, data))
	assert.InDelta(t, 448.0/500, q.Scales[0], 1e-6)
	assert.Zero(t, q.Metrics.Overflow)
	code, _, errOut := cli(t, "", "quantize", "--granularity", "diagonal", writeNPY(t, 2, 3, data))
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "diagonal")
	code, _, errOut = cli(t, "", "quantize", filepath.Join(t.TempDir(), "missing.csv"))
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "missing.csv")
	bad := filepath.Join(t.TempDir(), "bad.csv")
	require.NoError(t, os.WriteFile(bad, []byte("1,2\n3\n"), 0o644))
	code, _, errOut = cli(t, "", "quantize", bad)
	assert.Equal(t, 1, code)
	assert.NotEmpty(t, errOut)
	code, _, _ = cli(t, "", "quantize")
	assert.Equal(t, 2, code)
}

func TestDitherCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "floyd.png")
	code, stdout, errOut := cli(t, "", "dither", "--method", "floyd", "--size", "64", "-o", out)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, stdout, "PSNR")
	f, err := os.Open(out)
	require.NoError(t, err)
	img, err := png.Decode(f)
	f.Close()
	require.NoError(t, err)
	assert.Equal(t, 64, img.Bounds().Dx())

	psnr := func(frames string) float64 {
		code, stdout, errOut := cli(t, "", "dither", "--method", "stochastic", "--size", "64", "--frames", frames, "-o", filepath.Join(dir, "s.png"))
		require.Equal(t, 0, code, errOut)
		var v float64
		_, err := fmt.Sscanf(stdout[strings.Index(stdout, "PSNR"):], "PSNR %f dB", &v)
		require.NoError(t, err)
		return v
	}
	assert.Greater(t, psnr("32"), psnr("1")+10, "averaging stochastic frames converges to the original")

	code, _, _ = cli(t, "", "dither", "--levels", "4", "--format", "E4M3FN", "-o", out)
	assert.Equal(t, 2, code)
	code, _, _ = cli(t, "", "dither", "--method", "wobble", "-o", out)
	assert.Equal(t, 1, code)
	code, _, _ = cli(t, "", "dither")
	assert.Equal(t, 2, code)
}
