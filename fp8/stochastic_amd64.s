//go:build amd64 && !purego

#include "textflag.h"

// func stochasticAVX2(d *uint8, s, rw *uint32, n int, p *stochasticParams) int
//
// The normal range of a stochastic kernel (bulk8.go), eight values per
// iteration: mag = ((a + r') - bias) >> drop with a = |x|'s bits and r'
// the random word's low r bits moved to just below the kept lsb, then
// min(mag, ovf), zero for a = 0, and the sign. It stops before the first
// group of eight that holds a value whose result is subnormal (0 < a <
// minNormal) or a NaN or ±Inf (a > 0x7F7FFFFF), which the scalar kernel
// does, and returns how many values it wrote (a multiple of 8; n is one).
// Every comparison is signed: a < 2^31.
TEXT ·stochasticAVX2(SB), NOSPLIT, $0-48
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ rw+16(FP), R8
	MOVQ n+24(FP), CX
	MOVQ p+32(FP), DX
	XORQ AX, AX

	VPCMPEQD     Y15, Y15, Y15
	VPSRLD       $1, Y15, Y15 // 0x7FFFFFFF
	VPBROADCASTD 0(DX), Y14   // mask of the r random bits
	VMOVD        4(DX), X13   // right shift of the random bits
	VMOVD        8(DX), X12   // left shift
	VMOVD        12(DX), X11  // drop
	VPBROADCASTD 16(DX), Y10  // bias
	VPBROADCASTD 20(DX), Y9   // minNormal
	VPBROADCASTD 24(DX), Y8   // ovf
	VPBROADCASTD 28(DX), Y7   // 0x7F7FFFFF, the largest finite
	VPBROADCASTD 32(DX), Y6   // 0x80, the sign bit of a code
	VPXOR        Y0, Y0, Y0

loop:
	CMPQ AX, CX
	JAE  done
	VMOVDQU  (SI)(AX*4), Y1 // u
	VPAND    Y15, Y1, Y2    // a
	VPCMPEQD Y0, Y2, Y3     // a = 0
	VPCMPGTD Y2, Y9, Y4     // a < minNormal
	VPANDN   Y4, Y3, Y4     // 0 < a < minNormal: a subnormal result
	VPCMPGTD Y7, Y2, Y5     // NaN or ±Inf
	VPOR     Y5, Y4, Y4
	VPTEST   Y4, Y4
	JNZ      done

	VMOVDQU      (R8)(AX*4), Y4
	VPAND        Y14, Y4, Y4
	VPSRLD       X13, Y4, Y4
	VPSLLD       X12, Y4, Y4
	VPADDD       Y4, Y2, Y4
	VPSUBD       Y10, Y4, Y4
	VPSRLD       X11, Y4, Y4
	VPMINUD      Y8, Y4, Y4
	VPANDN       Y4, Y3, Y4 // a = 0 gives 0
	VPSRLD       $24, Y1, Y5
	VPAND        Y6, Y5, Y5
	VPOR         Y5, Y4, Y4
	VEXTRACTI128 $1, Y4, X5
	VPACKUSDW    X5, X4, X4
	VPACKUSWB    X4, X4, X4
	VMOVQ        X4, (DI)(AX*1)
	ADDQ         $8, AX
	JMP          loop

done:
	VZEROUPPER
	MOVQ AX, ret+40(FP)
	RET
