package kernels

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/fp8lab/fp8lab/rng"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of this file compile testdata/hostcheck.cc, which includes the
// kernels' common.cuh, with the host C++ compiler and compare its results
// with the Go packages bit for bit. They check the arithmetic the GPU runs
// (codecs, Philox, scale rules, BF16, the Hadamard stage order) on machines
// without a GPU; what they cannot check (launches, indexing, shuffles) is
// left to `fp8lab-gpu parity` on a GPU.

var host struct {
	once   sync.Once
	bin    string
	fp8    bool // built with cuda_fp8.h (hardware-conversion emulation)
	err    string
	broken bool // the compiler is there and the build failed
}

// cudaInclude returns a folder holding cuda_fp8.h, or "".
func cudaInclude() string {
	cache := os.Getenv("FP8LAB_CUDA_CACHE")
	if cache == "" {
		if home, err := os.UserHomeDir(); err == nil {
			cache = filepath.Join(home, ".cache", "fp8lab", "cuda")
		}
	}
	for _, dir := range []string{filepath.Join(cache, "usr", "include"), "/usr/local/cuda/include", "/usr/include"} {
		if _, err := os.Stat(filepath.Join(dir, "cuda_fp8.h")); err == nil {
			return dir
		}
	}
	return ""
}

// hostBinary builds hostcheck once per test binary, or skips the test.
func hostBinary(t *testing.T) string {
	t.Helper()
	host.once.Do(func() {
		cxx := os.Getenv("CXX")
		if cxx == "" {
			cxx = "g++"
		}
		if _, err := exec.LookPath(cxx); err != nil {
			host.err = "no C++ compiler (" + cxx + ") on PATH"
			return
		}
		dir, err := os.MkdirTemp("", "fp8lab-hostcheck")
		if err != nil {
			host.err = err.Error()
			return
		}
		host.bin = filepath.Join(dir, "hostcheck")
		args := []string{"-O2", "-std=c++14", "-ffp-contract=off", "-fno-fast-math", "-Wno-unknown-pragmas", "-I.", "-o", host.bin, "testdata/hostcheck.cc"}
		if inc := cudaInclude(); inc != "" {
			if out, err := exec.Command(cxx, append([]string{"-DFL_HAVE_CUDA_FP8", "-I" + inc}, args...)...).CombinedOutput(); err == nil {
				host.fp8 = true
				return
			} else {
				_ = out // fall back to the build without the emulation
			}
		}
		if out, err := exec.Command(cxx, args...).CombinedOutput(); err != nil {
			host.err = "building hostcheck: " + err.Error() + "\n" + string(out)
			host.bin = ""
			host.broken = true
		}
	})
	if host.broken {
		t.Fatal(host.err) // the sources do not compile: a failure, not a missing tool
	}
	if host.bin == "" {
		t.Skip("hostcheck not built: " + host.err)
	}
	return host.bin
}

// run feeds records to hostcheck and returns its output.
func run(t *testing.T, in []byte, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(hostBinary(t), args...)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "hostcheck %v: %s", args, stderr.String())
	return out
}

func le(vals ...any) []byte {
	var b bytes.Buffer
	for _, v := range vals {
		_ = binary.Write(&b, binary.LittleEndian, v)
	}
	return b.Bytes()
}

// floatInputs returns float32 bit patterns that exercise every path of the
// codecs: specials, zeros, float32 subnormals, every binade around the FP8
// ranges with low, high and midpoint mantissas, and random patterns.
func floatInputs(n int, seed uint64) []uint32 {
	in := []uint32{0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFFFFFFF, 1, 0x807FFFFF}
	for _, v := range []float32{448, 464, 464.00003, 480, 57344, 61440, 61439.996, 65536, 0x1p-9, 0x1p-10, 0x1.8p-10, 0x1p-16, 0x1p-17, 0x1.8p-17, 3e38} {
		in = append(in, math.Float32bits(v), math.Float32bits(-v))
	}
	for e := uint32(90); e < 160; e++ {
		for _, m := range []uint32{0, 1, 0x7FFFF, 0x80000, 0x80001, 0xFFFFF, 0x100000, 0x200000, 0x3FFFFF, 0x400000, 0x7FFFFF} {
			in = append(in, e<<23|m, 0x80000000|e<<23|m)
		}
	}
	r := rand.New(rand.NewPCG(seed, 1))
	for len(in) < n {
		in = append(in, r.Uint32())
	}
	return in
}

