package scaling

import (
	"fmt"
	"math"
)

// Accumulator describes how a matrix product adds up its products.
//
// Hopper's FP8 tensor cores ("fast accumulation") keep only about 14 bits
// of the running sum (DeepSeek-V3 measured "around 14 bits" on H800), so
// long dot products lose the small contributions. DeepSeek-V3's fix is to
// promote: every N_C = 128 products the partial sum is added, scaled, into a
// float32 accumulator on the CUDA cores and the tensor-core sum restarts.
//
// This is an emulation for teaching, not a bit-exact model of any GPU:
// after each addition the running sum is rounded to MantissaBits bits after
// the leading one (the sum is formed exactly in float64 first).
type Accumulator struct {
	// MantissaBits is the number of fraction bits the running sum keeps,
	// 1..23; 0 means a plain float32 accumulator (23 bits, nearest even).
	MantissaBits int `json:"mantissa_bits"`
	// RoundNearest rounds the running sum to nearest even instead of
	// truncating it toward zero (truncation is the default, closer to how
	// fast accumulation drops bits).
	RoundNearest bool `json:"round_nearest"`
	// PromoteEvery is N_C: after that many products the partial sum is added
	// into a float32 accumulator and restarted. 0 never promotes (except at
	// scale-block boundaries in ScaledMatMul, where the scale changes).
	PromoteEvery int `json:"promote_every"`
}

// Accumulator presets.
var (
	// Float32Accumulator adds in float32 with round to nearest even.
	Float32Accumulator = Accumulator{}
	// FastAccumulator emulates Hopper's fast accumulation: 13 fraction bits
	// (14 significant bits), truncated, never promoted. Calibrated on an
	// H100 (cuBLASLt 13.1, fp8lab-gpu accum; BENCHMARKS.md): for a sum
	// that only grows, its relative error is within 8% of the hardware's
	// at K = 512..4096 (7.0e-2 at 4096). It overstates the error where
	// cuBLASLt splits K (K >= 8192) and for sums of mixed signs, where
	// truncating the running sum shrinks it and the hardware does not.
	FastAccumulator = Accumulator{MantissaBits: 13}
	// PromotedAccumulator is fast accumulation promoted to float32 every 128
	// products, as DeepSeek-V3 does. cuBLASLt's FP8 products with fast
	// accumulation off behave alike on an H100: a relative error constant
	// in K (6.2e-4 for a growing sum), which this gives within 1.4×.
	PromotedAccumulator = Accumulator{MantissaBits: 13, PromoteEvery: 128}
)

// Check validates the fields.
func (a Accumulator) Check() error {
	if a.MantissaBits < 0 || a.MantissaBits > 23 {
		return fmt.Errorf("%w: accumulator mantissa bits %d not in 0..23", ErrOptions, a.MantissaBits)
	}
	if a.PromoteEvery < 0 {
		return fmt.Errorf("%w: promotion interval %d", ErrOptions, a.PromoteEvery)
	}
	return nil
}

// plainFloat32 reports whether the running sum is an ordinary float32 sum.
func (a Accumulator) plainFloat32() bool {
	return a.MantissaBits == 0 || a.MantissaBits == 23 && a.RoundNearest
}

// add returns the running sum s plus p, rounded as the accumulator rounds.
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

// Dot returns Σ x[i]·y[i] with each product formed in float32 and added in
// the accumulator, promoted into a float32 total every PromoteEvery
// products. It shows the effect of fast accumulation on a single dot
// product.
func (a Accumulator) Dot(x, y []float32) (float32, error) {
	if err := a.Check(); err != nil {
		return 0, err
	}
	if len(x) != len(y) {
		return 0, fmt.Errorf("%w: dot product of lengths %d and %d", ErrShape, len(x), len(y))
	}
	var total, partial float32
	n := 0
	for i := range x {
		p := float32(x[i] * y[i])
		partial = a.add(partial, p)
		if n++; n == a.PromoteEvery {
			total += partial
			partial, n = 0, 0
		}
	}
	return total + partial, nil
}
