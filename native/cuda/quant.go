//go:build cuda

package cuda

import (
	"fmt"
	"unsafe"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/native"
	"github.com/fp8lab/fp8lab/native/internal/launch"
	"github.com/fp8lab/fp8lab/scaling"
	"gorgonia.org/cu"
)

// The elementwise operations are launch programs (native/internal/launch),
// which the host emulator of the tests runs too; Run executes them here.

// Amax returns the amax of every block of g (any granularity).
func (d *Device) Amax(t *scaling.Tensor, g scaling.Granularity) (*scaling.Tensor, error) {
	return d.kernels().Amax(t, g)
}

// Quantize quantizes t as scaling.Quantize (or QuantizeWithScales) does,
// bit for bit: E4M3FN and E5M2 elements; tensor, row, tile, block and MX
// granularities (others give native.ErrUnsupported).
func (d *Device) Quantize(t *scaling.Tensor, f *fp8.Format, g scaling.Granularity, opts native.QuantizeOptions) (*scaling.Quantized, error) {
	return d.kernels().Quantize(t, f, g, opts)
}

// Dequantize decodes q as q.Dequantize does, bit for bit (any format and
// granularity).
func (d *Device) Dequantize(q *scaling.Quantized) (*scaling.Tensor, error) {
	return d.kernels().Dequantize(q)
}

// FWHT applies the normalized Walsh–Hadamard transform to every block of
// x, bit-identical to scaling.FWHT: the same butterfly stages in the same
// order, the first twelve in shared memory, the rest in global memory.
func (d *Device) FWHT(x []float32, block int) error {
	if err := d.do("fwht", func() error { return nil }); err != nil {
		return err // closed
	}
	return d.kernels().FWHT(x, block)
}

// kernels returns the launch-program implementation bound to this device.
func (d *Device) kernels() *launch.Kernels {
	return &launch.Kernels{Runner: d, Config: d.config(), HardwareFP8: d.hasHW, Arch: d.props.ComputeCapability()}
}

// config sizes the grids for this GPU.
func (d *Device) config() launch.Config {
	return launch.Config{SMs: d.props.SMs, Threads: d.threads, BlocksPerSM: 32}
}

// Run executes a launch program on the GPU (launch.Runner): it allocates
// and fills the buffers, runs the steps, reads back outs and frees every
// buffer, whatever happens.
func (d *Device) Run(p *launch.Program, ext map[string]func(addr func(int) uintptr) error, outs ...int) ([][]byte, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	res := make([][]byte, len(outs))
	err := d.do("run", func() error {
		var a arena
		defer a.free()
		ptrs, err := prepare(&a, p, nil)
		if err != nil {
			return err
		}
		if err := d.steps(p.Steps, ptrs, ext); err != nil {
			return err
		}
		for i, b := range outs {
			res[i] = make([]byte, p.Buffers[b].Bytes)
			if err := download(res[i], ptrs[b]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// gemmStep turns a program's product (row-major, launch.GEMM) into
// cuBLASLt's column-major terms: D (M×N row-major) is Dᵀ column-major, so
// cuBLASLt's A is the step's B and its B the step's A, with m = N, n = M.
func gemmStep(g *launch.GEMM, ptrs []cu.DevicePtr) (spec gemmSpec, a, b, dst cu.DevicePtr, err error) {
	t := map[int]int{launch.TypeE4M3: typeE4M3, launch.TypeE5M2: typeE5M2, launch.TypeBF16: typeBF16}
	ty, ok := t[g.Type]
	if !ok {
		return spec, 0, 0, 0, fmt.Errorf("%w: GEMM element type %d", native.ErrInvalidArgument, g.Type)
	}
	spec = gemmSpec{atype: ty, btype: ty, dtype: typeF32, m: g.N, n: g.M, k: g.K, fastAccum: g.FastAccum, aN: !g.TransB, bT: g.TransA}
	if g.AScale >= 0 {
		spec.ascale, spec.bscale = ptrs[g.BScale], ptrs[g.AScale]
	}
	return spec, ptrs[g.B], ptrs[g.A], ptrs[g.D], nil
}

// prepare allocates a program's buffers in a, uploading or zeroing them;
// the buffers in bound use the given memory instead.
func prepare(a *arena, p *launch.Program, bound map[int]cu.DevicePtr) ([]cu.DevicePtr, error) {
	ptrs := make([]cu.DevicePtr, len(p.Buffers))
	for i, b := range p.Buffers {
		var err error
		switch ptr, ok := bound[i]; {
		case ok:
			ptrs[i] = ptr
		case b.Init != nil:
			ptrs[i], err = upload(a, b.Init)
		case b.Zero:
			ptrs[i], err = a.zeros(b.Bytes)
		default:
			ptrs[i], err = a.alloc(b.Bytes)
		}
		if err != nil {
			return nil, err
		}
	}
	return ptrs, nil
}

// steps launches the steps over the buffers ptrs (asynchronously, on the
// default stream); External steps call ext, GEMM steps cuBLASLt.
func (d *Device) steps(steps []launch.Step, ptrs []cu.DevicePtr, ext map[string]func(addr func(int) uintptr) error) error {
	addr := func(b int) uintptr { return uintptr(ptrs[b]) }
	for _, s := range steps {
		if s.GEMM != nil {
			spec, a, b, dst, err := gemmStep(s.GEMM, ptrs)
			if err != nil {
				return err
			}
			if err := d.gemm(spec, a, b, dst); err != nil {
				return err
			}
			continue
		}
		if s.External != "" {
			fn, ok := ext[s.External]
			if !ok {
				return fmt.Errorf("%w: no external step %q", native.ErrInvalidArgument, s.External)
			}
			if err := fn(addr); err != nil {
				return err
			}
			continue
		}
		fn, ok := d.fns[s.Kernel]
		if !ok {
			return fmt.Errorf("%w: kernel %s is not loaded on this GPU", native.ErrUnsupported, s.Kernel)
		}
		slots := make([]uint64, len(s.Args))
		for j, arg := range s.Args {
			slots[j] = arg.Bits
			if arg.Kind == launch.ArgBuf {
				slots[j] = uint64(ptrs[arg.Buf])
			}
		}
		params := make([]unsafe.Pointer, len(slots))
		for j := range slots {
			params[j] = unsafe.Pointer(&slots[j])
		}
		err := fn.Launch(s.GridX, s.GridY, 1, s.BlockX, s.BlockY, 1, 0, cu.Stream{}, params)
		if err := check("cuLaunchKernel("+s.Kernel+")", err); err != nil {
			return err
		}
	}
	return nil
}
