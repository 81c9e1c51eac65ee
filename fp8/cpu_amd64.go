//go:build amd64 && !purego

package fp8

// haveAVX2 selects the AVX2 assembly: the scaled table encoder's multiply
// (scaled_amd64.s) and the stochastic kernels' normal range
// (stochastic_amd64.s).
var haveAVX2 = hasAVX2()

// hasAVX2 reports whether the CPU has AVX2 and the OS saves the YMM
// registers: CPUID leaf 1 ECX bits 27 (OSXSAVE) and 28 (AVX), XCR0 bits 1
// and 2 (SSE and AVX state), CPUID leaf 7 EBX bit 5 (AVX2), as in Intel's
// SDM. fp8 depends on the standard library alone (docs/architecture.md),
// so it asks the CPU itself rather than importing golang.org/x/sys/cpu as
// scaling does.
func hasAVX2() bool {
	if maxLeaf, _, _, _ := cpuid(0, 0); maxLeaf < 7 {
		return false
	}
	if _, _, ecx, _ := cpuid(1, 0); ecx&(1<<27) == 0 || ecx&(1<<28) == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 {
		return false
	}
	_, ebx, _, _ := cpuid(7, 0)
	return ebx&(1<<5) != 0
}

// cpuid executes CPUID with EAX = leaf and ECX = sub.
func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// xgetbv returns XCR0 (XGETBV with ECX = 0).
func xgetbv() (eax, edx uint32)
