//go:build cuda

package cuda

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/fp8lab/fp8lab/docs/gpu"
	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/native"
	"github.com/fp8lab/fp8lab/native/internal/launch"
	"github.com/fp8lab/fp8lab/native/kernels"
	"gorgonia.org/cu"
)

// BenchConfig configures Bench.
type BenchConfig struct {
	// Elements is the float32 element count of the bandwidth tests, a
	// multiple of BenchElementsMultiple (default 1<<28: a 1 GiB input, far
	// beyond L2).
	Elements int
	// Iters is the number of timed repetitions of each measurement (default 20).
	Iters int
	// GEMM lists the square product sizes (default 4096 and 8192); a
	// non-nil empty slice skips the products.
	GEMM []int
	// Shapes are further products measured like the square ones, e.g. the
	// training lab's (train.Config.LinearProducts); dimensions are
	// multiples of 16.
	Shapes []BenchShape
	// Log receives one progress line per measurement; nil for none.
	Log io.Writer
}

// BenchShape is one product M×K by K×N that Bench measures.
type BenchShape struct {
	Name    string
	M, N, K int
}

// BenchElementsMultiple is what Elements must be a multiple of: the input
// is a matrix of 8192 columns (rows of 1×128 tiles, MX blocks and
// 128×128 blocks), and the largest Hadamard block is 32768 elements.
const BenchElementsMultiple = 32768

// Bandwidth goals on H100, as fractions of the device-to-device copy bandwidth.
const (
	GoalTensorQuantize = 0.85
	GoalTiledQuantize  = 0.75 // 1x128 tiles and MX blocks (fused kernels)
	GoalStochastic     = 0.70
	GoalFWHT           = 0.60 // blocks up to 4096
	GoalFP8TFLOPS      = 1200 // FP8 GEMM at 8192³
	GoalFP8OverBF16    = 1.6  // FP8 over BF16 GEMM at 8192³
)

// BenchResult is one measurement. Its home is docs/gpu, which reads the
// shipped runs' bench.json: the writer and the reader share one type.
type BenchResult = gpu.BenchResult

// BenchReport is the output of Bench.
type BenchReport struct {
	Device   Properties    `json:"device"`
	CUBLASLt string        `json:"cublaslt"`
	Elements int           `json:"elements"`
	Iters    int           `json:"iters"`
	Results  []BenchResult `json:"results"`
	Missed   int           `json:"missed"`
	Failed   int           `json:"failed"` // measurements that could not run
}

// bench is the state of one Bench run.
type bench struct {
	d      *Device
	cfg    BenchConfig
	rep    *BenchReport
	copyBW float64
	step   int
	steps  int
}

func (b *bench) logf(format string, args ...any) {
	if b.cfg.Log != nil {
		fmt.Fprintf(b.cfg.Log, format+"\n", args...)
	}
}

// add records a result, judges its goal and prints its line.
func (b *bench) add(r BenchResult) {
	b.step++
	if r.Bytes > 0 && r.Millis > 0 {
		r.GBps = float64(r.Bytes) / (r.Millis / 1e3) / 1e9
		if b.copyBW > 0 {
			r.OfCopy = r.GBps / b.copyBW
		}
	}
	line := fmt.Sprintf("bench [%2d/%d] %-46s", b.step, b.steps, r.Name)
	switch {
	case r.TFLOPS > 0:
		line += fmt.Sprintf(" %8.3f ms %8.1f TFLOPS", r.Millis, r.TFLOPS)
	case r.Ratio > 0:
		line += fmt.Sprintf(" %8.2fx", r.Ratio)
	default:
		line += fmt.Sprintf(" %8.3f ms %8.1f GB/s", r.Millis, r.GBps)
		if r.OfCopy > 0 {
			line += fmt.Sprintf(" = %5.1f%% of copy", 100*r.OfCopy)
		}
	}
	if r.Goal > 0 {
		v := r.OfCopy
		goal := fmt.Sprintf("%.0f%%", 100*r.Goal)
		switch {
		case r.TFLOPS > 0:
			v, goal = r.TFLOPS, fmt.Sprintf("%.0f TFLOPS", r.Goal)
		case r.Ratio > 0:
			v, goal = r.Ratio, fmt.Sprintf("%.1fx", r.Goal)
		}
		r.Status = "met"
		if v < r.Goal {
			r.Status = "missed"
			b.rep.Missed++
		}
		line += fmt.Sprintf("  (goal %s: %s)", goal, r.Status)
	}
	if r.Note != "" {
		line += "  (" + r.Note + ")"
	}
	b.rep.Results = append(b.rep.Results, r)
	b.logf("%s", line)
}

