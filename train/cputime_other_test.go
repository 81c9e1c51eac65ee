//go:build !unix

package train

import "time"

// processCPU is 0 where the process's CPU time is not at hand
// (WebAssembly, Windows): the benchmarks then leave out their CPU ratio.
func processCPU() time.Duration { return 0 }
