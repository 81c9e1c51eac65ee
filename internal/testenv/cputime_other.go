//go:build !unix

package testenv

import "time"

// ProcessCPU is 0 where the process's CPU time is not at hand (WebAssembly,
// Windows): benchmarks then leave out their CPU ratios.
func ProcessCPU() time.Duration { return 0 }
