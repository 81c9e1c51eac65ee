//go:build amd64 && !purego

#include "textflag.h"

// Philox4x32-10 with AVX2, eight blocks per iteration in two sets of four
// (Y0-Y3 and Y4-Y7), one block per 64-bit lane with each state word in the
// lane's low half. VPMULUDQ multiplies only the low halves, so the high
// halves may hold garbage: a round is two multiplies, two shifts and four
// xors per set. The key is xored into the passed-through word first, off
// the multiply-shift-xor path from one round to the next. The lanes of a
// set hold blocks 0, 2, 1, 3, the order in which VPUNPCKLQDQ and
// VPUNPCKHQDQ put each block's four words side by side. Every instruction
// is VEX-encoded (VMOVQ, not MOVQ, into an XMM register): a legacy SSE
// instruction while the upper halves of the YMM registers are dirty made
// the loop 20 times slower (14 ns/word against 0.62).
//
// Registers: Y8, Y9 the multipliers; Y10, Y11 the round's keys; Y12, Y13
// and Y14, Y15 each set's products.

// ROUND is one round of the set (c0, c1, c2, c3) with products p0, p1.
#define ROUND(c0, c1, c2, c3, p0, p1) \
	VPMULUDQ Y8, c0, p0;  \
	VPMULUDQ Y9, c2, p1;  \
	VPXOR    Y10, c1, c1; \
	VPXOR    Y11, c3, c3; \
	VPSRLQ   $32, p1, c0; \
	VPXOR    c1, c0, c0;  \
	VPSRLQ   $32, p0, c2; \
	VPXOR    c3, c2, c2;  \
	VMOVDQA  p1, c1;      \
	VMOVDQA  p0, c3

// ROUNDS is round r of both sets, its keys broadcast from keys[2r] and
// keys[2r+1] (SI points at keys).
#define ROUNDS(off) \
	VPBROADCASTD off(SI), Y10;   \
	VPBROADCASTD off+4(SI), Y11; \
	ROUND(Y0, Y1, Y2, Y3, Y12, Y13); \
	ROUND(Y4, Y5, Y6, Y7, Y14, Y15)

// STORE writes the set (c0, c1, c2, c3), four blocks, as 16 words at
// off(DI), using t0, t1 as scratch: words 0 and 1 of each block are the low
// halves of c0 and c1, words 2 and 3 those of c2 and c3.
#define STORE(c0, c1, c2, c3, t0, t1, off) \
	VPSLLQ      $32, c1, t0;      \
	VPBLENDD    $0xAA, t0, c0, t0; \
	VPSLLQ      $32, c3, t1;      \
	VPBLENDD    $0xAA, t1, c2, t1; \
	VPUNPCKLQDQ t1, t0, c0;       \
	VPUNPCKHQDQ t1, t0, c1;       \
	VMOVDQU     c0, off(DI);      \
	VMOVDQU     c1, off+32(DI)

// func philoxAVX2(dst *uint32, iters int, block, hi, s0, s1 uint32, keys *[20]uint32)
//
// Writes iters × 32 words at dst: the blocks block, block+1, ... under
// counter words (hi, s0, s1); the caller sees that block + 8·iters - 1
// does not wrap.
TEXT ·philoxAVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ iters+8(FP), CX
	MOVL block+16(FP), AX
	MOVQ keys+32(FP), SI
	MOVL $0xD2511F53, DX
	VMOVQ        DX, X8
	VPBROADCASTD X8, Y8
	MOVL $0xCD9E8D57, DX
	VMOVQ        DX, X9
	VPBROADCASTD X9, Y9

loop:
	TESTQ CX, CX
	JZ    done

	// Counters: word 0 is block + (0, 2, 1, 3) and block + (4, 6, 5, 7).
	VMOVQ        AX, X0
	VPBROADCASTQ X0, Y0
	VPADDQ       laneOrder<>(SB), Y0, Y0
	VPADDQ       laneFour<>(SB), Y0, Y4
	MOVL         hi+20(FP), DX
	VMOVQ        DX, X1
	VPBROADCASTD X1, Y1
	MOVL         s0+24(FP), DX
	VMOVQ        DX, X2
	VPBROADCASTD X2, Y2
	MOVL         s1+28(FP), DX
	VMOVQ        DX, X3
	VPBROADCASTD X3, Y3
	VMOVDQA      Y1, Y5
	VMOVDQA      Y2, Y6
	VMOVDQA      Y3, Y7

	ROUNDS(0)
	ROUNDS(8)
	ROUNDS(16)
	ROUNDS(24)
	ROUNDS(32)
	ROUNDS(40)
	ROUNDS(48)
	ROUNDS(56)
	ROUNDS(64)
	ROUNDS(72)

	STORE(Y0, Y1, Y2, Y3, Y12, Y13, 0)
	STORE(Y4, Y5, Y6, Y7, Y14, Y15, 64)

	ADDQ $128, DI
	ADDQ $8, AX
	DECQ CX
	JMP  loop

done:
	VZEROUPPER
	RET

DATA laneOrder<>+0(SB)/8, $0
DATA laneOrder<>+8(SB)/8, $2
DATA laneOrder<>+16(SB)/8, $1
DATA laneOrder<>+24(SB)/8, $3
GLOBL laneOrder<>(SB), RODATA|NOPTR, $32

DATA laneFour<>+0(SB)/8, $4
DATA laneFour<>+8(SB)/8, $4
DATA laneFour<>+16(SB)/8, $4
DATA laneFour<>+24(SB)/8, $4
GLOBL laneFour<>(SB), RODATA|NOPTR, $32
