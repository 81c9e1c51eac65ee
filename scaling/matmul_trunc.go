package scaling

import (
	"math"

	"github.com/fp8lab/fp8lab/fp8"
)

// The fast path of ScaledMatMul for truncating accumulators (fast
// accumulation, DeepSeek-V3's promoted accumulator): the same sums, bit for
// bit, as the per-product Accumulator.add, about four times faster.
//
// Two facts make it exact. The running sum of decoded FP8 codes keeps at
// most 24 significant bits and stays inside float32's normal range
// (truncOperandsFit checks the operands' extremes), so holding it in a
// float64 instead of a float32 changes no value; and truncating a float64 to
// m fraction bits is clearing its low 52-m bits, one AND. Four columns are
// summed at once so that four independent dependency chains keep the core
// busy.

// truncOperandsFit reports whether every running sum of k products of a's
// and b's decoded codes is a normal float32 or zero: the largest possible
// sum is below MaxFloat32 and the smallest non-zero product is at least the
// smallest normal float32.
func truncOperandsFit(a, b *fp8.Format, k int) bool {
	maxA, maxB := a.Max(), b.Max()
	minA, minB := math.Abs(a.Decode(1)), math.Abs(b.Decode(1))
	return maxA*maxB*float64(k) < math.MaxFloat32 && minA*minB >= 0x1p-126
}

// truncMask returns the mask that truncates a float64 toward zero to m
// fraction bits (1 ≤ m ≤ 23).
func truncMask(m int) uint64 { return ^uint64(0) << uint(52-m) }

// truncDot returns Σ x[p]·y[p] with each float32 product added into a
// running sum truncated to the mask's fraction bits after every addition.
func truncDot(x, y []float32, mask uint64) float64 {
	y = y[:len(x)]
	var s float64
	for p, xv := range x {
		s = math.Float64frombits(math.Float64bits(s+float64(float32(xv*y[p]))) & mask)
	}
	return s
}

// truncDot4 is truncDot for four columns y0..y3 at once.
func truncDot4(x, y0, y1, y2, y3 []float32, mask uint64) (s0, s1, s2, s3 float64) {
	n := len(x)
	y0, y1, y2, y3 = y0[:n], y1[:n], y2[:n], y3[:n]
	for p, xv := range x {
		s0 = math.Float64frombits(math.Float64bits(s0+float64(float32(xv*y0[p]))) & mask)
		s1 = math.Float64frombits(math.Float64bits(s1+float64(float32(xv*y1[p]))) & mask)
		s2 = math.Float64frombits(math.Float64bits(s2+float64(float32(xv*y2[p]))) & mask)
		s3 = math.Float64frombits(math.Float64bits(s3+float64(float32(xv*y3[p]))) & mask)
	}
	return
}

// plainDot4 is truncDot4 for a plain float32 running sum.
func plainDot4(x, y0, y1, y2, y3 []float32) (s0, s1, s2, s3 float32) {
	n := len(x)
	y0, y1, y2, y3 = y0[:n], y1[:n], y2[:n], y3[:n]
	for p, xv := range x {
		s0 += float32(xv * y0[p])
		s1 += float32(xv * y1[p])
		s2 += float32(xv * y2[p])
		s3 += float32(xv * y3[p])
	}
	return
}

// plainDot is truncDot for a plain float32 running sum.
func plainDot(x, y []float32) float32 {
	y = y[:len(x)]
	var s float32
	for p, xv := range x {
		s += float32(xv * y[p])
	}
	return s
}

// dot4 and dot are the running sums of one promotion run: plain float32
// when mask is 0, else truncated by mask.
func dot4(x, y0, y1, y2, y3 []float32, mask uint64) (s0, s1, s2, s3 float32) {
	if mask == 0 {
		return plainDot4(x, y0, y1, y2, y3)
	}
	t0, t1, t2, t3 := truncDot4(x, y0, y1, y2, y3, mask)
	return float32(t0), float32(t1), float32(t2), float32(t3)
}

func dot(x, y []float32, mask uint64) float32 {
	if mask == 0 {
		return plainDot(x, y)
	}
	return float32(truncDot(x, y, mask))
}

// kernelRow computes one output row: out[j] = Σ over segments and promotion
// runs of float32(partial)·factor(s, j), with the running sums of dot (mask
// 0 for a plain float32 accumulator), for the row arow of decoded A codes
// and the rows of bt (B transposed, decoded). factor(s, j) is the decode
// factor of segment s and column j. The additions into out[j] happen in the
// same order as in ScaledMatMul's general loop.
func kernelRow(out, arow, bt []float32, k int, cuts []int, promote int, mask uint64, factor func(s, j int) float32) {
	n := len(out)
	clear(out)
	for s := 0; s+1 < len(cuts); s++ {
		k0, k1 := cuts[s], cuts[s+1]
		run := k1 - k0
		if promote > 0 {
			run = min(run, promote)
		}
		j := 0
		for ; j+4 <= n; j += 4 {
			f0, f1, f2, f3 := factor(s, j), factor(s, j+1), factor(s, j+2), factor(s, j+3)
			for p := k0; p < k1; p += run {
				q := min(p+run, k1)
				s0, s1, s2, s3 := dot4(arow[p:q], bt[j*k+p:], bt[(j+1)*k+p:], bt[(j+2)*k+p:], bt[(j+3)*k+p:], mask)
				out[j] += float32(s0 * f0)
				out[j+1] += float32(s1 * f1)
				out[j+2] += float32(s2 * f2)
				out[j+3] += float32(s3 * f3)
			}
		}
		for ; j < n; j++ {
			f := factor(s, j)
			for p := k0; p < k1; p += run {
				q := min(p+run, k1)
				out[j] += float32(dot(arow[p:q], bt[j*k+p:], mask) * f)
			}
		}
	}
}
