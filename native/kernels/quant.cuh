// quant.cuh: the quantize kernels, written once and instantiated with the
// software codec (sw.cu, compute_70, any GPU) and with the hardware FP8
// conversion (hw.cu, compute_89: cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32).
//
// Element e = i·cols + j of a rows×cols tensor belongs to block
// (i / br)·gc + j / bc, whose float32 encode multiplier is scales[block]:
// code = enc(x · scale), the product rounded to float32 first, as
// scaling.Quantize does. Stochastic rounding uses word e of the Philox
// stream (seed, stream): dither.Bits(seed, stream, e).
#pragma once
#include "common.cuh"

#define FL_FULL 0xFFFFFFFFu

// fl_hw_pair converts two floats with the hardware instruction; lo goes to
// the low byte. Only hw.cu defines FL_WITH_HW and runs it.
__device__ __forceinline__ fl_u32 fl_hw_pair(float lo, float hi, int fmt) {
#if defined(FL_WITH_HW)
    unsigned short r;
    if (fmt == FL_E5M2) {
        asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(r) : "f"(hi), "f"(lo));
    } else {
        asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(r) : "f"(hi), "f"(lo));
    }
    return r;
#else
    (void)lo;
    (void)hi;
    (void)fmt;
    return 0;
#endif
}

// fl_hw_fix maps a NaN input to fp8's NaN code with the input's sign (the
// instruction writes 0x7F for every NaN); other codes pass through.
__device__ __forceinline__ fl_u32 fl_hw_fix(fl_u32 code, fl_u32 u, const fl_fmt &f) {
    return (u & 0x7FFFFFFFu) > 0x7F800000u ? (f.nan_code | ((u >> 31) << 7)) : code;
}

// fl_encode_n encodes N (1 or 4) scaled values whose float32 bits are u.
// rnd holds the random words when sto is set.
template <int N, bool HW>
__device__ __forceinline__ void fl_encode_n(const fl_u32 *u, const fl_u32 *rnd, int sto, int rbits, int fmt,
                                            const fl_fmt &f, fl_u32 *c) {
    if (sto) {
#pragma unroll
        for (int k = 0; k < N; k++) {
            c[k] = fl_encode_stochastic(u[k], rnd[k], (fl_u32)rbits, f);
        }
    } else if (HW) {
#pragma unroll
        for (int k = 0; k < N; k += 2) {
            fl_u32 p = fl_hw_pair(fl_u2f(u[k]), k + 1 < N ? fl_u2f(u[k + 1]) : 0.0f, fmt);
            c[k] = fl_hw_fix(p & 0xFFu, u[k], f);
            if (k + 1 < N) {
                c[k + 1] = fl_hw_fix(p >> 8, u[k + 1], f);
            }
        }
    } else {
#pragma unroll
        for (int k = 0; k < N; k++) {
            c[k] = fl_encode_nearest(u[k], f);
        }
    }
}

// fl_udiv is a / b for non-negative a and b, in 32-bit arithmetic when
// both fit: a GPU has no 64-bit divide instruction and emulates one in
// dozens. On an H100 this measured no change in the encode and fused
// kernels' times; the Hadamard kernel's gain came from replacing its
// division by shifts, together with float4 accesses (BENCHMARKS.md).
__device__ __forceinline__ fl_i64 fl_udiv(fl_i64 a, fl_i64 b) {
    if (((a | b) >> 32) == 0) {
        return (fl_i64)((fl_u32)a / (fl_u32)b);
    }
    return a / b;
}

// fl_warp_max returns the largest m of the warp's 32 lanes.
__device__ __forceinline__ fl_u32 fl_warp_max(fl_u32 m) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        fl_u32 t = __shfl_xor_sync(FL_FULL, m, o);
        m = t > m ? t : m;
    }
    return m;
}

