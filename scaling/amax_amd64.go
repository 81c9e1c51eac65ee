//go:build amd64 && !purego

package scaling

import "golang.org/x/sys/cpu"

// useAVX2 selects the assembly amax loops (amax_amd64.s).
var useAVX2 = cpu.X86.HasAVX2

// absMaxBitsVec returns absMaxBitsGo(s) for len(s) a multiple of 8.
//
//go:noescape
func absMaxBitsVec(s []float32) uint32

// absMaxBlocksVec folds into each g[b] the absMaxBitsGo of
// row[b*bc:(b+1)*bc]; bc is a positive multiple of 8 and len(row) is
// len(g)*bc.
//
//go:noescape
func absMaxBlocksVec(g []uint32, row []float32, bc int)