// time runs fn twice to warm up, then Iters times between two events, and
// returns the mean milliseconds per run.
func (b *bench) time(fn func() error) (float64, error) {
	return b.timeN(b.cfg.Iters, fn)
}

// timeN is time with iters timed runs.
func (b *bench) timeN(iters int, fn func() error) (float64, error) {
	for range 2 {
		if err := fn(); err != nil {
			return 0, err
		}
	}
	start, err := cu.MakeEvent(cu.DefaultEvent)
	if err != nil {
		return 0, check("cuEventCreate", err)
	}
	defer func() { _ = cu.DestroyEvent(&start) }()
	stop, err := cu.MakeEvent(cu.DefaultEvent)
	if err != nil {
		return 0, check("cuEventCreate", err)
	}
	defer func() { _ = cu.DestroyEvent(&stop) }()
	if err := check("cuEventRecord", start.Record(cu.Stream{})); err != nil {
		return 0, err
	}
	for range iters {
		if err := fn(); err != nil {
			return 0, err
		}
	}
	if err := check("cuEventRecord", stop.Record(cu.Stream{})); err != nil {
		return 0, err
	}
	if err := check("cuEventSynchronize", stop.Synchronize()); err != nil {
		return 0, err
	}
	ms, err := start.Elapsed(stop)
	if err != nil {
		return 0, check("cuEventElapsedTime", err)
	}
	return ms / float64(iters), nil
}

// fill writes a repeated host pattern of n bytes into dst.
func fill(a *arena, dst cu.DevicePtr, n int64, pattern []byte) error {
	src, err := upload(a, pattern)
	if err != nil {
		return err
	}
	chunk := int64(len(pattern))
	for off := int64(0); off < n; off += chunk {
		if err := check("cuMemcpyDtoD", cu.MemcpyDtoD(dst+cu.DevicePtr(off), src, min(chunk, n-off))); err != nil {
			return err
		}
	}
	return nil
}

// Bench measures the device-to-device copy bandwidth, then every kernel in
// GB/s and as a fraction of that bandwidth, then the FP8 and BF16 products
// in TFLOPS, printing a line per measurement to cfg.Log.
func (d *Device) Bench(cfg BenchConfig) (*BenchReport, error) {
	if cfg.Elements <= 0 {
		cfg.Elements = 1 << 28
	}
	if cfg.Elements%BenchElementsMultiple != 0 {
		return nil, fmt.Errorf("%w: bench elements %d is not a multiple of %d (the largest Hadamard block)",
			native.ErrInvalidArgument, cfg.Elements, BenchElementsMultiple)
	}
	if cfg.Iters <= 0 {
		cfg.Iters = 20
	}
	if cfg.GEMM == nil {
		cfg.GEMM = []int{4096, 8192}
	}
	b := &bench{d: d, cfg: cfg, rep: &BenchReport{Device: d.props, Elements: cfg.Elements, Iters: cfg.Iters}}
	codecs := []string{"sw"}
	if d.hasHW {
		codecs = append(codecs, "hw")
	}
	err := d.do("bench", func() error {
		b.logf("bench: %s, %s, %d SMs, theoretical DRAM bandwidth %.0f GB/s", d.props.Name, d.props.ComputeCapability(), d.props.SMs, d.props.PeakGBps)
		if err := b.kernels(codecs); err != nil {
			return err
		}
		return b.gemms()
	})
	return b.rep, err
}

