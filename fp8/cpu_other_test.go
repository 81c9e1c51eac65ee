//go:build !amd64 || purego

package fp8

// Without the assembly, haveAVX2 is false whatever the CPU.
const sysCPUHasAVX2 = false
