package main

import "github.com/fp8lab/fp8lab/rng"

// stochasticSource returns the random word for the i-th value: the same
// Philox4x32-10 mapping (seed, stream 0, index i) that the library, the
// playground and the GPU kernels use, so a CLI result can be reproduced there.
func stochasticSource(seed uint64) func(i uint64) uint32 {
	return func(i uint64) uint32 { return rng.Bits(seed, 0, i) }
}