// fl_block_amax folds each thread's m (max |x| bits) into *out: a warp
// shuffle, one word per warp in shared memory, then one atomicMax per
// block. Every thread of the block must call it.
__device__ __forceinline__ void fl_block_amax(fl_u32 m, fl_u32 *out) {
    __shared__ fl_u32 part[32];
    m = fl_warp_max(m);
    if ((threadIdx.x & 31) == 0) {
        part[threadIdx.x >> 5] = m;
    }
    __syncthreads();
    if (threadIdx.x < 32) {
        m = threadIdx.x < (blockDim.x >> 5) ? part[threadIdx.x] : 0;
        m = fl_warp_max(m);
        if (threadIdx.x == 0) {
            atomicMax(out, m);
        }
    }
}

// fl_encode_body: codes for a tensor whose scales are known (tensor, row,
// R×C blocks, tiles that the fused kernel does not take). VEC = 4 needs
// cols % 4 == 0 and bc % 4 == 0, so that four consecutive elements share a
// row, a block and one Philox block. When amax is not null (one block: the
// whole tensor, with given scales) the kernel also folds max |x| into
// *amax, as fl_amax_flat does, sparing the tensor a second read.
template <int VEC, bool HW, bool FOLD>
__device__ __forceinline__ void fl_encode_loop(const float *__restrict__ x, fl_i64 rows, fl_i64 cols, fl_i64 br,
                                               fl_i64 bc, fl_i64 gc, const float *__restrict__ scales, int fmt,
                                               fl_u8 *__restrict__ codes, int sto, fl_u64 seed, fl_u64 stream,
                                               int rbits, fl_u32 *amax) {
    const fl_fmt f = fl_format(fmt);
    fl_u32 m = 0; // max |x| bits seen by this thread, when amax is wanted
    const fl_i64 ng = rows * cols / VEC;
    const bool uniform = br >= rows && bc >= cols;
    const float s0 = scales[0];
    fl_i64 stride = (fl_i64)gridDim.x * blockDim.x;
    for (fl_i64 g = (fl_i64)blockIdx.x * blockDim.x + threadIdx.x; g < ng; g += stride) {
        fl_i64 e = g * VEC;
        float s = s0;
        if (!uniform) {
            fl_i64 i = fl_udiv(e, cols), j = e - i * cols;
            s = scales[fl_udiv(i, br) * gc + fl_udiv(j, bc)];
        }
        fl_u32 u[VEC], rnd[VEC], c[VEC];
        if (VEC == 4) {
            float4 v = reinterpret_cast<const float4 *>(x)[g];
            if (FOLD) {
                m = max(m, max(max(fl_f2u(v.x) & 0x7FFFFFFFu, fl_f2u(v.y) & 0x7FFFFFFFu),
                               max(fl_f2u(v.z) & 0x7FFFFFFFu, fl_f2u(v.w) & 0x7FFFFFFFu)));
            }
            u[0] = fl_f2u(fl_scale(v.x, s));
            u[1 % VEC] = fl_f2u(fl_scale(v.y, s));
            u[2 % VEC] = fl_f2u(fl_scale(v.z, s));
            u[3 % VEC] = fl_f2u(fl_scale(v.w, s));
            if (sto) {
                fl_philox_block(seed, stream, (fl_u64)g, rnd);
            }
        } else {
            if (FOLD) {
                m = max(m, fl_f2u(x[e]) & 0x7FFFFFFFu);
            }
            u[0] = fl_f2u(fl_scale(x[e], s));
            if (sto) {
                rnd[0] = fl_bits(seed, stream, (fl_u64)e);
            }
        }
        fl_encode_n<VEC, HW>(u, rnd, sto, rbits, fmt, f, c);
        if (VEC == 4) {
            reinterpret_cast<fl_u32 *>(codes)[g] = c[0] | (c[1 % VEC] << 8) | (c[2 % VEC] << 16) | (c[3 % VEC] << 24);
        } else {
            codes[e] = (fl_u8)c[0];
        }
    }
    if (FOLD) {
        fl_block_amax(m, amax);
    }
}

