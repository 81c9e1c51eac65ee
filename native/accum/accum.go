// Package accum measures how a GPU's FP8 matrix product accumulates. Study
// multiplies seeded E4M3FN operands at growing K with the device's fast
// accumulation off and on, compares both with the exact product and with
// scaling's emulated accumulators, and fits an emulated accumulator to the
// device; Operands rebuilds those operands bit for bit on any machine.
// fp8lab-gpu accum runs the study on a GPU, docs/gpu keeps the runs, and
// this package's tests hold scaling.FastAccumulator and
// scaling.PromotedAccumulator to every shipped run.
package accum

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/fp8lab/fp8lab/docs/gpu"
	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/parallel"
	"github.com/fp8lab/fp8lab/native"
	"github.com/fp8lab/fp8lab/scaling"
)

// Product multiplies two per-tensor-scaled FP8 matrices into float32,
// with a device's fast accumulation on or off: what Study measures.
type Product func(a, b *scaling.Quantized, fastAccum bool) (*scaling.Tensor, error)

// Config configures Study.
type Config struct {
	// Ks are the contraction lengths (default 512, 1024, ..., 16384).
	Ks []int
	// M and N size the output (default 128×128: 16384 dot products per K).
	M, N int
	// Seed seeds the operands.
	Seed uint64
	// Log, when not nil, receives one line per measurement.
	Log io.Writer
}

// accumCandidates are the accumulators the fit chooses from: the aligned
// model around scaling.FastAccumulator (12..14 fraction bits, groups of
// 16, 32 and 64 products, with its split-K and without), and the classic
// truncated running sum of 12..14 bits.
func accumCandidates() []scaling.Accumulator {
	fast := scaling.FastAccumulator
	var out []scaling.Accumulator
	for m := 12; m <= 14; m++ {
		for _, g := range []int{16, 32, 64} {
			a := scaling.Accumulator{MantissaBits: m, AlignGroup: g}
			out = append(out, a)
			a.SplitFrom, a.SplitLen = fast.SplitFrom, fast.SplitLen
			out = append(out, a)
		}
		out = append(out, scaling.Accumulator{MantissaBits: m})
	}
	return out
}

