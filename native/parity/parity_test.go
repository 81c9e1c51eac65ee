package parity

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/native"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// faulty wraps the CPU backend and breaks one operation, to show that
// Parity notices.
type faulty struct {
	*native.CPU
	info  native.Info
	fault string
}

func (f *faulty) Info() native.Info { return f.info }

func (f *faulty) Amax(t *scaling.Tensor, g scaling.Granularity) (*scaling.Tensor, error) {
	if f.fault == "amax-unsupported" {
		return nil, fmt.Errorf("%w: no amax here", native.ErrUnsupported)
	}
	return f.CPU.Amax(t, g)
}

func (f *faulty) Quantize(t *scaling.Tensor, fm *fp8.Format, g scaling.Granularity, o native.QuantizeOptions) (*scaling.Quantized, error) {
	switch {
	case f.fault == "gpu-limits" && (g == scaling.PerCol || g == scaling.Tile128x1 || g == scaling.NVFP4 || g == scaling.PerRow):
		return nil, fmt.Errorf("%w: not on this device", native.ErrUnsupported)
	case f.fault == "stream" && o.Stochastic != nil:
		s := *o.Stochastic
		s.Stream++
		o.Stochastic = &s
	case f.fault == "hardware-nan" && o.Codec == native.CodecHardware:
		q, err := f.CPU.Quantize(t, fm, g, o)
		if err == nil {
			for i, x := range t.Data {
				if x != x {
					q.Codes[i] = 0x7F // what cvt writes for -NaN without the fix-up
				}
			}
		}
		return q, err
	}
	q, err := f.CPU.Quantize(t, fm, g, o)
	if err == nil && f.fault == "code" && len(q.Codes) > 40 {
		q.Codes[40] ^= 1
	}
	if err == nil && f.fault == "scale" && g.Kind == scaling.KindMX {
		q.Scales[0] *= 2
	}
	return q, err
}

func (f *faulty) FWHT(x []float32, block int) error {
	err := f.CPU.FWHT(x, block)
	if n := len(x) - 1; f.fault == "fwht-ulp" {
		x[n] = math.Nextafter32(x[n], float32(math.Inf(1)))
	}
	return err
}

func (f *faulty) ScaledMatMul(a, b *scaling.Quantized, out native.Output) (*scaling.Tensor, error) {
	r, err := f.CPU.ScaledMatMul(a, b, out)
	if err == nil && f.fault == "gemm" {
		r.Data[len(r.Data)-1] += 1 // about 1% of Σ|a||b| at K = 128
	}
	if err == nil && f.fault == "gemm-noise" {
		for i := range r.Data {
			r.Data[i] = math.Nextafter32(r.Data[i], 0) // one float32 ulp: within tolerance
		}
	}
	return r, err
}

func (f *faulty) MatMulBF16(a, b *scaling.Tensor, out native.Output) (*scaling.Tensor, error) {
	if f.fault == "bf16-transposed" {
		return f.CPU.MatMulBF16(b, a, out) // only shapes that happen to fit
	}
	return f.CPU.MatMulBF16(a, b, out)
}

func runCases(t *testing.T, dut native.Backend, filter string) *Report {
	t.Helper()
	var log bytes.Buffer
	rep, err := Run(native.NewCPU(), dut, Config{Seed: 1, Short: true, Filter: filter, Log: &log,
		Codecs: []native.Codec{native.CodecSoftware, native.CodecHardware}})
	require.NoError(t, err)
	require.Len(t, rep.Results, rep.OK+rep.Failed+rep.Skipped)
	assert.Equal(t, len(rep.Results), strings.Count(log.String(), "\n"), "one log line per case")
	return rep
}

func TestRunCPUAgainstItself(t *testing.T) {
	rep := runCases(t, native.NewCPU(), "")
	require.NoError(t, rep.Err())
	assert.Zero(t, rep.Failed)
	assert.Zero(t, rep.Skipped)
	assert.Greater(t, rep.OK, 500)
	kinds := map[string]bool{}
	rejected := 0
	for _, r := range rep.Results {
		kinds[strings.Fields(r.Name)[0]] = true
		if strings.HasPrefix(r.Detail, "both reject") {
			rejected++
		}
	}
	for _, k := range []string{"amax", "quantize", "quantize-scales", "dequantize", "fwht", "scaled-matmul", "matmul-bf16"} {
		assert.True(t, kinds[k], k)
	}
	assert.Positive(t, rejected, "NaN inputs under current scaling are rejected by both")
}

