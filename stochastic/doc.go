// Package stochastic shows, by running it, that stochastic rounding is
// unbiased, E[round(x)] = x, and what spoils it: too few random bits, and
// one random stream shared by two tensors. It holds the teaching
// experiments; the random bits and the reproducible bulk stochastic
// encoders live in package rng (Philox4x32-10 and the (seed, stream,
// index) mapping), which this package uses throughout, and package dither
// shows the same rounding on pictures.
//
// # Rounder
//
// A Rounder rounds real numbers onto one format, any fp8 minifloat or BF16
// or FP16, to nearest or stochastically, as the codecs do, and knows the
// exact expectation of its stochastic rounding: with r random bits the
// probability of rounding away from zero is floor(f·2^r)/2^r (ProbAway),
// where f is the position of x between its two neighbours (Neighbors).
//
// # Experiments
//
// MeasureBias rounds one value many times for a range of random-bit counts
// and returns the measured means beside their exact expectation.
// TinyUpdates adds a small update to a weight over and over in BF16, E5M2 or
// E4M3FN: round to nearest stalls, stochastic rounding tracks the exact sum.
// ErrorCorrelation measures how the rounding errors of two tensors move
// together.
//
// # Why a stream per tensor
//
// rng's words depend only on (seed, stream, index), so two tensors rounded
// under the same seed and stream receive the same word at the same index and
// their rounding errors are correlated (perfectly for equal tensors, about
// 1/2 for unrelated ones). ErrorCorrelation measures the effect; a stream id
// per tensor removes it.
package stochastic