// Study measures how a device's FP8 product accumulates. For each K it
// multiplies M×K by K×N E4M3FN matrices (scale 1, values of |N(0,1)| —
// "positive", where the running sum only grows — and of N(0,1), "signed";
// Operands builds them) with the device's fast accumulation off and
// on, and compares both with the exact product (float64, exact for these
// operands) and with scaling.ScaledMatMul's emulations:
// scaling.FastAccumulator against fast accumulation on,
// scaling.PromotedAccumulator against it off. It then fits the emulated
// accumulator to the device's fast accumulation. DeepSeek-V3 (§3.3.2)
// reports about 14 bits kept, and a relative error near 2% at K = 4096.
func Study(dev Product, cfg Config) (*gpu.AccumReport, error) {
	if dev == nil {
		return nil, fmt.Errorf("%w: nil product", native.ErrInvalidArgument)
	}
	if cfg.Ks == nil {
		cfg.Ks = []int{512, 1024, 2048, 4096, 8192, 16384}
	}
	if cfg.M == 0 && cfg.N == 0 {
		cfg.M, cfg.N = 128, 128
	}
	if cfg.M < 16 || cfg.N < 16 || cfg.M%16 != 0 || cfg.N%16 != 0 || cfg.M*cfg.N > 1<<20 {
		return nil, fmt.Errorf("%w: accumulation study output %d×%d (multiples of 16, at most 2^20 elements)", native.ErrInvalidArgument, cfg.M, cfg.N)
	}
	for _, k := range cfg.Ks {
		if k < 16 || k%16 != 0 || k > 1<<16 {
			return nil, fmt.Errorf("%w: accumulation study K = %d (a multiple of 16, at most 65536)", native.ErrInvalidArgument, k)
		}
	}
	promoted := scaling.PromotedAccumulator
	rep := &gpu.AccumReport{M: cfg.M, N: cfg.N, Seed: cfg.Seed, Shipped: scaling.FastAccumulator, Promoted: &promoted}
	cands := accumCandidates()
	candErr := make([][]gpu.AccumError, len(cands)) // candidate × row
	for _, kind := range Kinds {
		for _, k := range cfg.Ks {
			a, b, err := Operands(cfg.M, k, cfg.N, kind, cfg.Seed)
			if err != nil {
				return nil, err
			}
			ref, mass := exactProduct(a, b)
			row := gpu.AccumRow{Operands: kind, K: k}
			measure := func(d *scaling.Tensor, err error) (gpu.AccumError, error) {
				if err != nil {
					return gpu.AccumError{}, err
				}
				if d == nil || d.Rows != cfg.M || d.Cols != cfg.N || len(d.Data) != cfg.M*cfg.N {
					return gpu.AccumError{}, fmt.Errorf("%w: the product is not a %d×%d tensor", native.ErrInvalidArgument, cfg.M, cfg.N)
				}
				return accumError(d.Data, ref, mass), nil
			}
			if row.Off, err = measure(dev(a, b, false)); err != nil {
				return nil, fmt.Errorf("K = %d, fast accumulation off: %w", k, err)
			}
			if row.On, err = measure(dev(a, b, true)); err != nil {
				return nil, fmt.Errorf("K = %d, fast accumulation on: %w", k, err)
			}
			if row.Float32, err = measure(scaling.ScaledMatMul(a, b, scaling.Float32Accumulator)); err != nil {
				return nil, err
			}
			if row.Shipped, err = measure(scaling.ScaledMatMul(a, b, scaling.FastAccumulator)); err != nil {
				return nil, err
			}
			p, err := measure(scaling.ScaledMatMul(a, b, promoted))
			if err != nil {
				return nil, err
			}
			row.Promoted = &p
			for c, acc := range cands {
				e, err := measure(scaling.ScaledMatMul(a, b, acc))
				if err != nil {
					return nil, err
				}
				candErr[c] = append(candErr[c], e)
			}
			if cfg.Log != nil {
				fmt.Fprintf(cfg.Log, "accum %-8s K=%5d  relative error: device fast accumulation off %.3g, on %.3g; emulated float32 %.3g, %s %.3g\n",
					kind, k, row.Off.Rel, row.On.Rel, row.Float32.Rel, rep.Shipped, row.Shipped.Rel)
			}
			rep.Rows = append(rep.Rows, row)
		}
	}
	on, shipped := make([]float64, len(rep.Rows)), make([]float64, len(rep.Rows))
	off, prom := make([]float64, len(rep.Rows)), make([]float64, len(rep.Rows))
	for i, r := range rep.Rows {
		on[i], shipped[i] = r.On.Rel, r.Shipped.Rel
		off[i], prom[i] = r.Off.Rel, r.Promoted.Rel
	}
	rel := func(es []gpu.AccumError) []float64 {
		out := make([]float64, len(es))
		for i, e := range es {
			out[i] = e.Rel
		}
		return out
	}
	best, bestScore := 0, math.Inf(1)
	for c := range cands {
		if s := logMisfit(rel(candErr[c]), on); s < bestScore {
			best, bestScore = c, s
		}
	}
	rep.Fit = cands[best]
	for i := range rep.Rows {
		rep.Rows[i].Fitted = candErr[best][i]
	}
	rep.FitSpread, rep.ShippedSpread = spread(rel(candErr[best]), on), spread(shipped, on)
	rep.PromotedSpread = spread(prom, off)
	if cfg.Log != nil {
		fmt.Fprintf(cfg.Log, "accum: fast accumulation fits a %s accumulator (within a factor %.2f in every row); scaling.FastAccumulator (%s) is within %.2f\n",
			rep.Fit, rep.FitSpread, rep.Shipped, rep.ShippedSpread)
		fmt.Fprintf(cfg.Log, "accum: with fast accumulation off, scaling.PromotedAccumulator (%s) is within %.2f\n",
			promoted, rep.PromotedSpread)
	}
	return rep, nil
}