// fl_encode_body is fl_encode_loop with the amax folded in or not, chosen
// once per launch rather than tested per element.
template <int VEC, bool HW>
__device__ __forceinline__ void fl_encode_body(const float *__restrict__ x, fl_i64 rows, fl_i64 cols, fl_i64 br,
                                               fl_i64 bc, fl_i64 gc, const float *__restrict__ scales, int fmt,
                                               fl_u8 *__restrict__ codes, int sto, fl_u64 seed, fl_u64 stream,
                                               int rbits, fl_u32 *amax) {
    if (amax) {
        fl_encode_loop<VEC, HW, true>(x, rows, cols, br, bc, gc, scales, fmt, codes, sto, seed, stream, rbits, amax);
    } else {
        fl_encode_loop<VEC, HW, false>(x, rows, cols, br, bc, gc, scales, fmt, codes, sto, seed, stream, rbits, amax);
    }
}

// fl_rowseg_body: the fused kernel of 1×bc segments (1×128 tiles, MX and
// other power-of-two tiles up to 128): G lanes of a warp own one segment,
// find its amax with shuffles, compute its scale (kind 0: the scale rule;
// kind 1: the MX E8M0 rule) and encode it, reading x once. With VEC = 4
// each lane holds four consecutive elements (G = bc / 4); with VEC = 1 it
// holds bc / G elements at stride G (G = min(bc, 32)).
template <int VEC, bool HW>
__device__ __forceinline__ void fl_rowseg_body(const float *__restrict__ x, fl_i64 rows, fl_i64 cols, fl_i64 bc,
                                               fl_i64 gc, int G, int fmt, int kind, double eps, int margin, int pow2,
                                               int mxround, int sto, fl_u64 seed, fl_u64 stream, int rbits,
                                               fl_u8 *__restrict__ codes, float *__restrict__ scales,
                                               fl_u32 *__restrict__ amax, fl_u8 *__restrict__ scodes) {
    const fl_fmt f = fl_format(fmt);
    const fl_rule rule = {eps, margin, pow2};
    const int lane = threadIdx.x & 31;
    const int sub = lane % G;          // lane within the segment
    const int per_warp = 32 / G;       // segments per warp
    const int per_lane = (int)(bc / G); // elements per lane, at most 4
    const fl_i64 nseg = rows * gc;
    const fl_i64 warp0 = ((fl_i64)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const fl_i64 nwarps = ((fl_i64)gridDim.x * blockDim.x) >> 5;
    for (fl_i64 w = warp0; w * per_warp < nseg; w += nwarps) {
        const fl_i64 s = w * per_warp + lane / G;
        const bool valid = s < nseg;
        fl_i64 i = 0, j0 = 0, j1 = 0;
        if (valid) {
            i = fl_udiv(s, gc);
            j0 = (s - i * gc) * bc;
            j1 = j0 + bc < cols ? j0 + bc : cols;
        }
        float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        bool in[4] = {false, false, false, false};
        fl_u32 m = 0;
        if (VEC == 4) {
            fl_i64 j = j0 + (fl_i64)sub * 4;
            if (valid && j < j1) {
                float4 q = *reinterpret_cast<const float4 *>(x + i * cols + j);
                v[0] = q.x;
                v[1] = q.y;
                v[2] = q.z;
                v[3] = q.w;
                in[0] = in[1] = in[2] = in[3] = true;
            }
        } else {
#pragma unroll
            for (int k = 0; k < 4; k++) {
                fl_i64 j = j0 + sub + (fl_i64)k * G;
                if (k < per_lane && valid && j < j1) {
                    v[k] = x[i * cols + j];
                    in[k] = true;
                }
            }
        }
#pragma unroll
        for (int k = 0; k < 4; k++) {
            fl_u32 a = fl_f2u(v[k]) & 0x7FFFFFFFu;
            m = a > m ? a : m;
        }
        for (int o = G >> 1; o > 0; o >>= 1) {
            fl_u32 t = __shfl_xor_sync(FL_FULL, m, o);
            m = t > m ? t : m;
        }
        float scale = 1.0f; // non-finite amax: the host reports the error
        fl_u32 scode = 0;
        if (m < 0x7F800000u) {
            if (kind == 1) {
                scode = fl_mx_code(fl_u2f(m), f, mxround);
                scale = fl_mx_scale(scode);
            } else {
                scale = fl_rule_scale(fl_u2f(m), f.max_value, rule);
            }
        }
        if (!valid) {
            continue; // after the shuffles, which need every lane
        }
        fl_u32 u[4], rnd[4] = {0, 0, 0, 0}, c[4];
#pragma unroll
        for (int k = 0; k < 4; k++) {
            u[k] = fl_f2u(fl_scale(v[k], scale));
        }
        if (VEC == 4) {
            fl_i64 e = i * cols + j0 + (fl_i64)sub * 4;
            if (in[0]) {
                if (sto) {
                    fl_philox_block(seed, stream, (fl_u64)(e >> 2), rnd);
                }
                fl_encode_n<4, HW>(u, rnd, sto, rbits, fmt, f, c);
                *reinterpret_cast<fl_u32 *>(codes + e) = c[0] | (c[1] << 8) | (c[2] << 16) | (c[3] << 24);
            }
        } else {
#pragma unroll
            for (int k = 0; k < 4; k++) {
                if (in[k]) {
                    fl_i64 e = i * cols + j0 + sub + (fl_i64)k * G;
                    if (sto) {
                        rnd[0] = fl_bits(seed, stream, (fl_u64)e);
                    }
                    fl_u32 uk = u[k];
                    fl_encode_n<1, HW>(&uk, rnd, sto, rbits, fmt, f, c);
                    codes[e] = (fl_u8)c[0];
                }
            }
        }
        if (sub == 0) {
            scales[s] = scale;
            amax[s] = m;
            if (kind == 1) {
                scodes[s] = (fl_u8)scode;
            }
        }
    }
}

// fl_cast_transpose_body: one kernel of the fused FP8 plan of a linear
// layer (native/internal/launch.Config.Linear). It takes the tensor's amax
// (folded in by the producer), computes the tensorwise scale of the rule
// itself (every thread, the same double-precision arithmetic as
// fl_scales), and writes x's codes twice, row-major and transposed, through
// a 32×32 tile in shared memory: the cast and the transposed copy that the
// naive plan makes in two kernels. Thread (0, 0) of block (0, 0) writes the
// scale and the decode factor float32(1/scale) (Quantized.BlockDecodeScale)
// for the product. Blocks of 32×8 threads, one 32×32 tile each.
template <bool HW>
__device__ __forceinline__ void fl_cast_transpose_body(const float *__restrict__ x, fl_i64 rows, fl_i64 cols,
                                                       const fl_u32 *amax, int fmt, double eps, int margin, int pow2,
                                                       fl_u8 *__restrict__ codes, fl_u8 *__restrict__ codes_t,
                                                       float *scale_out, float *decode_out) {
    __shared__ fl_u8 tile[32][33];
    const fl_fmt f = fl_format(fmt);
    const fl_rule rule = {eps, margin, pow2};
    const fl_u32 a = *amax;
    float s = 1.0f; // non-finite amax: the host reports the error
    if (a < 0x7F800000u) {
        s = fl_rule_scale(fl_u2f(a), f.max_value, rule);
    }
    if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 && threadIdx.y == 0) {
        *scale_out = s;
        *decode_out = (float)fl_ddiv(1.0, (double)s);
    }
    const fl_i64 bx = (fl_i64)blockIdx.x * 32, by = (fl_i64)blockIdx.y * 32;
    fl_u32 rnd[1] = {0};
    for (int k = threadIdx.y; k < 32; k += 8) {
        fl_i64 i = by + k, j = bx + threadIdx.x;
        if (i < rows && j < cols) {
            fl_u32 u = fl_f2u(fl_scale(x[i * cols + j], s)), c;
            fl_encode_n<1, HW>(&u, rnd, 0, 0, fmt, f, &c);
            codes[i * cols + j] = (fl_u8)c;
            tile[k][threadIdx.x] = (fl_u8)c;
        }
    }
    __syncthreads();
    for (int k = threadIdx.y; k < 32; k += 8) {
        fl_i64 j = bx + k, i = by + threadIdx.x;
        if (i < rows && j < cols) {
            codes_t[j * rows + i] = tile[threadIdx.x][k];
        }
    }
}