func TestRunFindsFaults(t *testing.T) {
	cases := []struct{ fault, filter, want string }{
		{"code", "quantize E4M3FN tensor 37x300 normal nearest", "code (0, 40)"},
		{"scale", "quantize E5M2 mx 37x300 wide nearest", "scale of block 0"},
		{"stream", "quantize E4M3FN row 256x512 normal stochastic32", "code"},
		{"hardware-nan", "quantize-scales E4M3FN tensor 37x300", "reference 0xff, device 0x7f"},
		{"fwht-ulp", "fwht block 128 x 3", "element 383"},
		{"gemm", "scaled-matmul E4M3FN(tensor)xE4M3FN(tensor) 64x128x48 -> float32", "tolerance"},
		{"bf16-transposed", "matmul-bf16 16x16x16", "tolerance"},
	}
	for _, c := range cases {
		t.Run(c.fault, func(t *testing.T) {
			rep := runCases(t, &faulty{CPU: native.NewCPU(), fault: c.fault}, c.filter)
			require.NotEmpty(t, rep.Results, "the filter selects cases")
			require.Error(t, rep.Err())
			var details []string
			for _, r := range rep.Results {
				if r.Status == "FAIL" {
					details = append(details, r.Detail)
				}
			}
			assert.Contains(t, strings.Join(details, "\n"), c.want)
		})
	}
}

func TestRunToleratesRoundingNoiseAndSkipsUnsupported(t *testing.T) {
	rep := runCases(t, &faulty{CPU: native.NewCPU(), fault: "gemm-noise"}, "scaled-matmul")
	assert.NoError(t, rep.Err(), "a float32 ulp is within the GEMM tolerance")
	// An operation the GPU is known to lack is skipped; any other
	// unsupported answer fails.
	rep = runCases(t, &faulty{CPU: native.NewCPU(), fault: "amax-unsupported"}, "amax tensor")
	assert.Error(t, rep.Err(), "amax is no known GPU limit")
	assert.Equal(t, rep.Failed, len(rep.Results))
	assert.Contains(t, rep.Results[0].Detail, "unexpected skip")
	rep = runCases(t, &faulty{CPU: native.NewCPU(), fault: "gpu-limits"}, "quantize E4M3FN")
	skipped := map[string]int{}
	for _, r := range rep.Results {
		if r.Status != "ok" {
			skipped[r.Status+" "+strings.Fields(r.Name)[2]]++
		}
	}
	n := skipped["skip col"]
	assert.Positive(t, n)
	assert.Equal(t, map[string]int{"skip col": n, "skip tile128x1": n, "FAIL row": n}, skipped,
		"column scales and N×1 tiles are known GPU limits, row scales are not")
	rep = runCases(t, &faulty{CPU: native.NewCPU(), fault: "gpu-limits"}, "quantize E2M1 nvfp4") // and dequantize
	assert.Positive(t, rep.Skipped)
	for _, r := range rep.Results {
		if strings.HasPrefix(r.Name, "quantize ") {
			assert.Equal(t, "skip", r.Status, r.Name)
		} else {
			assert.Equal(t, "ok", r.Status, r.Name)
		}
	}
}

func TestRunStochasticRunsOnceWithTheSoftwareCodec(t *testing.T) {
	rep := runCases(t, native.NewCPU(), "quantize E5M2 row 3x5 normal")
	var names []string
	for _, r := range rep.Results {
		names = append(names, r.Name)
	}
	assert.Equal(t, []string{
		"quantize E5M2 row 3x5 normal nearest codec=software",
		"quantize E5M2 row 3x5 normal nearest codec=hardware",
		"quantize E5M2 row 3x5 normal stochastic32 codec=software",
	}, names)
}

func TestRunDefaultsCodecsFromInfo(t *testing.T) {
	dut := &faulty{CPU: native.NewCPU(), info: native.Info{Name: "fake", HardwareFP8: true}}
	rep, err := Run(native.NewCPU(), dut, Config{Short: true, Filter: "quantize E4M3FN tensor 3x5 normal nearest"})
	require.NoError(t, err)
	var names []string
	for _, r := range rep.Results {
		names = append(names, r.Name)
	}
	assert.ElementsMatch(t, []string{
		"quantize E4M3FN tensor 3x5 normal nearest codec=software",
		"quantize E4M3FN tensor 3x5 normal nearest codec=hardware",
	}, names)
	_, err = Run(nil, dut, Config{})
	assert.ErrorIs(t, err, native.ErrInvalidArgument)
}
