// Package launch describes what the CUDA backend does for each operation
// as a Program: device buffers (uploaded, zeroed or blank), kernel launches
// with their grids and arguments, and the buffers to read back. It has no
// cgo and no CUDA dependency, so the same programs run on a GPU (native/cuda
// executes them with gorgonia.org/cu) and, in tests, in a host emulator
// that compiles the real kernel sources with g++ (native/kernels/testdata).
package launch

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/fp8lab/fp8lab/native/kernels"
)

// ArgKind says how a kernel argument's 8-byte slot is filled.
type ArgKind uint8

// Argument kinds. Every argument occupies one 8-byte slot; kernels read
// the low bytes their parameter type needs.
const (
	ArgBuf ArgKind = iota // a device pointer to buffer Buf
	ArgI64                // long long
	ArgI32                // int (zero-extended two's complement)
	ArgU64                // unsigned long long
	ArgF32                // float (bits in the low half)
	ArgF64                // double
)

// Arg is one kernel argument.
type Arg struct {
	Kind ArgKind
	Buf  int    // for ArgBuf
	Bits uint64 // the slot for the other kinds
}

// Ptr passes buffer b.
func Ptr(b int) Arg { return Arg{Kind: ArgBuf, Buf: b} }

// Null is a null pointer argument (an optional buffer left out).
func Null() Arg { return Arg{Kind: ArgU64} }

// I64 passes a long long.
func I64(v int64) Arg { return Arg{Kind: ArgI64, Bits: uint64(v)} }

// I32 passes an int.
func I32(v int) Arg { return Arg{Kind: ArgI32, Bits: uint64(uint32(int32(v)))} }

// Bool passes an int, 1 or 0.
func Bool(v bool) Arg {
	if v {
		return I32(1)
	}
	return I32(0)
}

// U64 passes an unsigned long long.
func U64(v uint64) Arg { return Arg{Kind: ArgU64, Bits: v} }

// F32 passes a float.
func F32(v float32) Arg { return Arg{Kind: ArgF32, Bits: uint64(math.Float32bits(v))} }

// F64 passes a double.
func F64(v float64) Arg { return Arg{Kind: ArgF64, Bits: math.Float64bits(v)} }

// Buffer is a device allocation of a program.
type Buffer struct {
	Bytes int64
	Init  []byte // uploaded when not nil (len(Init) == Bytes)
	Zero  bool   // zeroed when Init is nil
}

// Step is one kernel launch on a GridX×GridY grid of BlockX×BlockY
// threads; or, when External is set, a call the runner provides (the
// cuBLASLt product between the kernels of a GEMM); or, when GEMM is set, a
// matrix product the runner makes with its library. Name and Role label
// the step for timings (gpu.LinearStep); they change nothing it does.
type Step struct {
	Kernel       string
	GridX, GridY int
	BlockX       int
	BlockY       int
	Args         []Arg
	External     string
	GEMM         *GEMM
	Name, Role   string
}

// Element types of a GEMM's operands.
const (
	TypeE4M3 = kernels.FormatE4M3FN // FP8 E4M3FN codes
	TypeE5M2 = kernels.FormatE5M2   // FP8 E5M2 codes
	TypeBF16 = 100                  // BF16 codes (uint16)
)

// GEMM is a matrix product in row-major terms: D (M×N, float32) =
// op(A)·op(B), where op(A) is A stored M×K, or Aᵀ with A stored K×M when
// TransA; op(B) is B stored K×N, or Bᵀ with B stored N×K when TransB. FP8
// operands (Type TypeE4M3 or TypeE5M2, both of one type) are multiplied
// by the decode factors in the one-float buffers AScale and BScale, and
// must be laid out as Hopper's FP8 tensor cores take them, both K-major:
// not TransA, TransB. BF16 operands take any layout and no scales
// (AScale = BScale = -1). FastAccum asks for fast accumulation (FP8).
type GEMM struct {
	A, B, D        int
	AScale, BScale int
	Type           int
	M, N, K        int
	TransA, TransB bool
	FastAccum      bool
}

// elemBytes is the size of one operand element.
func (g *GEMM) elemBytes() int64 {
	if g.Type == TypeBF16 {
		return 2
	}
	return 1
}

