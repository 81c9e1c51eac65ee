package launch

import (
	"fmt"
	"slices"

	"github.com/fp8lab/fp8lab/docs/gpu"
	"github.com/fp8lab/fp8lab/native/kernels"
	"github.com/fp8lab/fp8lab/scaling"
)

// The forward and backward of one linear layer, Y = X·W, dX = dY·Wᵀ and
// dW = Xᵀ·dY, as launch programs under three plans, so that a GPU run
// times each kernel (the talk's "quantization is best when fused" and
// "strict memory layouts on Hopper"). W is stored as Wt (Out×In, PyTorch's
// layout), so the products are Y = X·Wtᵀ, dX = dY·Wt and dWt = dYᵀ·X.
//
// Every plan starts from float32 X, Wt and dY and begins with a producer
// per matrix, the stand-in for the kernel before the layer (the previous
// epilogue, the optimizer step, the next layer's backward):
//
//   - bf16: the producers write BF16; cuBLASLt takes each operand in the
//     layout it has (transposed or not), so no copy is made.
//   - fp8-naive: the producers write float32; then, per matrix, an amax
//     pass, the scale, its decode factor, the cast to E4M3 and a transposed
//     copy of the codes, each its own kernel; Hopper's FP8 tensor cores take
//     both operands K-major only, so each of X, W and dY needs its
//     transpose somewhere in the three products.
//   - fp8-fused: the producers fold the amax in as they write, and one
//     kernel computes the scale and writes the codes and their transpose.
//
// Quantization is tensorwise, current scaling, E4M3 everywhere, as
// scaling.Quantize with scaling.PerTensor does it, bit for bit.

// The plans, in the order timings list them.
const (
	PlanBF16  = "bf16"
	PlanNaive = "fp8-naive"
	PlanFused = "fp8-fused"
)

// LinearPlans are the plans Linear builds.
var LinearPlans = []string{PlanBF16, PlanNaive, PlanFused}

// LinearShape sizes the layer: X is Tokens×In, W In×Out (stored Out×In),
// dY Tokens×Out. Every side is a multiple of 16 (the FP8 products') and
// of 4 (the float4 kernels').
type LinearShape struct {
	Tokens, In, Out int
}

// Check validates the shape.
func (s LinearShape) Check() error {
	for _, d := range []int{s.Tokens, s.In, s.Out} {
		if d < 16 || d%16 != 0 || d > 1<<17 {
			return fmt.Errorf("launch: linear layer %d×%d×%d: sides are multiples of 16 up to 131072", s.Tokens, s.In, s.Out)
		}
	}
	return nil
}

// LinearIn names the float32 buffers a plan starts from: X (Tokens×In),
// Wt (Out×In) and dY (Tokens×Out).
type LinearIn struct{ X, Wt, DY int }

// The matrices of the layer, indexing LinearOut's arrays.
const (
	MatX = iota
	MatW
	MatDY
)

// LinearOut names the buffers a plan leaves: the products (float32,
// row-major) Y (Tokens×Out), dX (Tokens×In) and dWt (Out×In), and, for the
// FP8 plans, each matrix's codes, transposed codes, scale and decode
// factor (-1 in the BF16 plan).
type LinearOut struct {
	Y, DX, DWt                   int
	Codes, CodesT, Scale, Decode [3]int
}

// linearMat is one of the layer's matrices.
type linearMat struct {
	name       string
	src        int
	rows, cols int
}

