//go:build amd64 && !purego

#include "textflag.h"

// func mulBlocksVec(dst, src, scales []float32, bc int)
// dst[j] = src[j] * scales[j/bc] for len(scales) whole blocks; bc is a
// positive multiple of 8. VMULPS rounds each product as MULSS does (IEEE
// single precision, to nearest even, no flush of subnormals: Go leaves
// MXCSR at its default), so the products are those of the Go loop.
TEXT ·mulBlocksVec(SB), NOSPLIT, $0-80
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ scales_base+48(FP), R8
	MOVQ scales_len+56(FP), BX
	MOVQ bc+72(FP), DX
	SHRQ $3, DX // vectors per block

mblock:
	TESTQ        BX, BX
	JZ           mdone
	VBROADCASTSS (R8), Y0
	MOVQ         DX, CX

	// Four vectors per iteration while a block has them.
mvec4:
	CMPQ    CX, $4
	JB      mvec1
	VMULPS  (SI), Y0, Y1
	VMULPS  32(SI), Y0, Y2
	VMULPS  64(SI), Y0, Y3
	VMULPS  96(SI), Y0, Y4
	VMOVUPS Y1, (DI)
	VMOVUPS Y2, 32(DI)
	VMOVUPS Y3, 64(DI)
	VMOVUPS Y4, 96(DI)
	ADDQ    $128, SI
	ADDQ    $128, DI
	SUBQ    $4, CX
	JMP     mvec4

mvec1:
	TESTQ   CX, CX
	JZ      mnext
	VMULPS  (SI), Y0, Y1
	VMOVUPS Y1, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    CX
	JMP     mvec1

mnext:
	ADDQ $4, R8
	DECQ BX
	JMP  mblock

mdone:
	VZEROUPPER
	RET
