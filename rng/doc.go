// Package rng makes stochastic rounding reproducible everywhere: the
// Philox4x32-10 generator, the mapping of (seed, stream, index) to random
// words, and the bulk stochastic encoders that consume them. It depends only
// on fp8 and the standard library, builds for GOOS=js, and is the one Go
// implementation of Philox in fp8lab (native/kernels holds the CUDA twin).
//
// # Random bits: Philox4x32-10 and the (seed, stream, index) mapping
//
// All random bits come from Philox4x32-10 (Salmon, Moraes, Dror and Shaw,
// "Parallel random numbers: as easy as 1, 2, 3", SC'11), a counter-based
// generator: a pure function of a 128-bit counter and a 64-bit key, checked
// against the known-answer vectors of Random123. Element index of stream
// under seed (three uint64 values) gets the 32-bit word
//
//	key     k0 = uint32(seed)           k1 = uint32(seed >> 32)
//	counter c0 = uint32(index >> 2)     c1 = uint32(index >> 34)
//	        c2 = uint32(stream)         c3 = uint32(stream >> 32)
//	word    = Philox4x32_10(c0, c1, c2, c3, k0, k1)[index & 3]
//
// that is, the four outputs of one Philox call serve four consecutive
// elements. A CUDA kernel reproduces it bit for bit with
//
//	uint4 r = philox4x32_10(make_uint4((unsigned)(i >> 2), (unsigned)(i >> 34),
//	                                   (unsigned)stream, (unsigned)(stream >> 32)),
//	                        make_uint2((unsigned)seed, (unsigned)(seed >> 32)));
//	unsigned word = (i & 3) == 0 ? r.x : (i & 3) == 1 ? r.y : (i & 3) == 2 ? r.z : r.w;
//
// and, by the definition of curand_init's skip-ahead in cuRAND's source, it
// is the first value of curand() after curand_init(seed, stream, i, &state)
// on a curandStatePhilox4_32_10_t (subsequence = stream, offset = i); the
// tests check this against a transcription of that logic. Bits computes one word, Fill a run of
// them (one Philox call per four words, split across cores for long runs),
// and Philox4x32 is the raw block function.
//
// # Stochastic rounding of tensors
//
// EncodeStochastic (or Stream.Encode) rounds a float32 slice into any fp8
// Format with r random bits (1..32): element i adds the low r bits of its
// word just below the last mantissa bit the format keeps and truncates (in
// subnormals, below the subnormal ULP; results saturate). With r bits the
// probability of rounding away from zero is floor(f·2^r)/2^r, where f is
// the position of x between its two neighbours, so the rounding is unbiased
// exactly when r covers every dropped bit and otherwise pulls toward zero by
// less than 2^-r of a step (package stochastic's
// Rounder.ExpectedStochastic and MeasureBias show it). Stream.EncodeWide
// does the same for BF16 and FP16.
//
// Give every tensor its own stream. The words depend only on (seed,
// stream, index), so two tensors rounded under the same seed and stream
// receive the same word at the same index: where both are, say, a third of
// the way to the next value, both round up or both round down together.
// Their rounding errors are then correlated (perfectly for equal tensors,
// about 1/2 for unrelated ones), and errors that should average out when the
// tensors are combined add up instead; this has been seen in training code
// that seeded every layer alike. A stream id per tensor (layer number,
// parameter index, step) makes the words independent while keeping the
// run reproducible from one seed. stochastic.ErrorCorrelation measures the
// effect.
package rng
