//go:build cuda

package cuda

import (
	"encoding/binary"
	"fmt"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/native"
	"github.com/fp8lab/fp8lab/native/internal/launch"
	"github.com/fp8lab/fp8lab/native/kernels"
	"github.com/fp8lab/fp8lab/scaling"
	"gorgonia.org/cu"
)

// ltHandle opens cuBLASLt on first use; call it inside do.
func (d *Device) ltHandle() (*cublasLt, error) {
	if d.lt == nil {
		lt, err := openLt()
		if err != nil {
			return nil, err
		}
		d.lt = lt
	}
	return d.lt, nil
}

// CUBLASLt opens cuBLASLt if needed and returns the path of the library
// and its version (e.g. 120805 for 12.8.5), or the error that prevents it.
func (d *Device) CUBLASLt() (path string, version int, err error) {
	err = d.do("cublasLt", func() error {
		lt, err := d.ltHandle()
		if err == nil {
			path, version = lt.path, lt.version
		}
		return err
	})
	return path, version, err
}

// fp8Type returns the cudaDataType of an FP8 element format.
func fp8Type(f *fp8.Format) (int, error) {
	id, err := launch.FormatID(f)
	if err != nil {
		return 0, err
	}
	if id == kernels.FormatE5M2 {
		return typeE5M2, nil
	}
	return typeE4M3, nil
}

// ScaledMatMul multiplies quantized A (M×K) and B (K×N) with cuBLASLt's
// FP8 GEMM (float32 accumulation, TN layout: B's codes are transposed on
// the device). Supported: E4M3FN and E5M2 operands (not both E5M2),
// per-tensor scales (cuBLASLt's A/B scale pointers) or per-row A with
// per-column B (the decode factors applied by a kernel after an unscaled
// product), and M, N, K multiples of 16. Anything else gives
// native.ErrUnsupported. The result agrees with the CPU's within
// native.GEMMTolFP8.
func (d *Device) ScaledMatMul(a, b *scaling.Quantized, out native.Output) (*scaling.Tensor, error) {
	return d.ScaledMatMulAccum(a, b, out, false)
}

// ScaledMatMulAccum is ScaledMatMul with cuBLASLt's fast accumulation
// (CUBLASLT_MATMUL_DESC_FAST_ACCUM) on or off. Off, cuBLASLt promotes the
// tensor cores' partial sums into float32; on, it keeps them in the tensor
// cores' narrower accumulator (native/accum measures how narrow).
func (d *Device) ScaledMatMulAccum(a, b *scaling.Quantized, out native.Output, fastAccum bool) (*scaling.Tensor, error) {
	if a == nil || b == nil {
		return nil, fmt.Errorf("%w: nil operand", scaling.ErrShape)
	}
	if err := a.Check(); err != nil {
		return nil, fmt.Errorf("A: %w", err)
	}
	if err := b.Check(); err != nil {
		return nil, fmt.Errorf("B: %w", err)
	}
	if err := native.CheckMatMul(a.Rows, a.Cols, b.Rows, b.Cols, out); err != nil {
		return nil, err
	}
	ta, err := fp8Type(a.Format)
	if err != nil {
		return nil, err
	}
	tb, err := fp8Type(b.Format)
	if err != nil {
		return nil, err
	}
	m, k, n := a.Rows, a.Cols, b.Cols
	// cuBLASLt scales whole operands (one scale each) or A by row and B by
	// column: scales constant along the contraction axis K.
	ga, gb := a.Granularity, b.Granularity
	tensorwise := ga.WholeRows() && ga.WholeCols() && gb.WholeRows() && gb.WholeCols()
	rowcol := ga.WholeRows() && !ga.WholeCols() && gb.WholeCols() && !gb.WholeRows()
	switch {
	case ta == typeE5M2 && tb == typeE5M2:
		return nil, fmt.Errorf("%w: cuBLASLt has no E5M2×E5M2 product", native.ErrUnsupported)
	case m%16 != 0 || n%16 != 0 || k%16 != 0:
		return nil, fmt.Errorf("%w: the FP8 GEMM needs M, N and K multiples of 16, got %d×%d×%d", native.ErrUnsupported, m, k, n)
	case !tensorwise && !rowcol:
		return nil, fmt.Errorf("%w: the GPU's FP8 GEMM takes tensor×tensor or row×col scales, not %s×%s", native.ErrUnsupported, a.Granularity, b.Granularity)
	}
	fa := make([]float32, len(a.Scales))
	for i := range fa {
		fa[i] = float32(a.BlockDecodeScale(i))
	}
	fb := make([]float32, len(b.Scales))
	for j := range fb {
		fb[j] = float32(b.BlockDecodeScale(j))
	}
	dtype := typeF32
	if out == native.OutputBF16 && tensorwise {
		dtype = typeBF16
	}
	elem := int64(4)
	if dtype == typeBF16 {
		elem = 2
	}
	var p launch.Program
	c := d.config()
	dA, dB := launch.Upload(&p, a.Codes), launch.Upload(&p, b.Codes)
	dBt := p.Alloc(int64(k) * int64(n))
	c.TransposeU8(&p, dB, k, n, dBt)
	dfa, dfb := launch.Upload(&p, fa), launch.Upload(&p, fb)
	dD := p.Alloc(int64(m) * int64(n) * elem)
	p.External("gemm")
	if rowcol {
		c.ScaleRowCol(&p, dD, m, n, dfa, dfb)
	}
	ext := map[string]func(func(int) uintptr) error{"gemm": func(addr func(int) uintptr) error {
		spec := gemmSpec{atype: tb, btype: ta, dtype: dtype, m: n, n: m, k: k, fastAccum: fastAccum} // cuBLASLt's A is our B
		if tensorwise {
			spec.ascale, spec.bscale = cu.DevicePtr(addr(dfb)), cu.DevicePtr(addr(dfa))
		}
		return d.gemm(spec, cu.DevicePtr(addr(dBt)), cu.DevicePtr(addr(dA)), cu.DevicePtr(addr(dD)))
	}}
	outs, err := d.Run(&p, ext, dD)
	if err != nil {
		return nil, err
	}
	return product(outs[0], m, n, dtype, out), nil
}

