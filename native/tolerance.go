package native

import (
	"math"

	"github.com/fp8lab/fp8lab/scaling"
)

// Tolerances of the matrix products: how far a backend's product may be
// from the CPU backend's. Every other operation of a Backend (codes,
// scales, stochastic roundings, amaxes, dequantized values, Hadamard
// transforms) is bit-identical, NaN payloads aside; products may differ in
// the order of their float32 additions, so a backend agrees when
//
//	|dut - ref| <= tol · Σ_k |a_ik|·|b_kj|  (+ one BF16 ulp of ref for bf16 output)
//
// where a and b are the operands as the product sees them (decoded and
// descaled for FP8, rounded to BF16 for the BF16 product). ProductError
// measures |dut - ref| in units of that sum, the BF16 ulp already allowed.
const (
	// GEMMTolFP8 is the relative tolerance of the scaled FP8 product. It
	// allows the reduced-precision accumulation of Hopper's FP8 tensor cores
	// between promotions to float32, which cuBLASLt does even with fast
	// accumulation off: on an H100 (CUDA 13.0, cuBLASLt 13.1) products of
	// K = 48..512 reached 1.42e-3 (2^-9.5) of Σ|a||b| (BENCHMARKS.md).
	GEMMTolFP8 = 0x1p-9
	// GEMMTolBF16 is the relative tolerance of the BF16 product (float32
	// accumulation in a different order).
	GEMMTolBF16 = 0x1p-12
)

// ProductError returns the largest error of d against the reference r of
// the product a·b, in units of Σ_k |a_ik|·|b_kj| (after allowing one BF16
// ulp of r when out is OutputBF16), and where it occurs. Non-finite
// mismatches count as an infinite error. Tensors that do not form the
// product (nil, shapes that do not agree) give NaN at row and column -1.
func ProductError(a, b, r, d *scaling.Tensor, out Output) (worst float64, row, col int) {
	for _, t := range []*scaling.Tensor{a, b, r, d} {
		if t.Check() != nil {
			return math.NaN(), -1, -1
		}
	}
	if a.Cols != b.Rows || r.Rows != a.Rows || r.Cols != b.Cols || d.Rows != r.Rows || d.Cols != r.Cols {
		return math.NaN(), -1, -1
	}
	m, k, n := a.Rows, a.Cols, b.Cols
	absRow := make([]float64, n)
	row, col = -1, -1
	for i := 0; i < m; i++ {
		clear(absRow)
		for p := 0; p < k; p++ {
			av := math.Abs(float64(a.Data[i*k+p]))
			for j, bv := range b.Data[p*n : (p+1)*n] {
				absRow[j] += av * math.Abs(float64(bv))
			}
		}
		for j := 0; j < n; j++ {
			rv, dv := float64(r.Data[i*n+j]), float64(d.Data[i*n+j])
			var e float64
			switch {
			case rv == dv || math.IsNaN(rv) && math.IsNaN(dv):
				continue
			case math.IsNaN(rv) || math.IsNaN(dv) || math.IsInf(rv, 0) || math.IsInf(dv, 0):
				e = math.Inf(1)
			default:
				diff := math.Abs(rv - dv)
				if out == OutputBF16 {
					diff = max(0, diff-bf16Ulp(rv))
				}
				if diff == 0 {
					continue
				}
				e = diff / absRow[j]
				if absRow[j] == 0 {
					e = math.Inf(1)
				}
			}
			if e > worst {
				worst, row, col = e, i, j
			}
		}
	}
	return worst, row, col
}

// bf16Ulp returns the spacing of BF16 values at |v|.
func bf16Ulp(v float64) float64 {
	if v == 0 {
		return 0x1p-133
	}
	_, e := math.Frexp(v) // |v| in [2^(e-1), 2^e)
	return math.Ldexp(1, max(e-1-7, -133))
}
