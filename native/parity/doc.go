// Package parity checks a native.Backend against a reference, so that a GPU
// proves it computes the CPU's arithmetic. Run runs every operation on two
// backends with the same seeded inputs and reports where they differ:
// codes, scales and stochastic roundings must be bit-identical, the
// Hadamard transform too (both use the same butterfly order), and matrix
// products must agree within native.GEMMTolFP8 and native.GEMMTolBF16.
// Dump writes what a backend computes as .npy files and a manifest, for an
// oracle that is not fp8lab's code (scripts/gpu/torch_oracle.py: numpy and
// PyTorch). MakeInput draws the seeded inputs both use (NaN, ±Inf,
// subnormals, ties, outliers), which the GPU's tests and benchmarks share.
//
// This package has no cgo and imports no CUDA code: native/cuda's tests and
// fp8lab-gpu (parity, dump) hand it the GPU backend.
package parity
