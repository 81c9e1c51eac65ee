package scaling

import (
	"fmt"
	"math"
	"strings"

	"github.com/fp8lab/fp8lab/fp8"
)

// DefaultEps is the amax floor of current scaling, torchao's EPS: an amax
// below it is raised to it, so a zero amax gives the finite scale Max/1e-12.
const DefaultEps = 1e-12

// Pow2 selects whether a float32 scale is rounded to a power of two.
// Power-of-two scales make x·scale and its inverse exact (no rounding in
// the multiply), at the cost of up to one binade of range.
type Pow2 uint8

const (
	// Pow2None keeps the scale as computed (rounded to float32).
	Pow2None Pow2 = iota
	// Pow2Down rounds the scale down, 2^floor(log2 s), as torchao's
	// round_scales_to_power_of_2 does: amax·scale stays at or below Max.
	// It is the same as rounding the decode scale 1/s up, the "ceil" E8M0
	// rule of Transformer Engine and of DeepSeek-V3's UE8M0 scales.
	Pow2Down
	// Pow2Up rounds the scale up, 2^ceil(log2 s): more resolution for the
	// small values, but amax·scale may reach 2·Max and saturate.
	Pow2Up
)

var pow2Names = [...]string{"none", "down", "up"}

// String returns the rule's name: none, down or up.
func (p Pow2) String() string {
	if int(p) < len(pow2Names) {
		return pow2Names[p]
	}
	return fmt.Sprintf("Pow2(%d)", uint8(p))
}

