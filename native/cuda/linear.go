//go:build cuda

package cuda

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/fp8lab/fp8lab/docs/gpu"
	"github.com/fp8lab/fp8lab/native"
	"github.com/fp8lab/fp8lab/native/internal/launch"
	"github.com/fp8lab/fp8lab/native/parity"
	"gorgonia.org/cu"
)

// LinearConfig configures Linear.
type LinearConfig struct {
	// Sizes are the layers timed, n×n×n each (tokens, in and out); default
	// 4096, 8192 and 16384.
	Sizes []int
	// Iters is the number of timed repetitions of each plan (default 10).
	Iters int
	// Check is the shape whose results are compared with the CPU first
	// (launch.CheckLinear); default 256×192×320.
	Check launch.LinearShape
	// Log receives one line per plan; nil for none.
	Log io.Writer
}

// Linear runs the three plans of one linear layer's forward and backward
// (launch.Config.Linear): first at cfg.Check, read back and held to the
// CPU, then at each size, timing every launch with CUDA events (the mean
// over cfg.Iters runs after two warm-ups) and each plan as a whole.
func (d *Device) Linear(cfg LinearConfig) (*gpu.LinearReport, error) {
	if cfg.Sizes == nil {
		cfg.Sizes = []int{4096, 8192, 16384}
	}
	if cfg.Iters <= 0 {
		cfg.Iters = 10
	}
	if cfg.Check == (launch.LinearShape{}) {
		cfg.Check = launch.LinearShape{Tokens: 256, In: 192, Out: 320}
	}
	logf := func(format string, args ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, format+"\n", args...)
		}
	}
	rep := &gpu.LinearReport{Iters: cfg.Iters}
	if err := d.checkLinear(cfg.Check, rep, logf); err != nil {
		return rep, err
	}
	for _, n := range cfg.Sizes {
		sh := launch.LinearShape{Tokens: n, In: n, Out: n}
		if err := sh.Check(); err != nil {
			return rep, fmt.Errorf("%w: %v", native.ErrInvalidArgument, err)
		}
		out := gpu.LinearShape{Tokens: n, In: n, Out: n}
		for _, plan := range launch.LinearPlans {
			p, err := d.timeLinear(plan, sh, cfg.Iters)
			if err != nil {
				return rep, fmt.Errorf("%s at %d×%d×%d: %w", plan, n, n, n, err)
			}
			logf("linear %d³ %-9s %8.3f ms (steps %.3f ms; products %.3f ms, transposes %.3f ms)",
				n, plan, p.Millis, p.StepMillis(), p.RoleMillis(gpu.RoleGEMM), p.RoleMillis(gpu.RoleTranspose))
			out.Plans = append(out.Plans, p)
		}
		rep.Shapes = append(rep.Shapes, out)
	}
	return rep, nil
}

// checkLinear runs every plan at sh with normal inputs with outliers and
// compares the results with the CPU.
func (d *Device) checkLinear(sh launch.LinearShape, rep *gpu.LinearReport, logf func(string, ...any)) error {
	get := func(rows, cols int, seed uint64) ([]float32, error) {
		m, err := parity.MakeInput(rows, cols, parity.InputNormal, seed)
		if err != nil {
			return nil, err
		}
		return m.Data, nil
	}
	x, err := get(sh.Tokens, sh.In, 1)
	if err != nil {
		return err
	}
	wt, err := get(sh.Out, sh.In, 2)
	if err != nil {
		return err
	}
	dy, err := get(sh.Tokens, sh.Out, 3)
	if err != nil {
		return err
	}
	for _, plan := range launch.LinearPlans {
		var p launch.Program
		in := launch.LinearIn{X: launch.Upload(&p, x), Wt: launch.Upload(&p, wt), DY: launch.Upload(&p, dy)}
		o, err := d.config().Linear(&p, plan, sh, in, d.hasHW)
		if err != nil {
			return err
		}
		b, err := d.Run(&p, nil, o.Outputs(plan)...)
		if err != nil {
			return fmt.Errorf("%s at %d×%d×%d: %w", plan, sh.Tokens, sh.In, sh.Out, err)
		}
		res, err := launch.ReadLinear(plan, b)
		if err != nil {
			return err
		}
		if err := launch.CheckLinear(plan, sh, x, wt, dy, res); err != nil {
			return fmt.Errorf("%s at %d×%d×%d differs from the CPU: %w", plan, sh.Tokens, sh.In, sh.Out, err)
		}
		v := fmt.Sprintf("%s at %d×%d×%d", plan, sh.Tokens, sh.In, sh.Out)
		rep.Verified = append(rep.Verified, v)
		logf("linear: %s matches the CPU (codes, transposes and scales bit for bit; products within tolerance)", v)
	}
	return nil
}