// kernels measures the copy, then the elementwise kernels: the programs
// of native/internal/launch that Quantize, Dequantize and FWHT run, with
// the input bound to one preallocated buffer.
func (b *bench) kernels(codecs []string) error {
	d, n := b.d, int64(b.cfg.Elements)
	cols := int64(8192)
	rows := n / cols
	c := d.config()
	b.logf("bench: filling a %d×%d float32 input (%.2f GiB)", rows, cols, float64(4*n)/(1<<30))
	var a arena
	defer a.free()
	x, err := a.alloc(4 * n)
	if err != nil {
		return err
	}
	pattern := make([]byte, 4<<20)
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < len(pattern); i += 4 {
		v := float32(r.NormFloat64())
		if i%4099 == 0 {
			v *= 300 // outliers
		}
		binary.LittleEndian.PutUint32(pattern[i:], math.Float32bits(v))
	}
	if err := fill(&a, x, 4*n, pattern); err != nil {
		return err
	}
	y, err := a.alloc(4 * n)
	if err != nil {
		return err
	}

	type step struct {
		name  string
		bytes int64
		goal  float64
		build func(p *launch.Program, x int)
	}
	quant := func(br, bc int64, q launch.Quant) func(*launch.Program, int) {
		return func(p *launch.Program, x int) {
			c.Quantize(p, x, launch.NewLayout(int(rows), int(cols), int(br), int(bc)), q)
		}
	}
	e4 := launch.Quant{Format: kernels.FormatE4M3FN, Eps: 1e-12}
	with := func(q launch.Quant, edit func(*launch.Quant)) launch.Quant { edit(&q); return q }
	steps := []step{{"amax tensor", 4 * n, 0, func(p *launch.Program, x int) {
		c.Amax(p, x, launch.NewLayout(int(rows), int(cols), int(rows), int(cols)))
	}}}
	for _, codec := range codecs {
		name := map[string]string{"sw": "software", "hw": "hardware"}[codec]
		q := with(e4, func(q *launch.Quant) { q.Hardware = codec == "hw" })
		given := with(q, func(q *launch.Quant) { q.Scales = []float32{1} })
		steps = append(steps,
			step{"quantize tensor E4M3 " + name + " (given scale)", 5 * n, GoalTensorQuantize, quant(rows, cols, given)},
			step{"quantize tensor E5M2 " + name + " (given scale)", 5 * n, GoalTensorQuantize,
				quant(rows, cols, with(given, func(q *launch.Quant) { q.Format = kernels.FormatE5M2 }))},
			// Current scaling of a tensor beyond L2 reads it twice: the amax
			// must be known before the first code.
			step{"quantize tensor E4M3 " + name + " (amax+scale+encode, 2 reads)", 9 * n, 0, quant(rows, cols, q)},
			step{"quantize 1x128 E4M3 " + name + " (fused)", 5*n + n/128*8, GoalTiledQuantize,
				quant(1, 128, with(q, func(q *launch.Quant) { q.Fusable = true }))},
			step{"quantize mx E4M3 " + name + " (fused)", 5*n + n/32*9, GoalTiledQuantize,
				quant(1, 32, with(q, func(q *launch.Quant) { q.Fusable, q.MX, q.Eps = true, true, 0 }))},
			step{"quantize row E4M3 " + name + " (amax+scale+encode)", 5 * n, 0, quant(1, cols, q)},
			step{"quantize 128x128 E4M3 " + name + " (amax+scale+encode)", 5 * n, 0, quant(128, 128, q)},
		)
	}
	sto := with(e4, func(q *launch.Quant) { q.Stochastic, q.Seed, q.Stream, q.Bits = true, 1, 2, 32 })
	steps = append(steps,
		step{"stochastic tensor E4M3 (Philox, given scale)", 5 * n, GoalStochastic,
			quant(rows, cols, with(sto, func(q *launch.Quant) { q.Scales = []float32{1} }))},
		step{"stochastic 1x128 E4M3 (Philox, fused)", 5*n + n/128*8, GoalStochastic,
			quant(1, 128, with(sto, func(q *launch.Quant) { q.Fusable = true }))},
		step{"dequantize tensor E4M3", 5 * n, 0, func(p *launch.Program, x int) {
			var table [256]float32
			for i := range table {
				table[i] = fp8.E4M3FN.Decode32(uint8(i))
			}
			codes := p.Zeros(n)
			c.Dequantize(p, codes, launch.Upload(p, table[:]), launch.Upload(p, []float32{0.5}),
				launch.NewLayout(int(rows), int(cols), int(rows), int(cols)), false)
		}},
	)
	for _, blk := range []int{128, 1024, 4096, 32768} {
		goal := GoalFWHT
		if blk > 4096 {
			goal = 0
		}
		lb := int(math.Log2(float64(blk)))
		norm := float32(1 / math.Sqrt(float64(blk)))
		steps = append(steps, step{fmt.Sprintf("fwht block %d (read + write)", blk), 8 * n, goal, func(p *launch.Program, x int) {
			c.FWHT(p, x, n, lb, norm)
		}})
	}
	b.steps = 1 + len(steps) + 5*len(b.cfg.GEMM) + 4*len(b.cfg.Shapes)

	ms, err := b.time(func() error { return check("cuMemcpyDtoD", cu.MemcpyDtoD(y, x, 4*n)) })
	if err != nil {
		return err
	}
	b.copyBW = float64(8*n) / (ms / 1e3) / 1e9
	b.add(BenchResult{Name: gpu.CopyName, Bytes: 8 * n, Millis: ms})
	for _, s := range steps {
		p := launch.Program{Buffers: []launch.Buffer{{Bytes: 4 * n}}} // buffer 0: the input, bound to y
		s.build(&p, 0)
		if err := b.measure(&p, y, s.name, s.bytes, s.goal); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
	}
	return nil
}

