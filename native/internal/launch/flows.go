package launch

import (
	"fmt"

	"github.com/fp8lab/fp8lab/native/kernels"
)

// Layout is a granularity resolved for one rows×cols shape: blocks of
// BR×BC elements in a GR×GC grid (edge blocks may be partial).
type Layout struct {
	Rows, Cols, BR, BC, GR, GC int
}

// NewLayout returns the layout of br×bc blocks over rows×cols.
func NewLayout(rows, cols, br, bc int) Layout {
	l := Layout{Rows: rows, Cols: cols, BR: br, BC: bc}
	if br > 0 && bc > 0 { // no blocks otherwise: a program built on it fails Check
		l.GR, l.GC = (rows+br-1)/br, (cols+bc-1)/bc
	}
	return l
}

// N returns the number of elements.
func (l Layout) N() int64 { return int64(l.Rows) * int64(l.Cols) }

// Blocks returns the number of blocks (scales).
func (l Layout) Blocks() int { return l.GR * l.GC }

// Uniform reports whether one block covers the tensor.
func (l Layout) Uniform() bool { return l.BR >= l.Rows && l.BC >= l.Cols }

// Vec4 reports whether kernels may move four elements at a time: rows and
// blocks are multiples of four wide, so four consecutive elements share a
// row, a block and a Philox block, and float4 loads are aligned.
func (l Layout) Vec4() bool { return l.Cols%4 == 0 && l.BC%4 == 0 }

func (l Layout) vec() int64 {
	if l.Vec4() {
		return 4
	}
	return 1
}

// Amax adds the launches that compute the amax bits of every block of l
// over the float32 buffer x, and returns the grid buffer (Blocks() uint32).
func (c Config) Amax(p *Program, x int, l Layout) int {
	grid := p.Zeros(int64(l.Blocks()) * 4)
	if l.Uniform() {
		p.Launch(kernels.AmaxFlat, c.blocksFor(l.N()/4+1), c.Threads, Ptr(x), I64(l.N()), Ptr(grid))
		return grid
	}
	warps := int64(l.Rows) * int64(l.GC)
	p.Launch(kernels.AmaxSeg, c.blocksFor(warps*32), c.Threads,
		Ptr(x), I64(int64(l.Rows)), I64(int64(l.Cols)), I64(int64(l.BR)), I64(int64(l.BC)), I64(int64(l.GC)), Bool(l.Vec4()), Ptr(grid))
	return grid
}

// Quant holds the parameters of a quantization.
type Quant struct {
	Format  int     // kernels.FormatE4M3FN or kernels.FormatE5M2
	MX      bool    // MX E8M0 scales (else the float32 scale rule)
	Eps     float64 // the rule's amax floor (already defaulted)
	Margin  int
	Pow2    int
	MXRound int
	// Stochastic rounding with Philox words (Seed, Stream, element index).
	Stochastic   bool
	Seed, Stream uint64
	Bits         int
	Hardware     bool      // use the hardware-conversion kernels (not with Stochastic)
	Scales       []float32 // given scales (QuantizeWithScales), or nil
	Fusable      bool      // the granularity is a 1×N tile or MX
}

// QuantOut names the buffers a quantization leaves: codes (N bytes),
// scales (Blocks() float32), amax bits (Blocks() uint32) and E8M0 codes
// (Blocks() bytes, meaningful for MX).
type QuantOut struct {
	Codes, Scales, Amax, ScaleCodes int
}

// FusedLanes returns the lanes per segment of the fused kernel for a 1×bc
// tile or MX layout with bc a power of two up to 128, or 0 when the
// two-pass path (amax, scales, encode) applies.
func FusedLanes(fusable bool, l Layout) int {
	if !fusable || l.BR != 1 || l.BC > 128 || l.BC&(l.BC-1) != 0 {
		return 0
	}
	if l.Vec4() {
		return max(l.BC/4, 1)
	}
	return min(l.BC, 32)
}

func (q Quant) codec() string {
	if q.Hardware && !q.Stochastic {
		return "hw"
	}
	return "sw"
}

func (q Quant) kind() int {
	if q.MX {
		return 1
	}
	return 0
}