// Kinds are Study's operand kinds, in the order of its rows.
var Kinds = []string{"positive", "signed"}

// Operands returns the operands Study multiplies at K: M×K and
// K×N E4M3FN matrices with scale 1 whose values are E4M3FN roundings of
// |N(0,1)| (kind "positive") or N(0,1) ("signed"), drawn from a PCG seeded
// with seed+K. Any machine rebuilds a GPU run's operands bit for bit.
func Operands(m, k, n int, kind string, seed uint64) (a, b *scaling.Quantized, err error) {
	if kind != "positive" && kind != "signed" {
		return nil, nil, fmt.Errorf("%w: operand kind %q (positive or signed)", native.ErrInvalidArgument, kind)
	}
	r := rand.New(rand.NewPCG(seed+uint64(k), 0x61CC))
	make1 := func(rows, cols int) (*scaling.Quantized, error) {
		t := &scaling.Tensor{Rows: rows, Cols: cols, Data: make([]float32, rows*cols)}
		for i := range t.Data {
			v := r.NormFloat64()
			if kind == "positive" {
				v = math.Abs(v)
			}
			t.Data[i] = float32(v)
		}
		return native.NewCPU().Quantize(t, fp8.E4M3FN, scaling.PerTensor, native.QuantizeOptions{Scales: []float32{1}})
	}
	if a, err = make1(m, k); err != nil {
		return nil, nil, err
	}
	if b, err = make1(k, n); err != nil {
		return nil, nil, err
	}
	return a, b, nil
}

// exactProduct returns A·B and Σ|a||b| per element, in float64: exact for
// E4M3FN operands up to K = 2^16 (every product is a multiple of 2^-18
// below 2^18, so the sums stay within float64's 53 bits).
func exactProduct(a, b *scaling.Quantized) (ref, mass []float64) {
	m, k, n := a.Rows, a.Cols, b.Cols
	va, vb := make([]float64, m*k), make([]float64, k*n)
	for i, c := range a.Codes {
		va[i] = float64(a.Format.Decode32(c))
	}
	for i, c := range b.Codes {
		vb[i] = float64(b.Format.Decode32(c))
	}
	ref, mass = make([]float64, m*n), make([]float64, m*n)
	_ = parallel.Chunks(m, 1, m*n*k, func(lo, hi int) error {
		for i := lo; i < hi; i++ {
			for p := 0; p < k; p++ {
				x := va[i*k+p]
				row := vb[p*n : (p+1)*n]
				for j, y := range row {
					ref[i*n+j] += x * y
					mass[i*n+j] += math.Abs(x * y)
				}
			}
		}
		return nil
	})
	return ref, mass
}

// accumError measures d against the exact product.
func accumError(d []float32, ref, mass []float64) gpu.AccumError {
	var num, den, norm, maxNorm float64
	for i, r := range ref {
		e := math.Abs(float64(d[i]) - r)
		if math.IsNaN(e) {
			e = math.Inf(1)
		}
		num += e * e
		den += r * r
		if mass[i] > 0 {
			norm += e / mass[i]
			maxNorm = max(maxNorm, e/mass[i])
		}
	}
	return gpu.AccumError{Rel: math.Sqrt(num / den), Norm: norm / float64(len(ref)), MaxNorm: maxNorm}
}

// logMisfit is Σ (log(x/y))² over the pairs; a zero error on one side only
// counts as a factor of 2^20.
func logMisfit(x, y []float64) float64 {
	var s float64
	for i := range x {
		d := logRatio(x[i], y[i])
		s += d * d
	}
	return s
}

// spread is the largest factor between x[i] and y[i].
func spread(x, y []float64) float64 {
	var worst float64
	for i := range x {
		worst = max(worst, math.Abs(logRatio(x[i], y[i])))
	}
	return math.Exp(worst)
}

func logRatio(x, y float64) float64 {
	switch {
	case x == 0 && y == 0:
		return 0
	case x == 0 || y == 0:
		return 20 * math.Ln2
	}
	return math.Log(x / y)
}