// check validates the product against the program's buffers.
func (g *GEMM) check(bufs []Buffer) error {
	fp8 := g.Type == TypeE4M3 || g.Type == TypeE5M2
	switch {
	case !fp8 && g.Type != TypeBF16:
		return fmt.Errorf("launch: GEMM element type %d", g.Type)
	case g.M < 1 || g.N < 1 || g.K < 1:
		return fmt.Errorf("launch: GEMM of %d×%d×%d", g.M, g.K, g.N)
	case fp8 && (g.TransA || !g.TransB):
		return fmt.Errorf("launch: an FP8 GEMM takes both operands K-major (A M×K, B stored N×K)")
	case fp8 != (g.AScale >= 0 && g.BScale >= 0) || !fp8 && (g.AScale != -1 || g.BScale != -1):
		return fmt.Errorf("launch: an FP8 GEMM takes both decode factors, a BF16 one none")
	}
	type want struct {
		buf   int
		bytes int64
	}
	need := []want{{g.A, int64(g.M) * int64(g.K) * g.elemBytes()}, {g.B, int64(g.K) * int64(g.N) * g.elemBytes()}, {g.D, 4 * int64(g.M) * int64(g.N)}}
	if fp8 {
		need = append(need, want{g.AScale, 4}, want{g.BScale, 4})
	}
	for _, n := range need {
		if n.buf < 0 || n.buf >= len(bufs) || bufs[n.buf].Bytes < n.bytes {
			return fmt.Errorf("launch: GEMM %d×%d×%d: buffer %d is missing or smaller than %d bytes", g.M, g.K, g.N, n.buf, n.bytes)
		}
	}
	return nil
}

// Program is a sequence of launches over a set of buffers.
type Program struct {
	Buffers []Buffer
	Steps   []Step
	// err is the first invalid launch a builder refused (see Fail); Check
	// reports it, so that no runner starts a program that would write out
	// of bounds.
	err error
}

// Fail records that a builder refused its launch; Check returns the first.
func (p *Program) Fail(err error) {
	if p != nil && p.err == nil {
		p.err = err
	}
}

// Alloc adds a blank buffer of n bytes (at least 1) and returns its index.
func (p *Program) Alloc(n int64) int {
	if p == nil {
		return -1 // no such buffer: a nil Program builds nothing
	}
	p.Buffers = append(p.Buffers, Buffer{Bytes: max(n, 1)})
	return len(p.Buffers) - 1
}

// Zeros adds a zeroed buffer of n bytes.
func (p *Program) Zeros(n int64) int {
	if p == nil {
		return -1
	}
	p.Buffers = append(p.Buffers, Buffer{Bytes: max(n, 1), Zero: true})
	return len(p.Buffers) - 1
}

// Upload adds a buffer holding a copy of data's bytes.
func Upload[T any](p *Program, data []T) int {
	b := Bytes(data)
	if len(b) == 0 || p == nil {
		return p.Alloc(1)
	}
	p.Buffers = append(p.Buffers, Buffer{Bytes: int64(len(b)), Init: b})
	return len(p.Buffers) - 1
}

// Bytes views a slice of fixed-size values as bytes (no copy).
func Bytes[T any](data []T) []byte {
	if len(data) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&data[0])), len(data)*int(unsafe.Sizeof(data[0])))
}

// Launch adds a launch with a 1-D grid.
func (p *Program) Launch(kernel string, grid, block int, args ...Arg) {
	p.Launch2D(kernel, grid, 1, block, 1, args...)
}

// Launch2D adds a launch with a 2-D grid and block.
func (p *Program) Launch2D(kernel string, gridX, gridY, blockX, blockY int, args ...Arg) {
	if p == nil {
		return
	}
	p.Steps = append(p.Steps, Step{Kernel: kernel, GridX: gridX, GridY: gridY, BlockX: blockX, BlockY: blockY, Args: args})
}

// External adds a step that calls the runner's function name.
func (p *Program) External(name string) {
	if p == nil {
		return
	}
	p.Steps = append(p.Steps, Step{External: name})
}

// Check reports a launch a builder refused (Fail) or a step that names a
// buffer the program does not have.
func (p *Program) Check() error {
	if p == nil {
		return fmt.Errorf("launch: no program")
	}
	if p.err != nil {
		return p.err
	}
	for i, s := range p.Steps {
		if s.GEMM != nil {
			if err := s.GEMM.check(p.Buffers); err != nil {
				return fmt.Errorf("step %d: %w", i, err)
			}
		}
		for j, a := range s.Args {
			if a.Kind == ArgBuf && (a.Buf < 0 || a.Buf >= len(p.Buffers)) {
				return fmt.Errorf("launch: step %d (%s) argument %d names buffer %d of %d", i, s.Kernel, j, a.Buf, len(p.Buffers))
			}
		}
	}
	return nil
}

// Config sizes the grids: grid-stride kernels get enough blocks to cover
// their work, at most BlocksPerSM per multiprocessor.
type Config struct {
	SMs         int
	Threads     int // threads per block of the elementwise kernels (256)
	BlocksPerSM int // 32 on a GPU; the emulator uses fewer
}

// blocksFor returns the grid size for items handled by grid-stride loops.
func (c Config) blocksFor(items int64) int {
	threads := int64(max(c.Threads, 1)) // a zero Config launches blocks of no threads, which a GPU refuses
	b := (items + threads - 1) / threads
	return int(max(1, min(b, int64(c.SMs)*int64(c.BlocksPerSM))))
}