// measure allocates a program's buffers (buffer 0 bound to in), times its
// steps and frees the buffers.
func (b *bench) measure(p *launch.Program, in cu.DevicePtr, name string, bytes int64, goal float64) error {
	if err := p.Check(); err != nil {
		return err
	}
	var a arena
	defer a.free()
	ptrs, err := prepare(&a, p, map[int]cu.DevicePtr{0: in})
	if err != nil {
		return err
	}
	ms, err := b.time(func() error { return b.d.steps(p.Steps, ptrs, nil) })
	if err != nil {
		return err
	}
	b.add(BenchResult{Name: name, Bytes: bytes, Millis: ms, Goal: goal})
	return nil
}

// gemms measures the FP8 (fast accumulation off and on) and BF16 products
// at each size, BF16 output, TN layout, and their ratio.
func (b *bench) gemms() error {
	if len(b.cfg.GEMM) == 0 && len(b.cfg.Shapes) == 0 {
		return nil
	}
	lt, err := b.d.ltHandle()
	if err != nil {
		return err
	}
	b.rep.CUBLASLt = fmt.Sprintf("%s (version %d)", lt.path, lt.version)
	b.logf("bench: cuBLASLt %s", b.rep.CUBLASLt)
	shapes := []BenchShape{}
	for _, s := range b.cfg.GEMM {
		shapes = append(shapes, BenchShape{Name: gpu.SquareShape(s), M: s, N: s, K: s})
	}
	for _, s := range append(shapes, b.cfg.Shapes...) {
		if s.M < 16 || s.N < 16 || s.K < 16 || s.M%16 != 0 || s.N%16 != 0 || s.K%16 != 0 {
			return fmt.Errorf("%w: GEMM %s is %d×%d×%d, not multiples of 16", native.ErrInvalidArgument, s.Name, s.M, s.K, s.N)
		}
		// A product cuBLASLt cannot run is recorded, and the others still run.
		if err := b.gemmShape(lt, s); err != nil {
			b.rep.Failed++
			b.rep.Results = append(b.rep.Results, BenchResult{Name: "gemm " + s.Name, Status: "error: " + err.Error()})
			b.logf("bench: GEMM %s failed: %v", s.Name, err)
		}
	}
	return nil
}

