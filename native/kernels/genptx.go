//go:build ignore

// genptx regenerates the PTX files of native/kernels from the .cu sources
// with nvcc (Debian 12: apt-get install nvidia-cuda-toolkit, CUDA 11.8).
// Run it with `go generate ./native/kernels`; set NVCC to pick a compiler.
package main

import (
	"fmt"
	"os"

	"github.com/fp8lab/fp8lab/native/kernels/ptxgen"
)

func main() {
	nvcc := os.Getenv("NVCC")
	if nvcc == "" {
		nvcc = "nvcc"
	}
	if err := ptxgen.Generate(nvcc, ".", "."); err != nil {
		fmt.Fprintln(os.Stderr, "genptx:", err)
		os.Exit(1)
	}
	for _, m := range ptxgen.Modules {
		fmt.Printf("genptx: wrote %s.ptx (%s, %s)\n", m.Name, m.Source, m.Arch)
	}
}