// The extern "C" entry points of one codec: FL_CODEC is sw or hw.
#define FL_CAT2(a, b) a##b
#define FL_CAT(a, b) FL_CAT2(a, b)

#define FL_DEFINE_QUANT_KERNELS(CODEC, HW)                                                                       \
    extern "C" __global__ void FL_CAT(fl_encode4_, CODEC)(                                                       \
        const float *x, fl_i64 rows, fl_i64 cols, fl_i64 br, fl_i64 bc, fl_i64 gc, const float *scales, int fmt,   \
        fl_u8 *codes, int sto, fl_u64 seed, fl_u64 stream, int rbits, fl_u32 *amax) {                              \
        fl_encode_body<4, HW>(x, rows, cols, br, bc, gc, scales, fmt, codes, sto, seed, stream, rbits, amax);   \
    }                                                                                                            \
    extern "C" __global__ void FL_CAT(fl_encode1_, CODEC)(                                                       \
        const float *x, fl_i64 rows, fl_i64 cols, fl_i64 br, fl_i64 bc, fl_i64 gc, const float *scales, int fmt,   \
        fl_u8 *codes, int sto, fl_u64 seed, fl_u64 stream, int rbits, fl_u32 *amax) {                              \
        fl_encode_body<1, HW>(x, rows, cols, br, bc, gc, scales, fmt, codes, sto, seed, stream, rbits, amax);   \
    }                                                                                                            \
    extern "C" __global__ void FL_CAT(fl_rowseg4_, CODEC)(                                                       \
        const float *x, fl_i64 rows, fl_i64 cols, fl_i64 bc, fl_i64 gc, int G, int fmt, int kind, double eps,     \
        int margin, int pow2, int mxround, int sto, fl_u64 seed, fl_u64 stream, int rbits, fl_u8 *codes,          \
        float *scales, fl_u32 *amax, fl_u8 *scodes) {                                                              \
        fl_rowseg_body<4, HW>(x, rows, cols, bc, gc, G, fmt, kind, eps, margin, pow2, mxround, sto, seed, stream, \
                              rbits, codes, scales, amax, scodes);                                                 \
    }                                                                                                            \
    extern "C" __global__ void FL_CAT(fl_rowseg1_, CODEC)(                                                       \
        const float *x, fl_i64 rows, fl_i64 cols, fl_i64 bc, fl_i64 gc, int G, int fmt, int kind, double eps,     \
        int margin, int pow2, int mxround, int sto, fl_u64 seed, fl_u64 stream, int rbits, fl_u8 *codes,          \
        float *scales, fl_u32 *amax, fl_u8 *scodes) {                                                              \
        fl_rowseg_body<1, HW>(x, rows, cols, bc, gc, G, fmt, kind, eps, margin, pow2, mxround, sto, seed, stream, \
                              rbits, codes, scales, amax, scodes);                                                 \
    }                                                                                                            \
    extern "C" __global__ void FL_CAT(fl_cast_transpose_, CODEC)(                                                \
        const float *x, fl_i64 rows, fl_i64 cols, const fl_u32 *amax, int fmt, double eps, int margin, int pow2,  \
        fl_u8 *codes, fl_u8 *codes_t, float *scale_out, float *decode_out) {                                       \
        fl_cast_transpose_body<HW>(x, rows, cols, amax, fmt, eps, margin, pow2, codes, codes_t, scale_out,         \
                                   decode_out);                                                                    \
    }
