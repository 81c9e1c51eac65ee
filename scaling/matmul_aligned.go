package scaling

import (
	"math"

	"github.com/fp8lab/fp8lab/fp8"
)

// The fast path of ScaledMatMul for aligned accumulators (FastAccumulator,
// PromotedAccumulator): the same sums, bit for bit, as Accumulator.run,
// eight output columns at a time, in float32 and int32 arithmetic that a
// vector unit does lane by lane (matmul_aligned_amd64.s with AVX2, the Go
// loop below elsewhere).
//
// One aligned step for one column, with c the running sum and p_i the
// group's products: the largest of |c| and |p_i| has the biased float32
// exponent e; the grid is 2^(e-127-m). Multiplying by s = 2^-(e-127-m)
// (exact: a power of two) puts every term below 2^(m+1) grid steps, and
// converting to int32 truncates it toward zero, exactly what
// Accumulator.run's truncation does. The integer sum of at most
// MaxAlignGroup+1 such terms is converted back exactly when it stays below
// 2^24 (alignedFits), scaled by 1/s, and truncated to m fraction bits by
// clearing the low 23-m bits of its float32 encoding.

// alignedFits reports whether the vector kernel computes acc's sums of
// a's and b's decoded codes exactly: the integer sums stay below 2^24, the
// products are normal float32 values large enough that the grid of their
// largest never needs an exponent below float32's normal range, and no
// sum leaves float32's range.
func alignedFits(acc Accumulator, a, b *Quantized, k int) bool {
	if (acc.AlignGroup+1)<<(acc.MantissaBits+1) > 1<<24 {
		return false
	}
	return truncOperandsFit(a.Format, b.Format, k) && minProduct(a.Format, b.Format) >= math.Ldexp(1, acc.MantissaBits-126)
}

// minProduct is the smallest non-zero |x·y| for codes of the two formats.
func minProduct(a, b *fp8.Format) float64 {
	return math.Abs(a.Decode(1)) * math.Abs(b.Decode(1))
}

// alignedRow computes one output row like generalRow, for an aligned
// accumulator, from the row arow of decoded A codes and vb, B decoded as
// K×N: out[j] = Σ over segments and promotion runs of
// float32(run)·factor(s, j).
func alignedRow(out, arow, vb []float32, k int, cuts []int, acc Accumulator, factor func(s, j int) float32) {
	n := len(out)
	clear(out)
	var c [8]float32
	var f [8]float32
	for s := 0; s+1 < len(cuts); s++ {
		k0, k1 := cuts[s], cuts[s+1]
		run := k1 - k0
		if acc.PromoteEvery > 0 {
			run = min(run, acc.PromoteEvery)
		}
		for j := 0; j < n; j += 8 {
			lanes := min(8, n-j)
			for l := range lanes {
				f[l] = factor(s, j+l)
			}
			for p := k0; p < k1; p += run {
				q := min(p+run, k1)
				c = [8]float32{}
				alignedRun(c[:lanes], arow[p:q], vb[p*n+j:], n, acc.AlignGroup, acc.MantissaBits)
				for l := range lanes {
					out[j+l] += float32(c[l] * f[l])
				}
			}
		}
	}
}

// alignedConsts are the lane constants of an m-bit aligned step.
type alignedConsts struct {
	minExp, scaleTop, mBits, keep uint32
}

func newAlignedConsts(m int) alignedConsts {
	return alignedConsts{
		minExp:   uint32(m+1) << 23,   // the smallest exponent field of a grid's top
		scaleTop: uint32(254+m) << 23, // s's field is 254+m-e
		mBits:    uint32(m) << 23,     // 1/s's field is e-m
		keep:     ^uint32(0) << uint(23-m),
	}
}

// alignedRunGo runs len(c) ≤ 8 columns: c[l] becomes the aligned sum of
// a[p]·b[p*ldb+l] over p, in steps of group products, from c[l]. It is the
// Go twin of alignedRunAVX2, lane for lane.
func alignedRunGo(c []float32, a, b []float32, ldb, group, m int) {
	k := newAlignedConsts(m)
	for l := range c {
		cv := c[l]
		for p := 0; p < len(a); p += group {
			q := min(p+group, len(a))
			top := math.Float32bits(cv) &^ (1 << 31)
			for i := p; i < q; i++ {
				top = max(top, math.Float32bits(float32(a[i]*b[i*ldb+l]))&^(1<<31))
			}
			e := max(top&0x7F800000, k.minExp)
			s := math.Float32frombits(k.scaleTop - e)
			sum := int32(float32(cv * s))
			for i := p; i < q; i++ {
				sum += int32(float32(float32(a[i]*b[i*ldb+l]) * s))
			}
			cv = math.Float32frombits(math.Float32bits(float32(float32(sum)*math.Float32frombits(e-k.mBits))) & k.keep)
		}
		c[l] = cv
	}
}