func samples() int {
	if !testenv.Long() {
		return 1 << 18
	}
	return 1 << 21
}

func TestHostEncodeNearestEqualsFP8(t *testing.T) {
	in := floatInputs(samples(), 1)
	src := make([]float32, len(in))
	for i, u := range in {
		src[i] = math.Float32frombits(u)
	}
	for id, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2} {
		want := make([]uint8, len(src))
		require.NoError(t, f.EncodeSlice32(want, src, fp8.Mode{}))
		got := run(t, le(in), "enc", strconv.Itoa(id))
		require.Len(t, got, len(want))
		for i := range want {
			if want[i] != got[i] {
				t.Fatalf("%s: %#08x (%g): fp8 %#02x, common.cuh %#02x", f, in[i], src[i], want[i], got[i])
			}
		}
	}
}

// TestHostHardwareEmulationEqualsFP8 checks the hardware path's semantics
// (cuda_fp8.hpp's host emulation of cvt.rn.satfinite, which NVIDIA gives
// as the instruction's behaviour, plus the kernels' NaN fix-up).
func TestHostHardwareEmulationEqualsFP8(t *testing.T) {
	hostBinary(t)
	if !host.fp8 {
		t.Skip("cuda_fp8.h not found (run scripts/cuda-headers.sh)")
	}
	in := floatInputs(samples(), 2)
	for id, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2} {
		got := run(t, le(in), "hwemu", strconv.Itoa(id))
		for i, u := range in {
			want, err := f.Encode32(math.Float32frombits(u), fp8.Mode{})
			require.NoError(t, err)
			if want != got[i] {
				t.Fatalf("%s: %#08x: fp8 %#02x, emulated cvt %#02x", f, u, want, got[i])
			}
		}
	}
}

func TestHostEncodeStochasticEqualsFP8(t *testing.T) {
	in := floatInputs(samples()/2, 3)
	r := rand.New(rand.NewPCG(3, 3))
	rnd := make([]uint32, len(in))
	rec := make([]uint32, 0, 2*len(in))
	src := make([]float32, len(in))
	for i, u := range in {
		rnd[i] = r.Uint32()
		if i%7 == 0 {
			rnd[i] = []uint32{0, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF}[i/7%4]
		}
		rec = append(rec, u, rnd[i])
		src[i] = math.Float32frombits(u)
	}
	for id, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2} {
		for _, bits := range []int{1, 3, 8, 20, 21, 22, 23, 24, 31, 32} {
			want := make([]uint8, len(src))
			require.NoError(t, f.EncodeSliceStochastic32(want, src, rnd, fp8.Mode{Round: fp8.Stochastic, RandomBits: bits}))
			got := run(t, le(rec), "sto", strconv.Itoa(id), strconv.Itoa(bits))
			require.Len(t, got, len(want))
			for i := range want {
				if want[i] != got[i] {
					t.Fatalf("%s, %d bits: %#08x with random %#08x: fp8 %#02x, common.cuh %#02x", f, bits, in[i], rnd[i], want[i], got[i])
				}
			}
		}
	}
}

func TestHostPhiloxEqualsDither(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	var rec []uint64
	for i := 0; i < 20000; i++ {
		seed, stream, index := r.Uint64(), r.Uint64(), r.Uint64()
		switch i % 4 {
		case 0:
			seed, stream, index = 0, 0, uint64(i)
		case 1:
			index = math.MaxUint64 - uint64(i%8)
		case 2:
			index = uint64(i)
		}
		rec = append(rec, seed, stream, index)
	}
	got := run(t, le(rec), "bits")
	require.Len(t, got, 4*len(rec)/3)
	for i := 0; i < len(rec)/3; i++ {
		want := rng.Bits(rec[3*i], rec[3*i+1], rec[3*i+2])
		require.Equal(t, want, binary.LittleEndian.Uint32(got[4*i:]), "Bits(%#x, %#x, %#x)", rec[3*i], rec[3*i+1], rec[3*i+2])
	}
}

// amaxInputs returns amax values from zero through subnormals to MaxFloat32.
func amaxInputs() []float32 {
	out := []float32{0, math.Float32frombits(1), 0x1p-140, 1e-30, 1e-12, 1e-10, 0x1p-20, 0.3, 1, 1.5, 3, 448, 449, 57344, 1e20, 1e35, math.MaxFloat32}
	r := rand.New(rand.NewPCG(5, 5))
	for i := 0; i < 2000; i++ {
		out = append(out, math.Float32frombits(r.Uint32()&0x7F7FFFFF))
	}
	return out
}

