// Package dither quantizes grayscale pictures to few levels and shows, by
// running it, that stochastic rounding is dithering for floats: E[round(x)]
// = x, so the mean of many stochastically rounded frames converges to the
// original while rounding to nearest stays where it is. The random bits
// come from package rng (Philox4x32-10 and the (seed, stream, index)
// mapping); package quality (dither/quality) measures the pictures (PSNR,
// SSIM), and package stochastic holds the same rounding's experiments on
// numbers.
//
// # Images and their quantization
//
// A Gray holds float32 luminance in [0, 1]. LoadGray reads PNG and JPEG,
// EncodePNG writes PNG, and Mystery draws a built-in test picture whose
// detail is mostly finer than one step of a 2-level quantization.
//
// Options choose the levels. With Levels = k they are 0, 1/(k-1), ..., 1.
// With Format = F they are F's grid seen through a scale s (default
// F.Max()): pixel v is quantized as decode(encode(v·s))/s, so black maps to
// zero, white to s, and the levels are {x/s : x ≥ 0 a value of F}, dense
// near black and sparse near white as floating point is.
//
// The methods (ParseMethod spells them nearest, stochastic, bayer2, bayer4,
// bayer8, floyd) all round v, placed on the level scale, as floor(t + u)
// with a different u: 1/2 for Nearest, the pixel's random word for
// Stochastic, a Bayer threshold for the ordered methods, while
// FloydSteinberg rounds to nearest and diffuses the error. Pixel (x, y) of
// frame f of the Stochastic method uses rng.Bits(Seed, f, y·width + x), so
// frames differ and the mean of N frames converges to the original: its
// PSNR rises by about 3 dB per doubling of N (quality.AveragePSNR) while
// every deterministic method stays where it is.
package dither
