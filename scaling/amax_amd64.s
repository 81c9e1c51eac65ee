//go:build amd64 && !purego

#include "textflag.h"

// The amax loops with AVX2: clear each float32's sign bit (VPAND with
// 0x7FFFFFFF) and keep the unsigned maximum of the bit patterns
// (VPMAXUD), which orders NaN above +Inf above every finite value exactly
// as absMaxBitsGo does. Callers check for AVX2 and pass whole vectors.

// LANEMAX sets r to the unsigned maximum of the eight lanes of y (x is
// y's low half, t a scratch register): fold the high half onto the low,
// then pairs of lanes twice.
#define LANEMAX(y, x, t, r) \
	VEXTRACTI128 $1, y, t; \
	VPMAXUD      t, x, x;  \
	VPSHUFD      $0x4E, x, t; \
	VPMAXUD      t, x, x;  \
	VPSHUFD      $0xB1, x, t; \
	VPMAXUD      t, x, x;  \
	VMOVD        x, r

// func absMaxBitsVec(s []float32) uint32
TEXT ·absMaxBitsVec(SB), NOSPLIT, $0-28
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), CX
	VPCMPEQD Y0, Y0, Y0
	VPSRLD   $1, Y0, Y0 // Y0 = 0x7FFFFFFF in every lane
	VPXOR    Y1, Y1, Y1
	VPXOR    Y2, Y2, Y2
	VPXOR    Y3, Y3, Y3
	VPXOR    Y4, Y4, Y4

	// 32 values per iteration into four independent maxima.
	CMPQ CX, $32
	JB   vec8

loop32:
	VPAND   (SI), Y0, Y5
	VPAND   32(SI), Y0, Y6
	VPAND   64(SI), Y0, Y7
	VPAND   96(SI), Y0, Y8
	VPMAXUD Y5, Y1, Y1
	VPMAXUD Y6, Y2, Y2
	VPMAXUD Y7, Y3, Y3
	VPMAXUD Y8, Y4, Y4
	ADDQ    $128, SI
	SUBQ    $32, CX
	CMPQ    CX, $32
	JAE     loop32

vec8:
	CMPQ    CX, $8
	JB      reduce
	VPAND   (SI), Y0, Y5
	VPMAXUD Y5, Y1, Y1
	ADDQ    $32, SI
	SUBQ    $8, CX
	JMP     vec8

reduce:
	VPMAXUD      Y2, Y1, Y1
	VPMAXUD      Y4, Y3, Y3
	VPMAXUD      Y3, Y1, Y1
	LANEMAX(Y1, X1, X2, AX)
	VZEROUPPER
	MOVL         AX, ret+24(FP)
	RET

// func absMaxBlocksVec(g []uint32, row []float32, bc int)
TEXT ·absMaxBlocksVec(SB), NOSPLIT, $0-56
	MOVQ g_base+0(FP), DI
	MOVQ g_len+8(FP), BX
	MOVQ row_base+24(FP), SI
	MOVQ bc+48(FP), DX
	SHRQ $3, DX // vectors per block
	VPCMPEQD Y0, Y0, Y0
	VPSRLD   $1, Y0, Y0

block:
	TESTQ BX, BX
	JZ    done
	VPXOR Y1, Y1, Y1
	MOVQ  DX, CX

vec:
	VPAND   (SI), Y0, Y5
	VPMAXUD Y5, Y1, Y1
	ADDQ    $32, SI
	DECQ    CX
	JNZ     vec

	LANEMAX(Y1, X1, X2, AX)
	MOVL         (DI), R8
	CMPL         AX, R8
	CMOVLCS      R8, AX // g[b] = max(g[b], block max), unsigned
	MOVL         AX, (DI)
	ADDQ         $4, DI
	DECQ         BX
	JMP          block

done:
	VZEROUPPER
	RET
