package launch

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/fp8lab/fp8lab/native"
	"github.com/fp8lab/fp8lab/native/kernels"
	"github.com/fp8lab/fp8lab/native/parity"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of this file run the launch programs on the real kernels of
// native/kernels/sw.cu, compiled for the host by testdata/emulate.cc (one
// coroutine per CUDA thread), and compare the results with the CPU backend
// through parity.Run. They check what the GPU cannot be asked here:
// grids, indexing, shuffles, shared memory and the launch arguments.

var emu struct {
	once   sync.Once
	bin    string
	err    string
	broken bool // the compiler is there and the build failed
}

// emulator builds testdata/emulate.cc once, or skips the test.
func emulator(t *testing.T) *emulatorRunner {
	t.Helper()
	emu.once.Do(func() {
		cxx := os.Getenv("CXX")
		if cxx == "" {
			cxx = "g++"
		}
		if _, err := exec.LookPath(cxx); err != nil {
			emu.err = "no C++ compiler (" + cxx + ") on PATH"
			return
		}
		dir, err := os.MkdirTemp("", "fp8lab-emulate")
		if err != nil {
			emu.err = err.Error()
			return
		}
		bin := filepath.Join(dir, "emulate")
		kdir := filepath.Join("..", "..", "kernels")
		out, err := exec.Command(cxx, "-std=c++17", "-O1", "-ffp-contract=off", "-fno-fast-math", "-Wno-unknown-pragmas",
			"-I"+kdir, "-o", bin, filepath.Join(kdir, "testdata", "emulate.cc")).CombinedOutput()
		if err != nil {
			emu.err = "building the emulator: " + err.Error() + "\n" + string(out)
			emu.broken = true
			return
		}
		emu.bin = bin
	})
	if emu.broken {
		t.Fatal(emu.err) // the kernels do not compile: a failure, not a missing tool
	}
	if emu.bin == "" {
		t.Skip(emu.err)
	}
	return &emulatorRunner{bin: emu.bin}
}

// emulatorRunner is a Runner that pipes programs to the emulator.
type emulatorRunner struct {
	bin      string
	launches int
}

func (e *emulatorRunner) Run(p *Program, ext map[string]func(func(int) uintptr) error, outs ...int) ([][]byte, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	var in bytes.Buffer
	w := func(v any) { _ = binary.Write(&in, binary.LittleEndian, v) }
	w(uint32(len(p.Buffers)))
	for _, b := range p.Buffers {
		w(b.Bytes)
		switch {
		case b.Init != nil:
			w(uint8(2))
			in.Write(b.Init)
		case b.Zero:
			w(uint8(1))
		default:
			w(uint8(0))
		}
	}
	w(uint32(len(p.Steps)))
	for _, s := range p.Steps {
		if s.External != "" {
			return nil, fmt.Errorf("%w: the emulator has no %s", native.ErrUnsupported, s.External)
		}
		w(uint32(len(s.Kernel)))
		in.WriteString(s.Kernel)
		w([]int32{int32(s.GridX), int32(s.GridY), int32(s.BlockX), int32(s.BlockY)})
		w(uint32(len(s.Args)))
		for _, a := range s.Args {
			bits := a.Bits
			if a.Kind == ArgBuf {
				bits = uint64(a.Buf)
			}
			w(uint8(min(a.Kind, 1))) // 0 buffer, 1 value
			w(bits)
		}
		e.launches++
	}
	w(uint32(len(outs)))
	for _, o := range outs {
		w(uint32(o))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, e.bin)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("emulator: %w: %s", err, stderr.String())
	}
	res := make([][]byte, len(outs))
	for i, o := range outs {
		n := int(p.Buffers[o].Bytes)
		if len(out) < n {
			return nil, fmt.Errorf("emulator: %d bytes for output %d, want %d", len(out), i, n)
		}
		res[i], out = out[:n], out[n:]
	}
	return res, nil
}

// emulated is the GPU backend with the emulator for a GPU: the elementwise
// operations run the real kernels; the products (cuBLASLt) are unsupported.
type emulated struct{ *Kernels }

