package native

import (
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/parallel"
	"github.com/fp8lab/fp8lab/rng"
	"github.com/fp8lab/fp8lab/scaling"
)

// CPU is the pure-Go backend: every operation delegates to the core
// packages (fp8, scaling, rng), which split large work across cores
// (GOMAXPROCS). It is the reference the GPU is checked against.
type CPU struct {
	closed atomic.Bool
}

// NewCPU returns the CPU backend.
func NewCPU() *CPU { return &CPU{} }

// Default returns the backend used where none is chosen: the CPU backend.
// The CUDA backend is opened explicitly (native/cuda, build tag cuda).
func Default() Backend { return NewCPU() }

var _ Backend = (*CPU)(nil)

func (c *CPU) check() error {
	if c == nil || c.closed.Load() {
		return ErrClosed
	}
	return nil
}

// Info describes the CPU backend.
func (c *CPU) Info() Info {
	return Info{Name: "cpu", Device: fmt.Sprintf("%d cores (%s/%s)", runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH)}
}

// Amax is scaling.AmaxGrid.
func (c *CPU) Amax(t *scaling.Tensor, g scaling.Granularity) (*scaling.Tensor, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	return scaling.AmaxGrid(t, g)
}

// Quantize is scaling.Quantize (or QuantizeWithScales with opts.Scales),
// with the random words of stochastic rounding filled by rng.Fill from
// opts.Stochastic: element k of the row-major data uses word k of the stream.
func (c *CPU) Quantize(t *scaling.Tensor, f *fp8.Format, g scaling.Granularity, opts QuantizeOptions) (*scaling.Quantized, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	if err := opts.Check(); err != nil {
		return nil, err
	}
	if err := t.Check(); err != nil {
		return nil, err
	}
	so := scaling.Options{Mode: opts.Mode(), Rule: opts.Rule, MXRounding: opts.MXRounding}
	if s := opts.Stochastic; s != nil {
		so.Random = make([]uint32, t.Len())
		rng.Fill(so.Random, s.Seed, s.Stream, 0)
	}
	if opts.Scales != nil {
		return scaling.QuantizeWithScales(t, f, g, opts.Scales, so)
	}
	return scaling.Quantize(t, f, g, so)
}

// Dequantize is q.Dequantize.
func (c *CPU) Dequantize(q *scaling.Quantized) (*scaling.Tensor, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	return q.Dequantize()
}

// FWHT applies scaling.FWHT to every block of x, blocks split across cores.
func (c *CPU) FWHT(x []float32, block int) error {
	if err := c.check(); err != nil {
		return err
	}
	if err := CheckFWHT(len(x), block); err != nil {
		return err
	}
	return parallel.Chunks(len(x)/block, 1, len(x), func(lo, hi int) error {
		return fwhtBlocks(x, block, lo, hi)
	})
}

// fwhtBlocks transforms blocks [lo, hi) of x.
func fwhtBlocks(x []float32, block, lo, hi int) error {
	for b := lo; b < hi; b++ {
		if err := scaling.FWHT(x[b*block : (b+1)*block]); err != nil {
			return err
		}
	}
	return nil
}

// ScaledMatMul is scaling.ScaledMatMul with the float32 accumulator, the
// result rounded to out.
func (c *CPU) ScaledMatMul(a, b *scaling.Quantized, out Output) (*scaling.Tensor, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	if a == nil || b == nil {
		return nil, fmt.Errorf("%w: nil operand", scaling.ErrShape)
	}
	if err := CheckMatMul(a.Rows, a.Cols, b.Rows, b.Cols, out); err != nil {
		return nil, err
	}
	r, err := scaling.ScaledMatMul(a, b, scaling.Float32Accumulator)
	if err != nil {
		return nil, err
	}
	RoundOutput(r, out)
	return r, nil
}

// MatMulBF16 rounds both operands to BF16, multiplies them exactly
// (scaling.MatMul accumulates in float64 and rounds once to float32) and
// rounds the result to out.
func (c *CPU) MatMulBF16(a, b *scaling.Tensor, out Output) (*scaling.Tensor, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	if err := a.Check(); err != nil {
		return nil, err
	}
	if err := b.Check(); err != nil {
		return nil, err
	}
	if err := CheckMatMul(a.Rows, a.Cols, b.Rows, b.Cols, out); err != nil {
		return nil, err
	}
	r, err := scaling.MatMul(ToBF16(a), ToBF16(b))
	if err != nil {
		return nil, err
	}
	RoundOutput(r, out)
	return r, nil
}

// ToBF16 returns a copy of t with every element rounded to BF16 (nearest
// even, overflow to ±Inf, as fp8.BF16.Encode32); nil for nil.
func ToBF16(t *scaling.Tensor) *scaling.Tensor {
	r := t.Clone()
	RoundOutput(r, OutputBF16)
	return r
}

// Close marks the backend closed.
func (c *CPU) Close() error {
	if c != nil {
		c.closed.Store(true)
	}
	return nil
}
