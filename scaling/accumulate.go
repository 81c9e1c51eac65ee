package scaling

import (
	"fmt"
	"math"
)

// Accumulator describes how a matrix product adds up its products.
//
// Hopper's FP8 tensor cores ("fast accumulation") keep only about 14 bits
// of the running sum (DeepSeek-V3, §3.3.2, measured "around 14 bits" on
// H800), so long dot products lose the small contributions. DeepSeek-V3's
// fix is to promote: every N_C = 128 products the partial sum is added,
// scaled, into a float32 accumulator on the CUDA cores and the tensor-core
// sum restarts.
//
// Two models of the low-precision running sum are offered. The classic one
// (AlignGroup 0) rounds the running sum to MantissaBits fraction bits after
// every addition (the sum is formed exactly in float64 first). The aligned
// one (AlignGroup > 0) adds the way a tensor core's multi-term fixed-point
// adder does (Fasi, Higham, Mikaitis and Pranesh, "Numerical behavior of
// NVIDIA tensor cores", PeerJ CS 2021; Khattak and Mikaitis, "Accurate
// models of NVIDIA tensor cores", whose H100 FP8 model adds 32 products at
// a time with 13 fraction bits and truncation): each group of AlignGroup
// products joins the running sum in one step, in which the sum and the
// products are aligned to the largest exponent among them, each is
// truncated toward zero to MantissaBits fraction bits of that exponent, the
// aligned terms are added exactly, and the result is truncated to
// MantissaBits fraction bits. Truncating the addends, not the sum, matters
// for sums of mixed signs: an addend of the opposite sign is truncated
// toward zero, which moves the sum away from zero, so the errors of a sum
// whose terms change sign mostly cancel.
//
// A run is a stretch of products summed from zero in the low-precision
// accumulator: runs end every PromoteEvery products, where a scaled
// product's scale changes along K (ScaledMatMul) and at split-K slice
// boundaries; each run's sum is added into a float32 total.
//
// NaNs and infinities propagate as in float arithmetic. This is an
// emulation for teaching, calibrated on an H100 (FastAccumulator,
// PromotedAccumulator), not a bit-exact model of every GPU.
type Accumulator struct {
	// MantissaBits is the number of fraction bits the running sum keeps,
	// 1..23; 0 means a plain float32 accumulator (23 bits, nearest even).
	MantissaBits int `json:"mantissa_bits"`
	// RoundNearest rounds the running sum to nearest even instead of
	// truncating it toward zero (truncation is the default, closer to how
	// fast accumulation drops bits). Classic model only.
	RoundNearest bool `json:"round_nearest"`
	// PromoteEvery is N_C: after that many products the partial sum is added
	// into a float32 accumulator and restarted. 0 never promotes (except at
	// scale-block boundaries in ScaledMatMul, where the scale changes).
	PromoteEvery int `json:"promote_every"`
	// AlignGroup is the number of products one aligned addition takes
	// (1..MaxAlignGroup); 0 selects the classic model. It needs
	// MantissaBits > 0 and truncation.
	AlignGroup int `json:"align_group,omitempty"`
	// SplitFrom and SplitLen emulate split-K, a GEMM library cutting a long
	// contraction into slices that separate thread blocks accumulate: a
	// product with K ≥ SplitFrom is cut into ⌈K/SplitLen⌉ slices of whole
	// SplitTile-product tiles, as even as the tiles allow, and each slice
	// starts a new run. SplitFrom 0 never splits; otherwise SplitLen is at
	// least SplitTile.
	SplitFrom int `json:"split_from,omitempty"`
	SplitLen  int `json:"split_len,omitempty"`
}

// MaxAlignGroup is the largest AlignGroup: 128 products, one promotion
// interval of DeepSeek-V3 and one K tile of a Hopper GEMM.
const MaxAlignGroup = 128

// SplitTile is the number of products in the tiles split-K slices are
// made of: the K extent of a Hopper GEMM's tile.
const SplitTile = 128

