//go:build !amd64 || purego

package scaling

// useAVX2 is false where there is no assembly amax loop: absMaxBits and
// absMaxBlocks run their Go loops.
const useAVX2 = false

func absMaxBitsVec(s []float32) uint32 { return absMaxBitsGo(s) }

func absMaxBlocksVec(g []uint32, row []float32, bc int) { absMaxBlocksGo(g, row, bc) }