// ParsePow2 parses none, down or up.
func ParsePow2(s string) (Pow2, error) {
	for i, n := range pow2Names {
		if s == n {
			return Pow2(i), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown power-of-two rule %q (none, down, up)", ErrParse, s)
}

// ScaleRule is the current-scaling rule for float32 scales:
//
//	scale = Max / max(amax, Eps) / 2^Margin
//
// computed in float64 (torchao's amax_to_scale), then optionally rounded to
// a power of two, clamped to [2^-126, MaxFloat32] and stored as float32.
// The zero value is torchao's default: Eps 1e-12, no margin, no rounding.
type ScaleRule struct {
	Pow2 Pow2 `json:"pow2"`
	// Margin divides the scale by 2^Margin, leaving 2^Margin of headroom
	// above the amax (Transformer Engine's margin). It may be negative.
	Margin int `json:"margin"`
	// Eps is the amax floor; 0 means DefaultEps.
	Eps float64 `json:"eps"`
}

// check validates the rule's fields.
func (r ScaleRule) check() error {
	if r.Pow2 > Pow2Up {
		return fmt.Errorf("%w: power-of-two rule %d", ErrOptions, r.Pow2)
	}
	if math.IsNaN(r.Eps) || math.IsInf(r.Eps, 0) || r.Eps < 0 {
		return fmt.Errorf("%w: eps %g must be finite and positive (0 for the default)", ErrOptions, r.Eps)
	}
	if r.Margin < -1000 || r.Margin > 1000 {
		return fmt.Errorf("%w: margin %d", ErrOptions, r.Margin)
	}
	return nil
}

func (r ScaleRule) eps() float64 {
	if r.Eps == 0 {
		return DefaultEps
	}
	return r.Eps
}

// Scale returns the multiplier for a block of amax amax in format f.
//
// Special amax values: 0 (and anything below Eps) is raised to Eps, so the
// scale stays finite and an all-zero block quantizes to zeros; NaN and ±Inf
// give ErrNonFinite and a negative amax gives ErrValue, so no NaN or
// infinite scale is ever produced.
func (r ScaleRule) Scale(amax float64, f *fp8.Format) (float32, error) {
	if err := checkElementFormat(f); err != nil {
		return 0, err
	}
	if err := r.check(); err != nil {
		return 0, err
	}
	if math.IsNaN(amax) || math.IsInf(amax, 0) {
		return 0, fmt.Errorf("%w: amax %g has no scale", ErrNonFinite, amax)
	}
	if amax < 0 {
		return 0, fmt.Errorf("%w: negative amax %g", ErrValue, amax)
	}
	return r.scale(amax, f.Max()), nil
}

// scale is Scale for a checked rule and a finite, non-negative amax.
func (r ScaleRule) scale(amax, fmtMax float64) float32 {
	s := math.Ldexp(fmtMax/max(amax, r.eps()), -r.Margin)
	return clampScale(roundPow2(s, r.Pow2), r.Pow2 != Pow2None)
}

// roundPow2 rounds a positive finite s to a power of two under p.
func roundPow2(s float64, p Pow2) float64 {
	if p == Pow2None || s == 0 || math.IsInf(s, 0) {
		return s
	}
	frac, exp := math.Frexp(s) // s = frac·2^exp, frac in [0.5, 1)
	if frac == 0.5 {
		return s // already a power of two
	}
	if p == Pow2Down {
		return math.Ldexp(1, exp-1)
	}
	return math.Ldexp(1, exp)
}

// Scale limits: a scale is a positive normal float32, so that x·scale and
// the division of dequantization are well defined.
const (
	minScale     = 0x1p-126
	maxPow2Scale = 0x1p127
)

// clampScale bounds s to [2^-126, MaxFloat32] (or [2^-126, 2^127] for power-
// of-two scales, which must stay powers of two) and rounds it to float32.
// Transformer Engine's rule "an infinite scale becomes the float32 max" is
// the upper clamp.
func clampScale(s float64, pow2 bool) float32 {
	hi := float64(math.MaxFloat32)
	if pow2 {
		hi = maxPow2Scale
	}
	return float32(min(max(s, minScale), hi))
}

// mxElements lists the OCP MX v1.0 element types with emax_elem, the
// exponent of their largest normal binade (Table 1 of the specification).
var mxElements = []struct {
	f    *fp8.Format
	emax int
}{
	{fp8.E4M3FN, 8}, {fp8.E5M2, 15}, {fp8.E3M2, 4}, {fp8.E2M3, 2}, {fp8.E2M1, 2},
}

// MXRoundings returns the E8M0 rules Options.MXRounding takes for MX
// scales (see fp8.MXScale): floor (the zero value, OCP MX), ceil (torchao's
// RCEIL) and nearest-even, the rules the CUDA kernels implement as well.
func MXRoundings() []fp8.ScaleRounding {
	return []fp8.ScaleRounding{fp8.ScaleFloor, fp8.ScaleCeil, fp8.ScaleNearestEven}
}

// MXEmax returns emax_elem of an MX element type (E4M3FN 8, E5M2 15,
// E3M2 4, E2M3 2, E2M1 2), or ErrFormat for a format that is not one of the
// OCP MX v1.0 element types (FNUZ, IEEE-like E4M3, E3M4, E8M0).
func MXEmax(f *fp8.Format) (int, error) {
	if f == nil {
		return 0, fmt.Errorf("%w: nil format", ErrFormat)
	}
	for _, e := range mxElements {
		if sameFormat(f, e.f) {
			return e.emax, nil
		}
	}
	names := make([]string, len(mxElements))
	for i, e := range mxElements {
		names[i] = e.f.Name()
	}
	return 0, fmt.Errorf("%w: %s is not an OCP MX element type (%s)", ErrFormat, f.Name(), strings.Join(names, ", "))
}

// sameFormat reports whether a and b have the same encoding, whatever their names.
func sameFormat(a, b *fp8.Format) bool {
	sa, sb := a.Spec(), b.Spec()
	sa.Name, sb.Name = "", ""
	return sa == sb
}

// nvfp4Dividend is E4M3FN's Max times E2M1's Max, 448·6.
const nvfp4Dividend = 448 * 6

// NVFP4TensorScale returns NVFP4's float32 tensor scales for a tensor of
// amax amax, following NVIDIA's recipe (Transformer Engine,
// compute_global_encode_scaling_factor_FP4):
//
//	encode = 448·6 / amax   (float32; clamped to MaxFloat32; 1 when amax is 0)
//	decode = 1 / encode      (≈ amax / 2688, the "global scale")
//
// which maps the largest block's scale amax/6 onto E4M3's Max, 448.
// NaN and ±Inf give ErrNonFinite, a negative amax ErrValue.
func NVFP4TensorScale(amax float32) (encode, decode float32, err error) {
	a := float64(amax)
	if math.IsNaN(a) || math.IsInf(a, 0) {
		return 0, 0, fmt.Errorf("%w: amax %g has no NVFP4 tensor scale", ErrNonFinite, a)
	}
	if amax < 0 {
		return 0, 0, fmt.Errorf("%w: negative amax %g", ErrValue, a)
	}
	encode = 1
	if amax != 0 {
		encode = min(float32(nvfp4Dividend)/amax, math.MaxFloat32)
	}
	return encode, float32(1 / float64(encode)), nil
}

// NVFP4BlockScale returns the E4M3FN code of a 16-element block's decode
// scale and the multiplier its elements get before E2M1 encoding:
//
//	code       = E4M3FN(blockAmax / 6 · encode)   (round to nearest even, saturating)
//	multiplier = encode / E4M3FN⁻¹(code)           (float32)
//
// where encode is NVFP4TensorScale's. A block whose scale rounds to zero
// (blockAmax below about 2^-10/448 of the tensor's amax, or an all-zero
// block) gets multiplier 0: all its elements become zero. (NVIDIA's kernels
// clamp 1/0 to MaxFloat32 instead, which writes ±6 codes that dequantize to
// zero all the same.) A non-finite or negative blockAmax gives an error.
func NVFP4BlockScale(blockAmax, encode float32) (code uint8, multiplier float32, err error) {
	if math.IsNaN(float64(blockAmax)) || math.IsInf(float64(blockAmax), 0) {
		return 0, 0, fmt.Errorf("%w: block amax %g", ErrNonFinite, blockAmax)
	}
	if blockAmax < 0 || !(encode > 0) || math.IsInf(float64(encode), 0) {
		return 0, 0, fmt.Errorf("%w: block amax %g, tensor encode scale %g", ErrValue, blockAmax, encode)
	}
	v := blockAmax / 6
	v *= encode
	code, err = fp8.E4M3FN.Encode(float64(v), fp8.Mode{})
	if err != nil {
		return 0, 0, err
	}
	d := fp8.E4M3FN.Decode32(code)
	if d == 0 {
		return code, 0, nil
	}
	return code, encode / d, nil
}

// checkElementFormat rejects formats that cannot hold signed elements.
func checkElementFormat(f *fp8.Format) error {
	if f == nil {
		return fmt.Errorf("%w: nil format", ErrFormat)
	}
	if !f.Signed() {
		return fmt.Errorf("%w: %s is unsigned (a scale format), not an element type", ErrFormat, f.Name())
	}
	return nil
}
