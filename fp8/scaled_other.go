//go:build !amd64 || purego

package fp8

func mulBlocksVec(dst, src, scales []float32, bc int) { mulBlocksGo(dst, src, scales, bc) }
