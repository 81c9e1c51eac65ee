//go:build amd64 && !purego

package fp8

// stochasticAVX2 runs the normal range of a stochastic kernel eight values
// at a time (stochastic_amd64.s) over n values (a multiple of 8) and
// returns how many it wrote: it stops before the first group of eight
// holding a subnormal result, a NaN or an infinity.
//
//go:noescape
func stochasticAVX2(d *uint8, s, rw *uint32, n int, p *stochasticParams) int