// gemmShape measures one product shape: FP8 with fast accumulation off
// and on, BF16, the better FP8 and the FP8/BF16 ratio (goals at 8192³).
func (b *bench) gemmShape(lt *cublasLt, sh BenchShape) error {
	var a arena
	defer a.free()
	m, n, k := int64(sh.M), int64(sh.N), int64(sh.K)
	big := max(m*k, k*n, m*n)
	flops := 2 * float64(m) * float64(n) * float64(k)
	square := sh.M == sh.N && sh.N == sh.K
	// Small products take microseconds: repeat them until a measurement
	// covers about a TFLOP of work, at most 100× the configured count.
	iters := max(b.cfg.Iters, min(100*b.cfg.Iters, int(1e12/flops)))
	// FP8 operands: E4M3FN codes with magnitudes up to 2^0·1.875 (no NaN).
	p8 := make([]byte, 1<<20)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range p8 {
		p8[i] = byte(r.IntN(0x40)) | byte(r.IntN(2))<<7
	}
	// BF16 operands: values in ±[0.5, 2).
	p16 := make([]byte, 1<<20)
	for i := 0; i < len(p16); i += 2 {
		binary.LittleEndian.PutUint16(p16[i:], fp8.BF16.Encode32(float32(0.5+1.5*r.Float64())*float32(1-2*r.IntN(2))))
	}
	bufs := map[string]cu.DevicePtr{}
	for _, name := range []string{"a8", "b8", "a16", "b16", "d"} {
		size, pat := big, p8
		if name != "a8" && name != "b8" {
			size, pat = 2*big, p16
		}
		p, err := a.alloc(size)
		if err != nil {
			return err
		}
		if err := fill(&a, p, size, pat); err != nil {
			return err
		}
		bufs[name] = p
	}
	// One buffer per scale: cuBLASLt refuses (CUBLAS_STATUS_NOT_SUPPORTED,
	// with every algorithm) a scale pointer that is not 16-byte aligned.
	sa, err := upload(&a, []float32{1})
	if err != nil {
		return err
	}
	sb, err := upload(&a, []float32{1})
	if err != nil {
		return err
	}
	run := func(name string, spec gemmSpec, x, y cu.DevicePtr) (float64, error) {
		p, err := lt.plan(spec)
		if err != nil {
			return 0, err
		}
		defer p.destroy()
		ms, err := b.timeN(iters, func() error { return p.run(x, y, bufs["d"]) })
		if err != nil {
			return 0, err
		}
		tf := flops / (ms / 1e3) / 1e12
		r := BenchResult{Name: name, Millis: ms, TFLOPS: tf}
		if ch, cnt := p.algorithm(); ch > 0 {
			r.Note = fmt.Sprintf("cuBLASLt refused the heuristic's first %d of %d algorithms", ch, cnt)
		}
		b.add(r)
		return tf, nil
	}
	var best float64
	for _, fast := range []bool{false, true} {
		spec := gemmSpec{atype: typeE4M3, btype: typeE4M3, dtype: typeBF16, m: sh.M, n: sh.N, k: sh.K, ascale: sa, bscale: sb, fastAccum: fast}
		tf, err := run(gpu.FP8GEMMName(sh.Name, fast), spec, bufs["a8"], bufs["b8"])
		if err != nil {
			return err
		}
		best = max(best, tf)
	}
	bf, err := run(gpu.BF16GEMMName(sh.Name), gemmSpec{atype: typeBF16, btype: typeBF16, dtype: typeBF16, m: sh.M, n: sh.N, k: sh.K}, bufs["a16"], bufs["b16"])
	if err != nil {
		return err
	}
	goal := 0.0
	if square && sh.M == 8192 {
		goal = GoalFP8TFLOPS
	}
	if square {
		b.add(BenchResult{Name: gpu.FP8BestName(sh.Name), Millis: flops / best / 1e9, TFLOPS: best, Goal: goal})
	}
	if square && sh.M == 8192 {
		goal = GoalFP8OverBF16
	}
	b.add(BenchResult{Name: gpu.RatioName(sh.Name), Ratio: best / bf, Goal: goal})
	return nil
}
