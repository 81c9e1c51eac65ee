//go:build cuda

// Command gpu-gemm compares FP8 (E4M3FN, per-row/per-column scales) with
// BF16 matrix products on an NVIDIA GPU through the CUDA backend: time per
// call and error against a float32 product on the CPU.
//
// Build with the CUDA headers (go tool task cuda-headers) and run on a GPU:
//
//	go run -tags cuda ./examples/gpu-gemm [-short]
//
// Without a usable GPU the program stops at start-up with one line from the
// driver check and exit status 2.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	short := flag.Bool("short", false, "small sizes only")
	flag.Parse()
	if _, err := run(os.Stdout, *short); err != nil {
		fmt.Fprintln(os.Stderr, "gpu-gemm:", err)
		os.Exit(1)
	}
}
