// Package scaling shows why FP8 needs scales and compares every way of
// choosing them on the same tensor.
//
// FP8 covers a narrow range (E4M3FN: 2^-9 to 448) while tensors span many
// binades, so each block of elements is multiplied by a scale before it is
// encoded. This package quantizes a small row-major float32 Tensor with any
// Granularity (which elements share a scale) and any element format of the
// fp8 package, measures the damage, and emulates the matrix products and
// accumulators the recipes were designed for.
//
// # Convention
//
// As in torchao, a scale multiplies before encoding and dequantization
// divides: q = enc(x·s), x̂ = dec(q)/s. The product x·s is formed in float32
// (as GPU kernels do), then rounded once by fp8's bulk encoder; the default
// rounding is nearest-even and saturating. MX and NVFP4 store decode scales
// instead (x̂ = dec(q)·X); Quantized keeps both views (Scales and
// BlockDecodeScale).
//
// # Scale rules and their sources
//
// Current scaling (torchao float8 amax_to_scale; Transformer Engine's
// current scaling), used for the granularities with float32 scales: tensor,
// row, col, tile1x128 and tile128x1 (DeepSeek-V3's tiles) and block128:
//
//	s = fmt.Max / max(amax, 1e-12) / 2^margin     (float64, stored as float32)
//
// optionally rounded to a power of two, down (torchao's
// round_scales_to_power_of_2; amax·s ≤ Max) or up, and clamped to
// [2^-126, MaxFloat32]. See ScaleRule.
//
// Delayed scaling (Transformer Engine DelayedScaling, _default_sf_compute):
// the scale of a step comes from an amax history of earlier steps (length
// 1024 by default, reduced with "max" or "most_recent"):
// s = (Max/amax)/2^margin; a zero or non-finite amax keeps the previous
// scale and an infinite scale becomes MaxFloat32. See DelayedScaler and
// SimulateDelayed.
//
// MX (mx; OCP Microscaling Formats v1.0, section 6.3): 32 consecutive elements
// of a row share X = 2^k with k = floor(log2(amax)) - emax_elem, where
// emax_elem is 8 for E4M3FN, 15 for E5M2, 4 for E3M2 and 2 for E2M3 and
// E2M1; k is clamped to [-127, 127] and stored as an E8M0 code; elements are
// enc(x/X), saturating. Options.MXRounding picks the rule of fp8.MXScale:
// ceil is torchao's RCEIL (cuBLAS, Transformer Engine's MXFP8), which
// never saturates.
//
// NVFP4 (nvfp4; NVIDIA, Transformer Engine's NVFP4 recipe): 16 consecutive
// elements share an E4M3FN decode scale, and one float32 scale covers the
// tensor:
//
//	S_enc = 448·6 / amax_tensor            (tensor decode scale S_dec = 1/S_enc ≈ amax/2688)
//	d_b   = E4M3FN(amax_block/6 · S_enc)   (the stored block scale)
//	q     = E2M1(x · S_enc/d_b),  x̂ = q · d_b · S_dec
//
// DeepSeek-V3 (arXiv 2412.19437) is the source of the 1×128 activation
// tiles (128×1 in the backward pass, §3.3.3 and §3.5.2, where the paper
// rounds the scales to powers of two: a ScaleRule with Pow2), the 128×128
// weight blocks, and of promoting Hopper's ~14-bit fast accumulation to
// float32 every 128 products (Accumulator, ScaledMatMul).
//
// # Special amax values
//
// No NaN or infinite scale is ever produced silently:
//
//   - amax = 0 (an all-zero block): current scaling uses max(amax, 1e-12),
//     a finite scale under which zeros stay zeros; MX uses 2^-127 (code
//     0x00), as the specification says; NVFP4 gives the block scale code 0
//     and multiplier 0, and a tensor amax of 0 gives tensor scale 1, as
//     Transformer Engine does. Delayed scaling keeps its previous scale.
//   - amax NaN or ±Inf (the block holds a NaN or an infinity): Quantize and
//     the scale functions return ErrNonFinite (fp8.MXScale alone answers
//     the NaN code, as the specification says). Delayed scaling keeps its
//     previous scale (a NaN stays in the "max" history and freezes the
//     scale until it leaves), and QuantizeWithScales encodes the values by
//     the format's own rules.
//   - a tiny amax: the scale is clamped to MaxFloat32 rather than becoming
//     infinite.
//
// # Why whole-tensor SQNR hides the damage
//
// SQNR = 10·log10(Σx²/Σ(x-x̂)²) is dominated by the largest values. Put a
// few rows 10^5 times larger than the rest into a matrix and scale it per
// tensor: the small rows are mostly flushed to zero, yet they weigh 10^-10
// of Σx², so the whole-tensor SQNR hardly changes. Metrics therefore also
// reports the SQNR of every row and of every small block (mean and worst),
// and the underflow count: those are the figures that show what coarse
// scaling does to small values.
//
// # Hadamard rotations
//
// FWHT is the normalized fast Walsh–Hadamard transform; Rotation applies it
// block-diagonally (blocks of 16, 128 or any power of two, optionally with
// random signs) to the K dimension of a product, (A·R)(Rᵀ·B) = A·B, which
// spreads outliers before quantization (OutlierExperiment).
//
// Besides the standard library the package imports fp8, internal/parallel
// and golang.org/x/sys/cpu (the vector paths), builds for GOOS=js,
// and returns errors rather than panicking on bad input.
package scaling
