//go:build !amd64 || purego

package fp8

// stochasticAVX2 is never called without the assembly (haveAVX2 is
// false); it writes nothing.
func stochasticAVX2(d *uint8, s, rw *uint32, n int, p *stochasticParams) int { return 0 }