// Accumulator presets. FastAccumulator and PromotedAccumulator are fitted to
// an H100's cuBLASLt 13.1 FP8 products (fp8lab-gpu accum, 2026-11-22,
// docs/gpu/h100-2026-11-22/accum.json; native/accum's
// TestAccumulatorFitsShippedRuns rebuilds the operands of every shipped
// run and checks both within 2× of the hardware at every K, for sums that
// only grow and for sums of mixed signs).
var (
	// Float32Accumulator adds in float32 with round to nearest even.
	Float32Accumulator = Accumulator{}
	// FastAccumulator emulates Hopper's fast accumulation as cuBLASLt runs
	// it: groups of 32 products aligned to 13 fraction bits and truncated,
	// never promoted, and, from K = 8192 on, K split into slices of at most
	// 3072 products (the H100's error stopped growing there: cuBLASLt cut
	// the 128×128 product's K = 8192 into 3 slices and K = 16384 into 6).
	// The slicing is the library's choice for that shape; other shapes may
	// be cut otherwise.
	FastAccumulator = Accumulator{MantissaBits: 13, AlignGroup: 32, SplitFrom: 8192, SplitLen: 3072}
	// PromotedAccumulator is the same tensor-core sum promoted to float32
	// every 128 products, as DeepSeek-V3 does. It is also what cuBLASLt's
	// FP8 products with fast accumulation off measured on the H100: a
	// relative error constant in K, which this matches.
	PromotedAccumulator = Accumulator{MantissaBits: 13, AlignGroup: 32, PromoteEvery: 128}
)

// Check validates the fields.
func (a Accumulator) Check() error {
	switch {
	case a.MantissaBits < 0 || a.MantissaBits > 23:
		return fmt.Errorf("%w: accumulator mantissa bits %d not in 0..23", ErrOptions, a.MantissaBits)
	case a.PromoteEvery < 0:
		return fmt.Errorf("%w: promotion interval %d", ErrOptions, a.PromoteEvery)
	case a.AlignGroup < 0 || a.AlignGroup > MaxAlignGroup:
		return fmt.Errorf("%w: aligned group of %d products not in 0..%d", ErrOptions, a.AlignGroup, MaxAlignGroup)
	case a.AlignGroup > 0 && (a.MantissaBits == 0 || a.RoundNearest):
		return fmt.Errorf("%w: aligned accumulation needs mantissa bits 1..23 and truncation", ErrOptions)
	case a.SplitFrom < 0 || a.SplitLen < 0 || a.SplitFrom > 0 && a.SplitLen < SplitTile:
		return fmt.Errorf("%w: split-K from %d in slices of %d (slices of at least %d products)", ErrOptions, a.SplitFrom, a.SplitLen, SplitTile)
	}
	return nil
}

// String describes the accumulator: "float32", "13-bit truncating" or
// "13-bit nearest" (the classic model) or "13-bit aligned in groups of
// 32", with the promotion interval and split-K if any.
func (a Accumulator) String() string {
	if a.MantissaBits == 0 {
		return "float32"
	}
	s := fmt.Sprintf("%d-bit truncating", a.MantissaBits)
	switch {
	case a.AlignGroup > 0:
		s = fmt.Sprintf("%d-bit aligned in groups of %d", a.MantissaBits, a.AlignGroup)
	case a.RoundNearest:
		s = fmt.Sprintf("%d-bit nearest", a.MantissaBits)
	}
	if a.PromoteEvery > 0 {
		s += fmt.Sprintf(", promoted every %d", a.PromoteEvery)
	}
	if a.SplitFrom > 0 {
		s += fmt.Sprintf(", K split from %d into slices of at most %d", a.SplitFrom, a.SplitLen)
	}
	return s
}

// plainFloat32 reports whether the running sum is an ordinary float32 sum.
func (a Accumulator) plainFloat32() bool {
	return a.MantissaBits == 0 || a.MantissaBits == 23 && a.RoundNearest
}

// add returns the running sum s plus p, rounded as the classic model
// rounds.
func (a Accumulator) add(s, p float32) float32 {
	if a.plainFloat32() {
		return s + p
	}
	return roundMantissa(float64(s)+float64(p), a.MantissaBits, a.RoundNearest)
}