// product turns the bytes of D into a tensor: float32 values rounded to
// out, or BF16 codes decoded.
func product(b []byte, m, n, dtype int, out native.Output) *scaling.Tensor {
	res := &scaling.Tensor{Rows: m, Cols: n, Data: make([]float32, m*n)}
	if dtype == typeBF16 {
		for i := range res.Data {
			res.Data[i] = fp8.BF16.Decode(binary.LittleEndian.Uint16(b[2*i:]))
		}
		return res
	}
	copy(launch.Bytes(res.Data), b)
	native.RoundOutput(res, out)
	return res
}

// gemm plans and runs one cuBLASLt product; call it inside do.
func (d *Device) gemm(s gemmSpec, a, b, dst cu.DevicePtr) error {
	lt, err := d.ltHandle()
	if err != nil {
		return err
	}
	p, err := lt.plan(s)
	if err != nil {
		return err
	}
	defer p.destroy()
	return p.run(a, b, dst)
}

// MatMulBF16 rounds a (M×K) and b (K×N) to BF16 on the device (b
// transposed to N×K, the same TN layout as the FP8 product) and multiplies
// them with cuBLASLt (float32 accumulation); the result agrees with the
// CPU's within native.GEMMTolBF16.
func (d *Device) MatMulBF16(a, b *scaling.Tensor, out native.Output) (*scaling.Tensor, error) {
	if err := a.Check(); err != nil {
		return nil, err
	}
	if err := b.Check(); err != nil {
		return nil, err
	}
	if err := native.CheckMatMul(a.Rows, a.Cols, b.Rows, b.Cols, out); err != nil {
		return nil, err
	}
	m, k, n := a.Rows, a.Cols, b.Cols
	dtype := typeF32
	if out == native.OutputBF16 {
		dtype = typeBF16
	}
	elem := int64(4)
	if dtype == typeBF16 {
		elem = 2
	}
	var p launch.Program
	c := d.config()
	dA, dB := launch.Upload(&p, a.Data), launch.Upload(&p, b.Data)
	aBF, btBF := p.Alloc(int64(m)*int64(k)*2), p.Alloc(int64(k)*int64(n)*2)
	c.ToBF16(&p, dA, m, k, false, aBF)
	c.ToBF16(&p, dB, k, n, true, btBF)
	dD := p.Alloc(int64(m) * int64(n) * elem)
	p.External("gemm")
	ext := map[string]func(func(int) uintptr) error{"gemm": func(addr func(int) uintptr) error {
		spec := gemmSpec{atype: typeBF16, btype: typeBF16, dtype: dtype, m: n, n: m, k: k}
		return d.gemm(spec, cu.DevicePtr(addr(btBF)), cu.DevicePtr(addr(aBF)), cu.DevicePtr(addr(dD)))
	}}
	outs, err := d.Run(&p, ext, dD)
	if err != nil {
		return nil, err
	}
	return product(outs[0], m, n, dtype, out), nil
}