func (emulated) Info() native.Info { return native.Info{Name: "emulated", Device: "sw.cu on the host"} }
func (emulated) ScaledMatMul(*scaling.Quantized, *scaling.Quantized, native.Output) (*scaling.Tensor, error) {
	return nil, fmt.Errorf("%w: no cuBLASLt in the emulator", native.ErrUnsupported)
}
func (emulated) MatMulBF16(*scaling.Tensor, *scaling.Tensor, native.Output) (*scaling.Tensor, error) {
	return nil, fmt.Errorf("%w: no cuBLASLt in the emulator", native.ErrUnsupported)
}
func (emulated) Close() error { return nil }

// emuConfig keeps the emulated grids small but smaller than the work, so that grid-stride loops run several rounds.
var emuConfig = Config{SMs: 1, Threads: 128, BlocksPerSM: 2}

func TestEmulatedKernelsMatchTheCPU(t *testing.T) {
	r := emulator(t)
	dut := emulated{&Kernels{Runner: r, Config: emuConfig, Arch: "emulated"}}
	// Odd sizes: 37×300 takes the four-wide paths, 130×257 the scalar ones,
	// both with partial blocks; "special" brings NaN, ±Inf and overflow.
	// "special nearest" with given scales on one block also runs the
	// encode kernel's folded amax, four-wide (37×300) and scalar (130×257).
	filters := []string{"37x300 normal", "37x300 special nearest", "130x257 normal", "130x257 special nearest", "3x5 ", "fwht", "dequantize E5M2"}
	if testenv.Long() {
		filters = []string{"amax", "quantize", "fwht"} // not the products: the emulator has no cuBLASLt
	}
	for _, f := range filters {
		var log strings.Builder
		rep, err := parity.Run(native.NewCPU(), dut, parity.Config{Seed: 3, Short: true, Filter: f, Log: &log,
			Codecs: []native.Codec{native.CodecSoftware}})
		require.NoError(t, err)
		require.NoError(t, rep.Err(), "filter %q:\n%s", f, failures(log.String()))
		assert.Positive(t, rep.OK, f)
		for _, res := range rep.Results {
			if res.Status == "skip" {
				// Expected: only the kinds scaling's table says the GPU does
				// not quantize.
				g, ok := caseGranularity(res.Name)
				assert.True(t, ok && !g.GPUQuantizes(), "unexpected skip of %s: %s", res.Name, res.Detail)
			}
		}
	}
	assert.Positive(t, r.launches)
}

// caseGranularity reads the granularity a parity case names ("quantize
// E4M3FN tile128x1 37x300 ...": the first word that parses as one).
func caseGranularity(name string) (scaling.Granularity, bool) {
	for _, w := range strings.Fields(name) {
		if g, err := scaling.ParseGranularity(w); err == nil {
			return g, true
		}
	}
	return scaling.Granularity{}, false
}