// timeLinear builds plan at sh over inputs filled on the device, and times
// each launch and the whole plan.
func (d *Device) timeLinear(plan string, sh launch.LinearShape, iters int) (gpu.LinearPlan, error) {
	res := gpu.LinearPlan{Plan: plan}
	var p launch.Program
	n := func(r, c int) int64 { return 4 * int64(r) * int64(c) }
	in := launch.LinearIn{X: p.Alloc(n(sh.Tokens, sh.In)), Wt: p.Alloc(n(sh.Out, sh.In)), DY: p.Alloc(n(sh.Tokens, sh.Out))}
	if _, err := d.config().Linear(&p, plan, sh, in, d.hasHW); err != nil {
		return res, err
	}
	if err := p.Check(); err != nil {
		return res, err
	}
	// Normal values (a repeated 1 MiB pattern): products of zeros would
	// run at another clock than products of data.
	pattern := make([]byte, 1<<20)
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < len(pattern); i += 4 {
		binary.LittleEndian.PutUint32(pattern[i:], math.Float32bits(float32(r.NormFloat64())))
	}
	err := d.do("linear", func() error {
		var a arena
		defer a.free()
		ptrs, err := prepare(&a, &p, nil)
		if err != nil {
			return err
		}
		for _, b := range []int{in.X, in.Wt, in.DY} {
			if err := fill(&a, ptrs[b], p.Buffers[b].Bytes, pattern); err != nil {
				return err
			}
		}
		steps, total, err := d.timeSteps(p.Steps, ptrs, iters)
		if err != nil {
			return err
		}
		res.Millis = total
		for i, s := range p.Steps {
			res.Steps = append(res.Steps, gpu.LinearStep{Name: s.Name, Role: s.Role, Millis: steps[i]})
		}
		return nil
	})
	return res, err
}

// timeSteps runs steps iters times after two warm-ups, with an event
// recorded before the first launch and after each, and returns the mean
// time of each step and of the whole sequence, in milliseconds. The
// products' cuBLASLt plans are made once, before the timing.
func (d *Device) timeSteps(steps []launch.Step, ptrs []cu.DevicePtr, iters int) ([]float64, float64, error) {
	plans := map[int]*plan{}
	defer func() {
		for _, p := range plans {
			p.destroy()
		}
	}()
	lt, err := d.ltHandle()
	if err != nil {
		return nil, 0, err
	}
	type gemmRun struct{ a, b, dst cu.DevicePtr }
	runs := map[int]gemmRun{}
	for i, s := range steps {
		if s.GEMM == nil {
			continue
		}
		spec, a, b, dst, err := gemmStep(s.GEMM, ptrs)
		if err != nil {
			return nil, 0, err
		}
		if plans[i], err = lt.plan(spec); err != nil {
			return nil, 0, err
		}
		runs[i] = gemmRun{a, b, dst}
	}
	one := func(i int) error {
		if p := plans[i]; p != nil {
			r := runs[i]
			return p.run(r.a, r.b, r.dst)
		}
		return d.steps(steps[i:i+1], ptrs, nil)
	}
	for range 2 {
		for i := range steps {
			if err := one(i); err != nil {
				return nil, 0, err
			}
		}
	}
	events := make([]cu.Event, len(steps)+1)
	for i := range events {
		if events[i], err = cu.MakeEvent(cu.DefaultEvent); err != nil {
			return nil, 0, check("cuEventCreate", err)
		}
	}
	defer func() {
		for i := range events {
			_ = cu.DestroyEvent(&events[i])
		}
	}()
	sum := make([]float64, len(steps))
	var total float64
	for range iters {
		if err := check("cuEventRecord", events[0].Record(cu.Stream{})); err != nil {
			return nil, 0, err
		}
		for i := range steps {
			if err := one(i); err != nil {
				return nil, 0, err
			}
			if err := check("cuEventRecord", events[i+1].Record(cu.Stream{})); err != nil {
				return nil, 0, err
			}
		}
		if err := check("cuEventSynchronize", events[len(steps)].Synchronize()); err != nil {
			return nil, 0, err
		}
		for i := range steps {
			ms, err := events[i].Elapsed(events[i+1])
			if err != nil {
				return nil, 0, check("cuEventElapsedTime", err)
			}
			sum[i] += float64(ms)
		}
		ms, err := events[0].Elapsed(events[len(steps)])
		if err != nil {
			return nil, 0, check("cuEventElapsedTime", err)
		}
		total += float64(ms)
	}
	for i := range sum {
		sum[i] /= float64(iters)
	}
	return sum, total / float64(iters), nil
}