func TestHostScaleRuleEqualsScaling(t *testing.T) {
	for id, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2} {
		var rec []byte
		var rules []scaling.ScaleRule
		var amaxes []float32
		for _, a := range amaxInputs() {
			for _, rule := range []scaling.ScaleRule{{}, {Eps: 1e-3}, {Eps: 1e-300}, {Margin: 1}, {Margin: -3},
				{Margin: 200}, {Margin: -200}, {Margin: 1000}, {Margin: -1000, Eps: 1e-300}, {Pow2: scaling.Pow2Down},
				{Pow2: scaling.Pow2Up}, {Pow2: scaling.Pow2Up, Margin: -130}, {Pow2: scaling.Pow2Down, Margin: 130}} {
				eps := rule.Eps
				if eps == 0 {
					eps = scaling.DefaultEps
				}
				rec = append(rec, le(math.Float32bits(a), eps, int32(rule.Margin), int32(rule.Pow2))...)
				rules = append(rules, rule)
				amaxes = append(amaxes, a)
			}
		}
		got := run(t, rec, "rule", strconv.Itoa(id))
		require.Len(t, got, 4*len(rules))
		for i, rule := range rules {
			want, err := rule.Scale(float64(amaxes[i]), f)
			require.NoError(t, err)
			g := math.Float32frombits(binary.LittleEndian.Uint32(got[4*i:]))
			require.Equal(t, math.Float32bits(want), math.Float32bits(g), "%s %+v amax %g: scaling %g, common.cuh %g", f, rule, amaxes[i], want, g)
		}
	}
}

func TestHostMXScaleEqualsFP8(t *testing.T) {
	amaxes := amaxInputs()
	for id, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2} {
		for _, rounding := range []fp8.ScaleRounding{fp8.ScaleFloor, fp8.ScaleCeil, fp8.ScaleNearestEven} {
			got := run(t, le(func() []uint32 {
				out := make([]uint32, len(amaxes))
				for i, a := range amaxes {
					out[i] = math.Float32bits(a)
				}
				return out
			}()), "mx", strconv.Itoa(id), strconv.Itoa(int(rounding)))
			require.Len(t, got, 5*len(amaxes))
			for i, a := range amaxes {
				want, err := fp8.MXScale(float64(a), f, rounding)
				require.NoError(t, err)
				k, _ := fp8.E8M0Exponent(want)
				require.Equal(t, want, got[5*i], "%s %s amax %g", f, rounding, a)
				scale := math.Float32frombits(binary.LittleEndian.Uint32(got[5*i+1:]))
				require.Equal(t, float32(math.Ldexp(1, -k)), scale, "%s %s amax %g", f, rounding, a)
			}
		}
	}
}

func TestHostBF16EqualsFP8(t *testing.T) {
	in := floatInputs(samples(), 6)
	got := run(t, le(in), "bf16")
	require.Len(t, got, 2*len(in))
	for i, u := range in {
		want := fp8.BF16.Encode32(math.Float32frombits(u))
		require.Equal(t, want, binary.LittleEndian.Uint16(got[2*i:]), "%#08x", u)
	}
}

func TestHostFWHTStageOrderEqualsScaling(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for lb := 1; lb <= 15; lb++ {
		n := 1 << lb
		count := max(1, (1<<16)/n) + 1
		x := make([]float32, n*count)
		for i := range x {
			x[i] = float32(r.NormFloat64())
			if i%101 == 0 {
				x[i] *= 1e4
			}
		}
		want := append([]float32(nil), x...)
		for b := 0; b < count; b++ {
			require.NoError(t, scaling.FWHT(want[b*n:(b+1)*n]))
		}
		norm := float32(1 / math.Sqrt(float64(n)))
		got := run(t, le(x), "fwht", strconv.Itoa(lb), strconv.FormatUint(uint64(math.Float32bits(norm)), 10))
		require.Len(t, got, 4*len(x))
		for i := range want {
			g := math.Float32frombits(binary.LittleEndian.Uint32(got[4*i:]))
			if math.Float32bits(want[i]) != math.Float32bits(g) {
				t.Fatalf("block 2^%d, element %d: scaling %g, kernel order %g", lb, i, want[i], g)
			}
		}
	}
	assert.Equal(t, FWHTChunk, 4096)
}
