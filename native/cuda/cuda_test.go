//go:build cuda

package cuda

// These tests need a GPU. Build them anywhere with the CUDA headers
// (scripts/cuda-headers.sh), run them on the GPU machine:
//
//	go test -c -tags cuda -o native-cuda.test ./native/cuda
//	./native-cuda.test -test.v            # on the GPU machine
//
// On a machine without a usable GPU the binary stops before the tests
// with one line from internal/drivercheck and exit status 2.

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/fp8lab/fp8lab/native"
	"github.com/fp8lab/fp8lab/native/parity"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var shared struct {
	once sync.Once
	dev  *Device
	err  error
}

func device(t *testing.T) *Device {
	t.Helper()
	shared.once.Do(func() { shared.dev, shared.err = Open(0) })
	require.NoError(t, shared.err)
	return shared.dev
}

// logWriter sends each line to t.Log.
type logWriter struct{ t *testing.T }

func (w logWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func TestParity(t *testing.T) {
	d := device(t)
	t.Logf("device: %s", d.Info().Device)
	rep, err := parity.Run(native.NewCPU(), d, parity.Config{Seed: 1, Short: !testenv.Long(), Log: logWriter{t}})
	require.NoError(t, err)
	require.NoError(t, rep.Err())
	// The GPU must really run the operations it claims, not skip them.
	ok := map[string]int{}
	for _, r := range rep.Results {
		if r.Status == "ok" {
			ok[strings.Fields(r.Name)[0]]++
		}
	}
	for _, op := range []string{"amax", "quantize", "quantize-scales", "dequantize", "fwht", "scaled-matmul", "matmul-bf16"} {
		assert.Positive(t, ok[op], op)
	}
	skipped := 0
	for _, r := range rep.Results {
		if r.Status == "skip" {
			skipped++
			assert.Regexp(t, `(col|nvfp4|E2M1|multiples of 16|E5M2×E5M2|tensor×tensor)`, r.Name+" "+r.Detail, "unexpected skip")
		}
	}
	t.Logf("parity: %d ok, %d skipped", rep.OK, skipped)
}

func TestCodecsAgreeOnEveryFloat32Class(t *testing.T) {
	d := device(t)
	if !d.Info().HardwareFP8 {
		t.Skip("the hardware FP8 conversion needs sm_90")
	}
	x, err := parity.MakeInput(64, 1024, parity.InputSpecial, 9)
	require.NoError(t, err)
	scales := []float32{1}
	for _, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2} {
		sw, err := d.Quantize(x, f, scaling.PerTensor, native.QuantizeOptions{Scales: scales, Codec: native.CodecSoftware})
		require.NoError(t, err)
		hw, err := d.Quantize(x, f, scaling.PerTensor, native.QuantizeOptions{Scales: scales, Codec: native.CodecHardware})
		require.NoError(t, err)
		assert.Equal(t, sw.Codes, hw.Codes, f.Name())
	}
}

func TestErrorsCarryTheCUDAMessage(t *testing.T) {
	d := device(t)
	err := d.do("huge allocation", func() error {
		var a arena
		defer a.free()
		_, err := a.alloc(1 << 50) // 1 PiB
		return err
	})
	require.Error(t, err)
	assert.ErrorIs(t, err, native.ErrDevice)
	assert.ErrorIs(t, err, ErrOutOfMemory)
	var ce *Error
	require.True(t, errors.As(err, &ce))
	assert.Equal(t, "CUDA_ERROR_OUT_OF_MEMORY", ce.Name)
	assert.Contains(t, err.Error(), "out of memory")
	// The device still works afterwards.
	x, err := parity.MakeInput(4, 8, parity.InputNormal, 1)
	require.NoError(t, err)
	_, err = d.Amax(x, scaling.PerTensor)
	assert.NoError(t, err)
}

func TestUnsupportedAndInvalid(t *testing.T) {
	d := device(t)
	x, err := parity.MakeInput(20, 36, parity.InputNormal, 2)
	require.NoError(t, err)
	_, err = d.Quantize(x, fp8.E4M3FN, scaling.PerCol, native.QuantizeOptions{})
	assert.ErrorIs(t, err, native.ErrUnsupported)
	_, err = d.Quantize(x, fp8.E2M1, scaling.PerTensor, native.QuantizeOptions{})
	assert.ErrorIs(t, err, native.ErrUnsupported)
	_, err = d.Quantize(x, fp8.E4M3FN, scaling.PerTensor, native.QuantizeOptions{Stochastic: &native.Stochastic{Bits: 0}})
	assert.ErrorIs(t, err, native.ErrInvalidArgument)
	q, err := native.NewCPU().Quantize(x, fp8.E4M3FN, scaling.PerTensor, native.QuantizeOptions{})
	require.NoError(t, err)
	qb, err := native.NewCPU().Quantize(&scaling.Tensor{Rows: 36, Cols: 20, Data: x.Data}, fp8.E4M3FN, scaling.PerTensor, native.QuantizeOptions{})
	require.NoError(t, err)
	_, err = d.ScaledMatMul(q, qb, native.OutputFloat32)
	assert.ErrorIs(t, err, native.ErrUnsupported, "20×36×20 is not a multiple of 16")
	assert.ErrorIs(t, d.FWHT(make([]float32, 12), 8), native.ErrInvalidArgument)
}

func TestBenchRunsSmall(t *testing.T) {
	d := device(t)
	var log bytes.Buffer
	rep, err := d.Bench(BenchConfig{Elements: 1 << 20, Iters: 2, GEMM: []int{256}, Log: &log})
	require.NoError(t, err, log.String())
	assert.NotEmpty(t, rep.Results)
	assert.Equal(t, "copy cuMemcpyDtoD (read + write)", rep.Results[0].Name)
	for _, r := range rep.Results {
		assert.True(t, r.GBps > 0 || r.TFLOPS > 0 || r.Ratio > 0, r.Name)
	}
	assert.Contains(t, log.String(), "bench [")
}

func TestClosedDevice(t *testing.T) {
	d, err := Open(0)
	require.NoError(t, err)
	require.NoError(t, d.Close())
	require.NoError(t, d.Close(), "closing twice is fine")
	_, err = d.Amax(&scaling.Tensor{Rows: 1, Cols: 1, Data: []float32{1}}, scaling.PerTensor)
	assert.ErrorIs(t, err, native.ErrClosed)
	_, err = Open(1 << 20)
	assert.ErrorIs(t, err, native.ErrInvalidArgument)
}

// TestLinearPlans runs the linear layer's three plans on the GPU at a
// small shape (compared with the CPU inside Linear) and times them once at
// another: every launch gets a time.
func TestLinearPlans(t *testing.T) {
	d := device(t)
	if _, _, err := d.CUBLASLt(); err != nil {
		t.Skipf("no cuBLASLt: %v", err)
	}
	rep, err := d.Linear(LinearConfig{Sizes: []int{512}, Iters: 2, Log: logWriter{t}})
	require.NoError(t, err)
	assert.Len(t, rep.Verified, 3)
	require.Len(t, rep.Shapes, 1)
	require.Len(t, rep.Shapes[0].Plans, 3)
	for _, p := range rep.Shapes[0].Plans {
		assert.Positive(t, p.Millis, p.Plan)
		for _, s := range p.Steps {
			assert.Positive(t, s.Millis, "%s: %s", p.Plan, s.Name)
		}
	}
}
