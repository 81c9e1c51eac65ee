//go:build amd64 && !purego

package fp8

import "golang.org/x/sys/cpu"

var sysCPUHasAVX2 = cpu.X86.HasAVX2