// Quantize adds the launches that quantize the float32 buffer x.
func (c Config) Quantize(p *Program, x int, l Layout, q Quant) QuantOut {
	nb := int64(l.Blocks())
	out := QuantOut{Codes: p.Alloc(l.N()), ScaleCodes: p.Zeros(nb)}
	vec := l.vec()
	if G := FusedLanes(q.Fusable, l); G > 0 && q.Scales == nil {
		out.Scales, out.Amax = p.Alloc(4*nb), p.Alloc(4*nb)
		warps := (nb + int64(32/G) - 1) / int64(32/G)
		p.Launch(kernelName("fl_rowseg", vec, q.codec()), c.blocksFor(warps*32), c.Threads,
			Ptr(x), I64(int64(l.Rows)), I64(int64(l.Cols)), I64(int64(l.BC)), I64(int64(l.GC)), I32(G), I32(q.Format),
			I32(q.kind()), F64(q.Eps), I32(q.Margin), I32(q.Pow2), I32(q.MXRound), Bool(q.Stochastic), U64(q.Seed),
			U64(q.Stream), I32(q.Bits), Ptr(out.Codes), Ptr(out.Scales), Ptr(out.Amax), Ptr(out.ScaleCodes))
		return out
	}
	// With given scales and one block, the encode kernel folds the amax in
	// as it reads: one pass over x instead of two.
	fuseAmax := q.Scales != nil && l.Uniform()
	amaxArg := Null()
	if fuseAmax {
		out.Amax = p.Zeros(4 * nb)
		amaxArg = Ptr(out.Amax)
	} else {
		out.Amax = c.Amax(p, x, l)
	}
	if q.Scales != nil {
		out.Scales = Upload(p, q.Scales)
	} else {
		out.Scales = p.Alloc(4 * nb)
		p.Launch(kernels.Scales, c.blocksFor(nb), c.Threads, Ptr(out.Amax), I64(nb), I32(q.Format), I32(q.kind()),
			F64(q.Eps), I32(q.Margin), I32(q.Pow2), I32(q.MXRound), Ptr(out.Scales), Ptr(out.ScaleCodes))
	}
	p.Launch(kernelName("fl_encode", vec, q.codec()), c.blocksFor(l.N()/vec), c.Threads,
		Ptr(x), I64(int64(l.Rows)), I64(int64(l.Cols)), I64(int64(l.BR)), I64(int64(l.BC)), I64(int64(l.GC)),
		Ptr(out.Scales), I32(q.Format), Ptr(out.Codes), Bool(q.Stochastic), U64(q.Seed), U64(q.Stream), I32(q.Bits), amaxArg)
	return out
}

func kernelName(base string, vec int64, codec string) string {
	if vec == 4 {
		return base + "4_" + codec
	}
	return base + "1_" + codec
}

// Dequantize adds the launch that decodes the codes buffer with a
// 256-entry float32 table and per-block factors (divided by, or multiplied
// with when mul) into a new float32 buffer, which it returns.
func (c Config) Dequantize(p *Program, codes, table, factors int, l Layout, mul bool) int {
	out := p.Alloc(4 * l.N())
	p.Launch(kernels.Dequant, c.blocksFor(l.N()/l.vec()), c.Threads, Ptr(codes), I64(int64(l.Rows)), I64(int64(l.Cols)),
		I64(int64(l.BR)), I64(int64(l.BC)), I64(int64(l.GC)), Ptr(table), Ptr(factors), Bool(mul), Bool(l.Vec4()), Ptr(out))
	return out
}

// FWHT adds the launches of the normalized Walsh–Hadamard transform of
// blocks of 2^lb elements over total elements of x, in place: the first
// twelve stages in shared memory, three more per global pass.
// The kernels assume that total is a multiple of 2^lb and that x holds
// total float32 values; a program that breaks either fails Check.
func (c Config) FWHT(p *Program, x int, total int64, lb int, norm float32) {
	if lb == 0 || total == 0 {
		return
	}
	switch {
	case lb < 0 || lb > 62 || total < 0 || total%(int64(1)<<lb) != 0:
		p.Fail(fmt.Errorf("launch: FWHT of %d elements in blocks of 2^%d: the length must be a multiple of the block", total, lb))
		return
	case x < 0 || x >= len(p.Buffers) || p.Buffers[x].Bytes < 4*total:
		p.Fail(fmt.Errorf("launch: FWHT of %d elements: buffer %d is too small", total, x))
		return
	}
	first := min(lb, 12)
	chunks := (total + kernels.FWHTChunk - 1) / kernels.FWHTChunk
	blocks := int(max(1, min(chunks, int64(c.SMs)*int64(max(c.BlocksPerSM/4, 1)))))
	p.Launch(kernels.FWHTShared, blocks, c.Threads, Ptr(x), I64(total), I32(first), Bool(lb <= 12), F32(norm))
	for s0 := 12; s0 < lb; s0 += 3 {
		S := min(3, lb-s0)
		p.Launch(kernels.FWHTGlobal, c.blocksFor(total>>S), c.Threads, Ptr(x), I64(total), I64(1<<s0), I32(S), Bool(s0+S >= lb), F32(norm))
	}
}

// TransposeU8 adds the launch that writes the cols×rows transpose of the
// rows×cols bytes of src into dst.
func (c Config) TransposeU8(p *Program, src, rows, cols, dst int) {
	p.Launch2D(kernels.TransposeU8, (cols+31)/32, (rows+31)/32, 32, 8, Ptr(src), I64(int64(rows)), I64(int64(cols)), Ptr(dst))
}

// ToBF16 adds the launch that rounds the rows×cols float32 buffer src to
// BF16 codes in dst, transposed when transpose is set.
func (c Config) ToBF16(p *Program, src, rows, cols int, transpose bool, dst int) {
	p.Launch(kernels.ToBF16, c.blocksFor(int64(rows)*int64(cols)), c.Threads, Ptr(src), I64(int64(rows)), I64(int64(cols)), Bool(transpose), Ptr(dst))
}

// ScaleRowCol adds the launch that multiplies the m×n float32 buffer out by
// float32(fa[i]·fb[j]).
func (c Config) ScaleRowCol(p *Program, out, m, n, fa, fb int) {
	p.Launch(kernels.ScaleRowCol, c.blocksFor(int64(m)*int64(n)), c.Threads, Ptr(out), I64(int64(m)), I64(int64(n)), Ptr(fa), Ptr(fb))
}
