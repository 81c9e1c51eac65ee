//go:build amd64 && !purego

#include "textflag.h"

// alignedRunAVX2: eight columns of aligned accumulation, one float32 lane
// per column; the step is described in matmul_aligned.go. Each group is
// read twice: the first pass keeps the largest |c| and |a[p]·b[p]| (VPMAXUD
// on the bit patterns with the sign cleared, which orders non-negative
// floats), the second adds the products truncated to the grid as int32.

// func alignedRunAVX2(c *[8]float32, a []float32, b *float32, ldb, group, m int)
TEXT ·alignedRunAVX2(SB), NOSPLIT, $0-64
	MOVQ m+56(FP), R9

	// Lane constants from m (the shift count must be in CX).
	LEAQ         1(R9), AX
	SHLQ         $23, AX
	MOVQ         AX, X6
	VPBROADCASTD X6, Y6  // (m+1)<<23: the smallest exponent of a grid's top
	LEAQ         254(R9), AX
	SHLQ         $23, AX
	MOVQ         AX, X7
	VPBROADCASTD X7, Y7  // (254+m)<<23: s = Y7 - e
	MOVQ         R9, AX
	SHLQ         $23, AX
	MOVQ         AX, X8
	VPBROADCASTD X8, Y8  // m<<23: 1/s = e - Y8
	MOVL         $23, AX
	SUBL         R9, AX
	MOVL         AX, CX
	MOVL         $-1, AX
	SHLL         CX, AX
	MOVQ         AX, X9
	VPBROADCASTD X9, Y9  // keeps the sign, exponent and m fraction bits
	MOVL         $0x7F800000, AX
	MOVQ         AX, X10
	VPBROADCASTD X10, Y10 // the exponent field
	VPCMPEQD     Y1, Y1, Y1
	VPSRLD       $1, Y1, Y1 // 0x7FFFFFFF: clears the sign

	MOVQ    c+0(FP), DI
	MOVQ    a_base+8(FP), SI
	MOVQ    a_len+16(FP), CX
	MOVQ    b+32(FP), BX
	MOVQ    ldb+40(FP), DX
	SHLQ    $2, DX // row stride in bytes
	MOVQ    group+48(FP), R8
	VMOVUPS (DI), Y0 // the running sums

group:
	TESTQ   CX, CX
	JZ      done
	MOVQ    R8, R11
	CMPQ    CX, R11
	CMOVQLT CX, R11 // this group's length: min(group, what is left)

	// Pass 1: Y2 = the largest |c| and |a[p]·b[p]| of the group.
	VANDPS Y1, Y0, Y2
	MOVQ   SI, R12
	MOVQ   BX, R13
	MOVQ   R11, R14

top:
	VBROADCASTSS (R12), Y3
	VMULPS       (R13), Y3, Y3
	VANDPS       Y1, Y3, Y3
	VPMAXUD      Y3, Y2, Y2
	ADDQ         $4, R12
	ADDQ         DX, R13
	DECQ         R14
	JNZ          top

	VPAND   Y10, Y2, Y2  // e, the exponent field of the top
	VPMAXUD Y6, Y2, Y2
	VPSUBD  Y2, Y7, Y4   // s = 2^-(grid)
	VPSUBD  Y8, Y2, Y11  // 1/s

	// Pass 2: Y5 = trunc(c·s) + Σ trunc(a[p]·b[p]·s), in int32.
	VMULPS     Y4, Y0, Y5
	VCVTTPS2DQ Y5, Y5
	MOVQ       SI, R12
	MOVQ       BX, R13
	MOVQ       R11, R14

sum:
	VBROADCASTSS (R12), Y3
	VMULPS       (R13), Y3, Y3
	VMULPS       Y4, Y3, Y3
	VCVTTPS2DQ   Y3, Y3
	VPADDD       Y3, Y5, Y5
	ADDQ         $4, R12
	ADDQ         DX, R13
	DECQ         R14
	JNZ          sum

	// c = the sum back on the grid, truncated to m fraction bits.
	VCVTDQ2PS Y5, Y5
	VMULPS    Y11, Y5, Y5
	VANDPS    Y9, Y5, Y0

	MOVQ R12, SI
	MOVQ R13, BX
	SUBQ R11, CX
	JMP  group

done:
	VMOVUPS Y0, (DI)
	VZEROUPPER
	RET
