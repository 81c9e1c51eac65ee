//go:build !amd64 || purego

package fp8

// haveVecMul is false where there is no vector multiply: the scaled table
// encoder multiplies in its lookup loop.
const haveVecMul = false

func mulBlocksVec(dst, src, scales []float32, bc int) { mulBlocksGo(dst, src, scales, bc) }
