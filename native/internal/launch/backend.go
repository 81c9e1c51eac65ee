package launch

import (
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/native"
	"github.com/fp8lab/fp8lab/native/kernels"
	"github.com/fp8lab/fp8lab/scaling"
)

// Runner executes programs: native/cuda on a GPU, the test emulator on the
// host. Run allocates and fills the buffers, runs the steps in order
// (calling ext[name] with a function giving each buffer's device address
// for External steps), reads back the buffers outs, and frees everything.
type Runner interface {
	Run(p *Program, ext map[string]func(addr func(buf int) uintptr) error, outs ...int) ([][]byte, error)
}

// Kernels implements the elementwise operations of native.Backend (Amax,
// Quantize, Dequantize, FWHT) as programs over a Runner. Its results are
// bit-identical to the CPU backend's (native/parity checks it).
type Kernels struct {
	Runner      Runner
	Config      Config
	HardwareFP8 bool   // the hardware-conversion kernels are loaded
	Arch        string // e.g. "sm_90", for error messages
}

// as copies bytes read back from a device into a new slice of T.
func as[T any](b []byte) []T {
	var zero T
	out := make([]T, len(b)/int(unsafe.Sizeof(zero)))
	copy(Bytes(out), b)
	return out
}

// amaxFromBits is scaling's rule: NaN bits become the canonical NaN.
func amaxFromBits(b uint32) float32 {
	if b > 0x7F800000 {
		return float32(math.NaN())
	}
	return math.Float32frombits(b)
}

func layoutOf(g scaling.Granularity, rows, cols int) (Layout, error) {
	br, bc, err := g.BlockShape(rows, cols)
	if err != nil {
		return Layout{}, err
	}
	return NewLayout(rows, cols, br, bc), nil
}

// Amax returns the amax of every block of g (any granularity).
func (k *Kernels) Amax(t *scaling.Tensor, g scaling.Granularity) (*scaling.Tensor, error) {
	if err := t.Check(); err != nil {
		return nil, err
	}
	l, err := layoutOf(g, t.Rows, t.Cols)
	if err != nil {
		return nil, err
	}
	var p Program
	grid := k.Config.Amax(&p, Upload(&p, t.Data), l)
	outs, err := k.Runner.Run(&p, nil, grid)
	if err != nil {
		return nil, err
	}
	bits := as[uint32](outs[0])
	res := &scaling.Tensor{Rows: l.GR, Cols: l.GC, Data: make([]float32, len(bits))}
	for i, b := range bits {
		res.Data[i] = amaxFromBits(b)
	}
	return res, nil
}

// FormatID returns the kernels' id of an element format, or
// native.ErrUnsupported for formats other than E4M3FN and E5M2.
func FormatID(f *fp8.Format) (int, error) {
	switch {
	case f == nil:
		return 0, fmt.Errorf("%w: nil format", scaling.ErrFormat)
	case native.SameFormat(f, fp8.E4M3FN):
		return kernels.FormatE4M3FN, nil
	case native.SameFormat(f, fp8.E5M2):
		return kernels.FormatE5M2, nil
	}
	return 0, fmt.Errorf("%w: the GPU quantizes to E4M3FN and E5M2, not %s", native.ErrUnsupported, f.Name())
}

// checkQuantize validates what scaling.Quantize validates, for the
// granularities and formats the kernels implement.
func checkQuantize(t *scaling.Tensor, f *fp8.Format, g scaling.Granularity, opts native.QuantizeOptions) (int, Layout, error) {
	if err := opts.Check(); err != nil {
		return 0, Layout{}, err
	}
	if err := t.Check(); err != nil {
		return 0, Layout{}, err
	}
	id, err := FormatID(f)
	if err != nil {
		return 0, Layout{}, err
	}
	if err := g.Validate(); err != nil {
		return 0, Layout{}, err
	}
	if !g.GPUQuantizes() { // scaling's table says which kinds the kernels implement
		return 0, Layout{}, fmt.Errorf("%w: the GPU does not quantize %s granularities", native.ErrUnsupported, g)
	}
	mx := g.Scales() == scaling.ScaleE8M0
	r := opts.Rule
	switch {
	case r.Pow2 > scaling.Pow2Up || math.IsNaN(r.Eps) || math.IsInf(r.Eps, 0) || r.Eps < 0 || r.Margin < -1000 || r.Margin > 1000:
		return 0, Layout{}, fmt.Errorf("%w: scale rule %+v", scaling.ErrOptions, r)
	case !mx && opts.MXRounding != fp8.ScaleFloor:
		return 0, Layout{}, fmt.Errorf("%w: MXRounding applies to mx only, not %s", scaling.ErrOptions, g)
	case mx && r != (scaling.ScaleRule{}):
		return 0, Layout{}, fmt.Errorf("%w: mx scales follow OCP MX, a ScaleRule (pow2, margin, eps) does not apply", scaling.ErrOptions)
	case !slices.Contains(scaling.MXRoundings(), opts.MXRounding):
		return 0, Layout{}, fmt.Errorf("%w: MX scale rounding %d", scaling.ErrOptions, opts.MXRounding)
	case mx && opts.Scales != nil:
		return 0, Layout{}, fmt.Errorf("%w: %s scales are not float32 multipliers; use Quantize", scaling.ErrGranularity, g)
	}
	l, err := layoutOf(g, t.Rows, t.Cols)
	if err != nil {
		return 0, Layout{}, err
	}
	if opts.Scales != nil {
		if len(opts.Scales) != l.Blocks() {
			return 0, Layout{}, fmt.Errorf("%w: %d scales for %d blocks of %s", scaling.ErrShape, len(opts.Scales), l.Blocks(), g)
		}
		for b, s := range opts.Scales {
			if !(s > 0) || math.IsInf(float64(s), 0) {
				return 0, Layout{}, fmt.Errorf("%w: scale %d is %g (must be positive and finite)", scaling.ErrValue, b, s)
			}
		}
	}
	return id, l, nil
}