// roundMantissa rounds v to m fraction bits (truncating, or to nearest
// even) and returns it as a float32, which holds it exactly unless it leaves
// float32's range.
func roundMantissa(v float64, m int, nearest bool) float32 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return float32(v)
	}
	b := math.Float64bits(v)
	drop := uint(52 - m)
	mask := uint64(1)<<drop - 1
	if nearest {
		half := uint64(1) << (drop - 1)
		rem := b & mask
		b &^= mask
		if rem > half || rem == half && b>>drop&1 == 1 {
			b += 1 << drop // a carry into the exponent is the right result
		}
	} else {
		b &^= mask
	}
	return float32(math.Float64frombits(b))
}

// run returns the low-precision sum of the products x[i]·y[i] (each formed
// in float32), started from zero: the reference for one run.
func (a Accumulator) run(x, y []float32) float32 {
	y = y[:len(x)]
	if a.AlignGroup == 0 {
		var s float32
		for i, xv := range x {
			s = a.add(s, float32(xv*y[i]))
		}
		return s
	}
	var c float64
	for p := 0; p < len(x); p += a.AlignGroup {
		q := min(p+a.AlignGroup, len(x))
		c = alignedAdd(c, x[p:q], y[p:q], a.MantissaBits)
	}
	return float32(c)
}

// alignedAdd is one step of the aligned model: the running sum c (a value
// with at most m+1 significant bits) plus the products x[i]·y[i], aligned
// to the largest exponent among them, truncated there to m fraction bits,
// added exactly and truncated to m fraction bits.
func alignedAdd(c float64, x, y []float32, m int) float64 {
	top := math.Abs(c)
	for i, xv := range x {
		top = max(top, math.Abs(float64(xv*y[i])))
	}
	if top == 0 {
		return c
	}
	if math.IsNaN(top) || math.IsInf(top, 0) {
		for i, xv := range x {
			c += float64(xv * y[i])
		}
		return c
	}
	_, e := math.Frexp(top) // top is in [2^(e-1), 2^e)
	q := e - 1 - m          // the exponent of the last bit kept
	s := truncToExp(c, q)
	for i, xv := range x {
		s += truncToExp(float64(xv*y[i]), q)
	}
	return float64(roundMantissa(s, m, false))
}

// truncToExp truncates v toward zero to a multiple of 2^q. Every value it
// is given and every sum of them here is exact in float64: at most 128 + 1
// terms of at most 24 bits above 2^q.
func truncToExp(v float64, q int) float64 {
	return math.Ldexp(math.Trunc(math.Ldexp(v, -q)), q)
}

// slices returns where the split-K slices of a contraction of length k
// begin, after 0: nil when the accumulator does not split k.
func (a Accumulator) slices(k int) []int {
	if a.SplitFrom == 0 || k < a.SplitFrom {
		return nil
	}
	tiles := (k + SplitTile - 1) / SplitTile
	n := min((k+a.SplitLen-1)/a.SplitLen, tiles)
	cuts := make([]int, 0, n-1)
	for s := 1; s < n; s++ {
		cuts = append(cuts, s*tiles/n*SplitTile)
	}
	return cuts
}

// Dot returns Σ x[i]·y[i] with each product formed in float32 and added in
// the accumulator: runs of PromoteEvery products (split-K slices cut them
// too) summed from zero, each added into a float32 total. It shows the
// effect of fast accumulation on a single dot product.
func (a Accumulator) Dot(x, y []float32) (float32, error) {
	if err := a.Check(); err != nil {
		return 0, err
	}
	if len(x) != len(y) {
		return 0, fmt.Errorf("%w: dot product of lengths %d and %d", ErrShape, len(x), len(y))
	}
	var total float32
	for _, seg := range segments(len(x), a.slices(len(x))) {
		for p := seg[0]; p < seg[1]; {
			q := seg[1]
			if a.PromoteEvery > 0 {
				q = min(q, p+a.PromoteEvery)
			}
			total += a.run(x[p:q], y[p:q])
			p = q
		}
	}
	return total, nil
}

// segments turns the sorted cut points inside (0, k) into [start, end)
// pairs covering 0..k.
func segments(k int, cuts []int) [][2]int {
	out := make([][2]int, 0, len(cuts)+1)
	lo := 0
	for _, c := range cuts {
		if c > lo && c < k {
			out = append(out, [2]int{lo, c})
			lo = c
		}
	}
	return append(out, [2]int{lo, k})
}
