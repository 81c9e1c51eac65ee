// Package native runs the operations the playground teaches (amax,
// quantize, dequantize, stochastic rounding, Hadamard transforms, scaled FP8
// and BF16 matrix products) behind one Backend interface, so that the same
// program runs on the CPU or on a GPU and can prove that both compute the
// same arithmetic.
//
// The CPU backend (NewCPU) is built on the core packages fp8, scaling and
// rng, splits its work across cores, and is the default everywhere. The
// CUDA backend lives in native/cuda behind the build tag "cuda": it imports
// gorgonia.org/cu, whose package initialisation ends the process on a
// machine without a GPU, so nothing in the default build links it. Run it
// through the fp8lab-gpu binary (cmd/fp8lab-gpu) or `fp8lab gpu`.
//
// Every backend computes the CPU's arithmetic: each operation bit for bit
// (NaN payloads aside), matrix products within GEMMTolFP8 or GEMMTolBF16 of
// Σ|a||b| as ProductError measures. Package native/parity checks that on a
// device (Run, and Dump for an oracle outside fp8lab); native/accum
// measures how a GPU's fast FP8 accumulation rounds.
//
// This package has no cgo and imports no CUDA code; it builds for GOOS=js too.
package native

import (
	"errors"
	"fmt"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
)

// Errors shared by the backends. Wrapped errors carry details; test them with
// errors.Is. Errors of the core packages (scaling.ErrShape,
// scaling.ErrNonFinite, ...) pass through unchanged, so both backends report
// bad input alike.
var (
	// ErrUnsupported reports an operation, format, granularity or shape that
	// a backend does not implement (for example column scales on the GPU, or
	// an FP8 GEMM whose dimensions are not multiples of 16).
	ErrUnsupported = errors.New("native: unsupported by this backend")
	// ErrInvalidArgument reports bad options: a random-bit count outside
	// 1..32, an unknown codec or output type, a Hadamard block that is not a
	// power of two dividing the length.
	ErrInvalidArgument = errors.New("native: invalid argument")
	// ErrDevice reports a failure of the device or its libraries: no GPU,
	// out of memory, a failed kernel launch, a missing cuBLASLt. The wrapped
	// error carries the CUDA message.
	ErrDevice = errors.New("native: device error")
	// ErrClosed reports a call on a backend after Close.
	ErrClosed = errors.New("native: backend closed")
)

// MaxFWHTBlock is the largest Hadamard block size the backends accept (2^15).
const MaxFWHTBlock = 1 << 15

// Codec selects how a GPU rounds float32 to FP8. The CPU backend always uses
// the fp8 package's codec and accepts every value.
type Codec uint8

const (
	// CodecAuto uses the hardware conversion where the device has it
	// (compute capability 8.9 and up) and the software codec elsewhere.
	CodecAuto Codec = iota
	// CodecSoftware is the port of the fp8 package's float32 fast path to
	// CUDA C: integer arithmetic on the float32 bits, on any GPU.
	CodecSoftware
	// CodecHardware uses the PTX instruction
	// cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 (sm_90 and up; sm_89 where the
	// driver accepts PTX ISA 8.1). NaN inputs are mapped to the fp8
	// package's NaN codes (the instruction writes 0x7F whatever the sign),
	// so that codes stay bit-identical. Stochastic rounding always uses the
	// software codec.
	CodecHardware
)

var codecNames = [...]string{"auto", "software", "hardware"}

// String returns auto, software or hardware.
func (c Codec) String() string {
	if int(c) < len(codecNames) {
		return codecNames[c]
	}
	return fmt.Sprintf("Codec(%d)", uint8(c))
}

// ParseCodec parses auto, software (sw) or hardware (hw).
func ParseCodec(s string) (Codec, error) {
	switch s {
	case "auto", "":
		return CodecAuto, nil
	case "software", "sw":
		return CodecSoftware, nil
	case "hardware", "hw":
		return CodecHardware, nil
	}
	return 0, fmt.Errorf("%w: unknown codec %q (auto, software, hardware)", ErrInvalidArgument, s)
}

// Stochastic configures stochastic rounding: element (i, j) of a Rows×Cols
// tensor uses the low Bits bits of rng.Bits(Seed, Stream, i*Cols+j), the
// Philox4x32-10 mapping shared by the CPU, WASM and the CUDA kernels.
type Stochastic struct {
	Seed   uint64 // the Philox key
	Stream uint64 // one stream per tensor: the high half of the Philox counter
	Bits   int    // random bits added below the last kept bit, 1..32
}

// QuantizeOptions configures Backend.Quantize. The zero value is current
// scaling with float32 scales (torchao's rule), round to nearest even,
// saturating: the core's default.
type QuantizeOptions struct {
	// Rule is the scale rule of the float32-scale granularities (tensor,
	// row, col, tile, block); it must be zero for MX and NVFP4.
	Rule scaling.ScaleRule
	// MXRounding picks the MX shared-exponent rule (floor, ceil, nearest).
	MXRounding fp8.ScaleRounding
	// Scales, when not nil, gives one float32 scale per block instead of
	// computing them from the amax (delayed scaling): the core's
	// QuantizeWithScales. Elements are then not checked, so NaN, ±Inf and
	// values beyond Max are encoded (saturating).
	Scales []float32
	// Stochastic, when not nil, rounds stochastically instead of to nearest.
	Stochastic *Stochastic
	// Codec picks the GPU's FP8 conversion; the CPU ignores it.
	Codec Codec
}