// resolve fills in the block shape of tile, block, MX and NVFP4
// granularities, as scaling.Quantize records it.
func resolve(g scaling.Granularity, l Layout) scaling.Granularity {
	if g.TakesBlockShape() {
		g.BlockRows, g.BlockCols = l.BR, l.BC
	}
	return g
}

// Quantize quantizes t as scaling.Quantize (or QuantizeWithScales) does,
// bit for bit: E4M3FN and E5M2 elements; tensor, row, tile, block and MX
// granularities (others give native.ErrUnsupported).
func (k *Kernels) Quantize(t *scaling.Tensor, f *fp8.Format, g scaling.Granularity, opts native.QuantizeOptions) (*scaling.Quantized, error) {
	id, l, err := checkQuantize(t, f, g, opts)
	if err != nil {
		return nil, err
	}
	if opts.Codec == native.CodecHardware && !k.HardwareFP8 {
		return nil, fmt.Errorf("%w: the hardware FP8 conversion needs sm_90 (or sm_89 with a driver that takes PTX ISA 8.1); this GPU is %s",
			native.ErrUnsupported, k.Arch)
	}
	q := Quant{Format: id, MX: g.Scales() == scaling.ScaleE8M0, Eps: opts.Rule.Eps, Margin: opts.Rule.Margin, Pow2: int(opts.Rule.Pow2),
		MXRound: int(opts.MXRounding), Hardware: k.HardwareFP8 && opts.Codec != native.CodecSoftware, Scales: opts.Scales,
		Fusable: g.Kind == scaling.KindTile || g.Kind == scaling.KindMX}
	if q.Eps == 0 {
		q.Eps = scaling.DefaultEps
	}
	if s := opts.Stochastic; s != nil {
		q.Stochastic, q.Seed, q.Stream, q.Bits = true, s.Seed, s.Stream, s.Bits
	}
	var p Program
	o := k.Config.Quantize(&p, Upload(&p, t.Data), l, q)
	outs, err := k.Runner.Run(&p, nil, o.Codes, o.Scales, o.Amax, o.ScaleCodes)
	if err != nil {
		return nil, err
	}
	res := &scaling.Quantized{
		Rows: t.Rows, Cols: t.Cols, Format: f, Granularity: resolve(g, l),
		BlockRows: l.BR, BlockCols: l.BC, ScaleRows: l.GR, ScaleCols: l.GC,
		Codes: outs[0], Scales: as[float32](outs[1]), Amax: make([]float32, l.Blocks()), Mode: opts.Mode(),
	}
	if q.MX {
		res.ScaleFormat, res.ScaleCodes = g.ScaleFormat(), outs[3]
	}
	for b, v := range as[uint32](outs[2]) {
		res.Amax[b] = amaxFromBits(v)
		if opts.Scales == nil && v >= 0x7F800000 {
			return nil, fmt.Errorf("%w: block (%d, %d) of %s holds %g", scaling.ErrNonFinite, b/l.GC, b%l.GC, res.Granularity, res.Amax[b])
		}
	}
	return res, nil
}

// Dequantize decodes q as q.Dequantize does, bit for bit (any format and
// granularity: the decode table and the per-block factors come from q).
func (k *Kernels) Dequantize(q *scaling.Quantized) (*scaling.Tensor, error) {
	if err := q.Check(); err != nil {
		return nil, err
	}
	var table [256]float32
	for c := range table {
		table[c] = q.Format.Decode32(uint8(c))
	}
	factors, mul := q.Scales, false
	if !q.Granularity.FloatScales() {
		factors, mul = make([]float32, len(q.Scales)), true
		for b := range factors {
			factors[b] = float32(q.BlockDecodeScale(b))
		}
	}
	l := Layout{Rows: q.Rows, Cols: q.Cols, BR: q.BlockRows, BC: q.BlockCols, GR: q.ScaleRows, GC: q.ScaleCols}
	var p Program
	out := k.Config.Dequantize(&p, Upload(&p, q.Codes), Upload(&p, table[:]), Upload(&p, factors), l, mul)
	outs, err := k.Runner.Run(&p, nil, out)
	if err != nil {
		return nil, err
	}
	return &scaling.Tensor{Rows: q.Rows, Cols: q.Cols, Data: as[float32](outs[0])}, nil
}

// FWHT transforms every block of x in place, bit-identical to scaling.FWHT:
// the same butterfly stages in the same order.
func (k *Kernels) FWHT(x []float32, block int) error {
	if err := native.CheckFWHT(len(x), block); err != nil {
		return err
	}
	if block == 1 || len(x) == 0 {
		return nil
	}
	lb := 0
	for 1<<lb < block {
		lb++
	}
	var p Program
	buf := Upload(&p, x)
	k.Config.FWHT(&p, buf, int64(len(x)), lb, float32(1/math.Sqrt(float64(block))))
	outs, err := k.Runner.Run(&p, nil, buf)
	if err != nil {
		return err
	}
	copy(Bytes(x), outs[0])
	return nil
}