func failures(log string) string {
	var out []string
	for _, l := range strings.Split(log, "\n") {
		if strings.HasPrefix(l, "FAIL") && len(out) < 20 {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func TestEmulatedLargeFWHTUsesGlobalPasses(t *testing.T) {
	r := emulator(t)
	k := &Kernels{Runner: r, Config: emuConfig}
	x, err := parity.MakeInput(2, 1<<15, parity.InputNormal, 4)
	require.NoError(t, err)
	got := append([]float32(nil), x.Data...)
	before := r.launches
	require.NoError(t, k.FWHT(got, 1<<15))
	assert.Equal(t, 2, r.launches-before, "one shared-memory launch and one global pass (stages 12..14)")
	for b := 0; b < 2; b++ {
		require.NoError(t, scaling.FWHT(x.Data[b<<15:(b+1)<<15]))
	}
	for i := range got {
		require.Equal(t, math.Float32bits(x.Data[i]), math.Float32bits(got[i]), "element %d", i)
	}
}

func TestEmulatedMatrixHelpers(t *testing.T) {
	r := emulator(t)
	c := emuConfig
	const rows, cols = 45, 70
	src := make([]uint8, rows*cols)
	for i := range src {
		src[i] = uint8(i * 7)
	}
	x, err := parity.MakeInput(rows, cols, parity.InputSpecial, 5)
	require.NoError(t, err)
	fa, fb := make([]float32, rows), make([]float32, cols)
	for i := range fa {
		fa[i] = float32(i) * 0.37
	}
	for j := range fb {
		fb[j] = 1 / float32(j+1)
	}
	var p Program
	s, t8 := Upload(&p, src), p.Alloc(rows*cols)
	c.TransposeU8(&p, s, rows, cols, t8)
	xf := Upload(&p, x.Data)
	b1, b2 := p.Alloc(2*rows*cols), p.Alloc(2*rows*cols)
	c.ToBF16(&p, xf, rows, cols, false, b1)
	c.ToBF16(&p, xf, rows, cols, true, b2)
	out := Upload(&p, x.Data)
	c.ScaleRowCol(&p, out, rows, cols, Upload(&p, fa), Upload(&p, fb))
	res, err := r.Run(&p, nil, t8, b1, b2, out)
	require.NoError(t, err)
	tr, bf, bft, sc := res[0], as[uint16](res[1]), as[uint16](res[2]), as[float32](res[3])
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			v := x.Data[i*cols+j]
			require.Equal(t, src[i*cols+j], tr[j*rows+i])
			want := fp8.BF16.Encode32(v)
			require.Equal(t, want, bf[i*cols+j])
			require.Equal(t, want, bft[j*rows+i])
			w := v * (fa[i] * fb[j])
			require.True(t, math.Float32bits(w) == math.Float32bits(sc[i*cols+j]) || w != w && sc[i*cols+j] != sc[i*cols+j], "(%d, %d)", i, j)
		}
	}
}

func TestEmulatorNoticesUnwrittenOutput(t *testing.T) {
	r := emulator(t)
	var p Program
	blank := p.Alloc(8)
	res, err := r.Run(&p, nil, blank)
	require.NoError(t, err)
	assert.Equal(t, bytes.Repeat([]byte{0xCD}, 8), res[0], "blank buffers are poisoned")
	p.External("gemm")
	_, err = r.Run(&p, nil, blank)
	assert.ErrorIs(t, err, native.ErrUnsupported)
	if runtime.GOOS != "linux" {
		t.Log("emulator checked on", runtime.GOOS)
	}
}

// TestFWHTRefusesPartialBlocks is the bench's old overflow: 24576 elements
// are a multiple of 8192 but not of the 32768-point transform.
func TestFWHTRefusesPartialBlocks(t *testing.T) {
	var p Program
	x := p.Alloc(4 * 24576)
	emuConfig.FWHT(&p, x, 24576, 15, 1)
	assert.ErrorContains(t, p.Check(), "multiple of the block")
	var q Program
	y := q.Alloc(4 * 1024)
	emuConfig.FWHT(&q, y, 4096, 12, 1)
	assert.ErrorContains(t, q.Check(), "too small")
}

// TestEmulatedFWHTKernelsGuardTheirBounds launches the kernels directly,
// past the host's check, with a length that is not a multiple of the
// span of their groups: they must leave the buffer, and what lies beyond
// the length, untouched.
func TestEmulatedFWHTKernelsGuardTheirBounds(t *testing.T) {
	r := emulator(t)
	const total, size = 24576, 32768
	data := make([]float32, size)
	for i := range data {
		data[i] = float32(i%7) - 3
	}
	var p Program
	x := Upload(&p, data)
	p.Launch(kernels.FWHTGlobal, 4, emuConfig.Threads, Ptr(x), I64(total), I64(4096), I32(3), Bool(true), F32(0.5))
	p.Launch(kernels.FWHTShared, 2, emuConfig.Threads, Ptr(x), I64(total-4), I32(12), Bool(true), F32(0.5))
	res, err := r.Run(&p, nil, x)
	require.NoError(t, err)
	assert.Equal(t, Bytes(data), res[0], "an invalid launch writes nothing")
}
