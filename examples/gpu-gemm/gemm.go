//go:build cuda

package main

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/native"
	"github.com/fp8lab/fp8lab/native/cuda"
	"github.com/fp8lab/fp8lab/native/parity"
	"github.com/fp8lab/fp8lab/scaling"
)

// result is one size's measurement. Times include the host↔device copies of
// the backend's host-data API, so they understate the kernels' speed.
type result struct {
	N                 int
	FP8Time, BF16Time time.Duration
	// FP8Err and BF16Err are native.ProductError against the CPU's float32
	// product: the worst error in units of Σ|a||b|.
	FP8Err, BF16Err float64
}

// best returns the fastest of reps calls of fn.
func best(reps int, fn func() error) (time.Duration, error) {
	var b time.Duration
	for i := 0; i < reps; i++ {
		t0 := time.Now()
		if err := fn(); err != nil {
			return 0, err
		}
		if d := time.Since(t0); i == 0 || d < b {
			b = d
		}
	}
	return b, nil
}

// run opens GPU 0 and measures square products of a few sizes.
func run(w io.Writer, short bool) ([]result, error) {
	dev, err := cuda.Open(0)
	if err != nil {
		return nil, err
	}
	defer dev.Close()
	fmt.Fprintf(w, "%s\n\n", dev.Info().Device)
	sizes := []int{1024, 2048, 4096}
	if short {
		sizes = []int{256}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "M=N=K\tFP8 ms\tBF16 ms\tFP8 TFLOP/s\tBF16 TFLOP/s\tFP8 error\tBF16 error\t")
	var out []result
	for _, n := range sizes {
		a, err := parity.MakeInput(n, n, parity.InputNormal, 1)
		if err != nil {
			return nil, err
		}
		b, err := parity.MakeInput(n, n, parity.InputNormal, 2)
		if err != nil {
			return nil, err
		}
		ref, err := scaling.MatMul(a, b)
		if err != nil {
			return nil, err
		}
		qa, err := dev.Quantize(a, fp8.E4M3FN, scaling.PerRow, native.QuantizeOptions{})
		if err != nil {
			return nil, err
		}
		qb, err := dev.Quantize(b, fp8.E4M3FN, scaling.PerCol, native.QuantizeOptions{})
		if err != nil {
			return nil, err
		}
		r := result{N: n}
		var d8, d16 *scaling.Tensor
		if r.FP8Time, err = best(5, func() (err error) {
			d8, err = dev.ScaledMatMul(qa, qb, native.OutputFloat32)
			return err
		}); err != nil {
			return nil, fmt.Errorf("FP8 GEMM %d: %w", n, err)
		}
		if r.BF16Time, err = best(5, func() (err error) {
			d16, err = dev.MatMulBF16(a, b, native.OutputFloat32)
			return err
		}); err != nil {
			return nil, fmt.Errorf("BF16 GEMM %d: %w", n, err)
		}
		r.FP8Err, _, _ = native.ProductError(a, b, ref, d8, native.OutputFloat32)
		r.BF16Err, _, _ = native.ProductError(a, b, ref, d16, native.OutputFloat32)
		out = append(out, r)
		flops := 2 * float64(n) * float64(n) * float64(n)
		fmt.Fprintf(tw, "%d\t%.3f\t%.3f\t%.1f\t%.1f\t%.2e\t%.2e\t\n", n,
			r.FP8Time.Seconds()*1e3, r.BF16Time.Seconds()*1e3,
			flops/r.FP8Time.Seconds()/1e12, flops/r.BF16Time.Seconds()/1e12, r.FP8Err, r.BF16Err)
	}
	if err := tw.Flush(); err != nil {
		return nil, err
	}
	fmt.Fprintln(w, "\nTimes include copying operands to the GPU and the result back.")
	return out, nil
}