// Check validates the options that do not depend on the tensor.
func (o QuantizeOptions) Check() error {
	if o.Codec > CodecHardware {
		return fmt.Errorf("%w: codec %d", ErrInvalidArgument, o.Codec)
	}
	if s := o.Stochastic; s != nil && (s.Bits < 1 || s.Bits > 32) {
		return fmt.Errorf("%w: stochastic rounding needs 1..32 random bits, got %d", ErrInvalidArgument, s.Bits)
	}
	return nil
}

// Mode returns the element rounding the options ask for.
func (o QuantizeOptions) Mode() fp8.Mode {
	if o.Stochastic == nil {
		return fp8.Mode{}
	}
	return fp8.Mode{Round: fp8.Stochastic, RandomBits: o.Stochastic.Bits}
}

// Output is the element type of a matrix product's result.
type Output uint8

const (
	// OutputFloat32 returns the float32 result.
	OutputFloat32 Output = iota
	// OutputBF16 rounds the result to BF16 (nearest even); the returned
	// tensor holds the BF16 values as float32.
	OutputBF16
)

// String returns float32 or bf16.
func (o Output) String() string {
	switch o {
	case OutputFloat32:
		return "float32"
	case OutputBF16:
		return "bf16"
	}
	return fmt.Sprintf("Output(%d)", uint8(o))
}

// Info describes a backend.
type Info struct {
	// Name is "cpu" or "cuda".
	Name string `json:"name"`
	// Device says what runs the work, e.g. "8 cores (amd64)" or
	// "NVIDIA H100 80GB HBM3 (sm_90, driver 13.0)".
	Device string `json:"device"`
	// HardwareFP8 reports whether CodecHardware is available.
	HardwareFP8 bool `json:"hardware_fp8"`
}

// Backend runs the operations on one device. Methods take and return host
// data in the core's types; a backend is safe for concurrent use (the CUDA
// backend serializes calls). Every error wraps a sentinel of this package or
// of the core packages.
type Backend interface {
	// Info describes the backend.
	Info() Info
	// Amax returns the amax of every block of granularity g, laid out as
	// scaling.AmaxGrid does (NaN if a block holds a NaN, else +Inf if it
	// holds an infinity).
	Amax(t *scaling.Tensor, g scaling.Granularity) (*scaling.Tensor, error)
	// Quantize quantizes t to element format f with granularity g, exactly
	// as scaling.Quantize (or scaling.QuantizeWithScales when opts.Scales is
	// set) does, with stochastic rounding drawn from opts.Stochastic.
	Quantize(t *scaling.Tensor, f *fp8.Format, g scaling.Granularity, opts QuantizeOptions) (*scaling.Quantized, error)
	// Dequantize decodes q as q.Dequantize does.
	Dequantize(q *scaling.Quantized) (*scaling.Tensor, error)
	// FWHT applies the normalized fast Walsh–Hadamard transform in place to
	// every consecutive block of x, as scaling.FWHT does on each block.
	// block must be a power of two up to MaxFWHTBlock dividing len(x).
	FWHT(x []float32, block int) error
	// ScaledMatMul multiplies two quantized matrices (A is M×K, B is K×N)
	// with float32 accumulation, as scaling.ScaledMatMul with
	// scaling.Float32Accumulator does, and rounds the result to out.
	ScaledMatMul(a, b *scaling.Quantized, out Output) (*scaling.Tensor, error)
	// MatMulBF16 rounds a (M×K) and b (K×N) to BF16, multiplies them with
	// float32 (or better) accumulation and rounds the result to out.
	MatMulBF16(a, b *scaling.Tensor, out Output) (*scaling.Tensor, error)
	// Close releases the backend's resources; later calls return ErrClosed.
	Close() error
}

// CheckFWHT validates the arguments of Backend.FWHT.
func CheckFWHT(n, block int) error {
	if block < 1 || block > MaxFWHTBlock || block&(block-1) != 0 {
		return fmt.Errorf("%w: Hadamard block %d is not a power of two in 1..%d", ErrInvalidArgument, block, MaxFWHTBlock)
	}
	if n%block != 0 {
		return fmt.Errorf("%w: length %d is not a multiple of the Hadamard block %d", ErrInvalidArgument, n, block)
	}
	return nil
}

// CheckMatMul validates the operand shapes of a product a·b (a is M×K, b
// is K×N) and the output type.
func CheckMatMul(aRows, aCols, bRows, bCols int, out Output) error {
	if out > OutputBF16 {
		return fmt.Errorf("%w: output %d", ErrInvalidArgument, out)
	}
	if aRows < 1 || aCols < 1 || bRows < 1 || bCols < 1 || aCols != bRows {
		return fmt.Errorf("%w: cannot multiply %d×%d by %d×%d", scaling.ErrShape, aRows, aCols, bRows, bCols)
	}
	return nil
}

// RoundOutput rounds every element of t to out in place: a no-op for
// float32, BF16 nearest-even (fp8.BF16) for bf16.
func RoundOutput(t *scaling.Tensor, out Output) {
	if out != OutputBF16 || t == nil {
		return
	}
	for i, v := range t.Data {
		t.Data[i] = fp8.BF16.Decode(fp8.BF16.Encode32(v))
	}
}

// SameFormat reports whether a and b encode alike (whatever their names).
func SameFormat(a, b *fp8.Format) bool {
	if a == nil || b == nil {
		return a == b
	}
	sa, sb := a.Spec(), b.Spec()
	sa.Name, sb.Name = "", ""
	return sa == sb
}
