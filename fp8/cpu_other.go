//go:build !amd64 || purego

package fp8

// haveAVX2 is false where there is no assembly: the scaled table encoder
// multiplies in its lookup loop and the stochastic kernels are scalar.
const haveAVX2 = false