// Linear adds the launches of plan to p. hw picks the hardware-conversion
// cast kernel of the fused plan (the naive plan's encode kernel follows
// the same choice).
func (c Config) Linear(p *Program, plan string, sh LinearShape, in LinearIn, hw bool) (LinearOut, error) {
	if err := sh.Check(); err != nil {
		return LinearOut{}, err
	}
	if !slices.Contains(LinearPlans, plan) {
		return LinearOut{}, fmt.Errorf("launch: linear plan %q (want one of %v)", plan, LinearPlans)
	}
	mats := [3]linearMat{{"X", in.X, sh.Tokens, sh.In}, {"W", in.Wt, sh.Out, sh.In}, {"dY", in.DY, sh.Tokens, sh.Out}}
	out := LinearOut{Codes: [3]int{-1, -1, -1}, CodesT: [3]int{-1, -1, -1}, Scale: [3]int{-1, -1, -1}, Decode: [3]int{-1, -1, -1}}
	t, i, o := sh.Tokens, sh.In, sh.Out
	out.Y, out.DX, out.DWt = p.Alloc(4*int64(t)*int64(o)), p.Alloc(4*int64(t)*int64(i)), p.Alloc(4*int64(o)*int64(i))
	if plan == PlanBF16 {
		var b [3]int
		for k, m := range mats {
			b[k] = p.Alloc(2 * int64(m.rows) * int64(m.cols))
			c.ToBF16(p, m.src, m.rows, m.cols, false, b[k])
			c.label(p, "produce "+m.name+" (BF16)", gpu.RoleProduce)
		}
		c.gemm(p, "Y = X·W", &GEMM{A: b[MatX], B: b[MatW], D: out.Y, AScale: -1, BScale: -1, Type: TypeBF16, M: t, N: o, K: i, TransB: true})
		c.gemm(p, "dX = dY·Wᵀ", &GEMM{A: b[MatDY], B: b[MatW], D: out.DX, AScale: -1, BScale: -1, Type: TypeBF16, M: t, N: i, K: o})
		c.gemm(p, "dW = Xᵀ·dY", &GEMM{A: b[MatDY], B: b[MatX], D: out.DWt, AScale: -1, BScale: -1, Type: TypeBF16, M: o, N: i, K: t, TransA: true})
		return out, nil
	}
	codec := "sw"
	if hw {
		codec = "hw"
	}
	for k, m := range mats {
		n := int64(m.rows) * int64(m.cols)
		f, amax := p.Alloc(4*n), p.Zeros(4)
		codes, codesT, scale, dec := p.Alloc(n), p.Alloc(n), p.Alloc(4), p.Alloc(4)
		out.Codes[k], out.CodesT[k], out.Scale[k], out.Decode[k] = codes, codesT, scale, dec
		if plan == PlanNaive {
			p.Launch(kernels.Produce, c.blocksFor(n/4+1), c.Threads, Ptr(m.src), I64(n), Ptr(f), Null())
			c.label(p, "produce "+m.name, gpu.RoleProduce)
			p.Launch(kernels.AmaxFlat, c.blocksFor(n/4+1), c.Threads, Ptr(f), I64(n), Ptr(amax))
			c.label(p, "amax "+m.name, gpu.RoleAmax)
			p.Launch(kernels.Scales, 1, c.Threads, Ptr(amax), I64(1), I32(kernels.FormatE4M3FN), I32(0), F64(scaling.DefaultEps),
				I32(0), I32(0), I32(0), Ptr(scale), Ptr(p.Zeros(1)))
			c.label(p, "scale "+m.name, gpu.RoleScale)
			p.Launch(kernels.DecodeScale, 1, c.Threads, Ptr(scale), I64(1), Ptr(dec))
			c.label(p, "decode factor "+m.name, gpu.RoleScale)
			l := NewLayout(m.rows, m.cols, m.rows, m.cols)
			p.Launch(kernelName("fl_encode", l.vec(), codec), c.blocksFor(n/l.vec()), c.Threads, Ptr(f), I64(int64(m.rows)), I64(int64(m.cols)),
				I64(int64(m.rows)), I64(int64(m.cols)), I64(1), Ptr(scale), I32(kernels.FormatE4M3FN), Ptr(codes), Bool(false), U64(0), U64(0), I32(0), Null())
			c.label(p, "cast "+m.name, gpu.RoleCast)
			c.TransposeU8(p, codes, m.rows, m.cols, codesT)
			c.label(p, "transpose "+m.name, gpu.RoleTranspose)
			continue
		}
		p.Launch(kernels.Produce, c.blocksFor(n/4+1), c.Threads, Ptr(m.src), I64(n), Ptr(f), Ptr(amax))
		c.label(p, "produce "+m.name+" + amax", gpu.RoleProduceAmax)
		p.Launch2D("fl_cast_transpose_"+codec, (m.cols+31)/32, (m.rows+31)/32, 32, 8, Ptr(f), I64(int64(m.rows)), I64(int64(m.cols)), Ptr(amax),
			I32(kernels.FormatE4M3FN), F64(scaling.DefaultEps), I32(0), I32(0), Ptr(codes), Ptr(codesT), Ptr(scale), Ptr(dec))
		c.label(p, "cast + transpose "+m.name, gpu.RoleCastTranspose)
	}
	fp8 := func(a, b, d, m, n, k int) *GEMM {
		return &GEMM{A: out.Codes[a], B: b, D: d, AScale: out.Decode[a], Type: TypeE4M3, M: m, N: n, K: k, TransB: true}
	}
	y := fp8(MatX, out.Codes[MatW], out.Y, t, o, i)
	y.BScale = out.Decode[MatW]
	dx := fp8(MatDY, out.CodesT[MatW], out.DX, t, i, o)
	dx.BScale = out.Decode[MatW]
	dw := &GEMM{A: out.CodesT[MatDY], B: out.CodesT[MatX], D: out.DWt, AScale: out.Decode[MatDY], BScale: out.Decode[MatX],
		Type: TypeE4M3, M: o, N: i, K: t, TransB: true}
	c.gemm(p, "Y = X·W", y)
	c.gemm(p, "dX = dY·Wᵀ", dx)
	c.gemm(p, "dW = Xᵀ·dY", dw)
	return out, nil
}

// label names the last step of p.
func (c Config) label(p *Program, name, role string) {
	s := &p.Steps[len(p.Steps)-1]
	s.Name, s.Role = name, role
}

// gemm adds a product step.
func (c Config) gemm(p *Program, name string, g *GEMM) {
	p.Steps = append(p.Steps, Step{GEMM: g, Name: name, Role: gpu.RoleGEMM})
}
