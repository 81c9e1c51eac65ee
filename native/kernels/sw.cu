// sw.cu: every fp8lab kernel that runs on any GPU (PTX for compute_70):
// amax, scales, the software-codec quantize kernels, dequantize, the
// Walsh–Hadamard transform, and the helpers of the matrix products.
// Launch parameters are all 8 bytes wide or narrower; native/cuda passes
// each in its own 8-byte slot.
#include "quant.cuh"

FL_DEFINE_QUANT_KERNELS(sw, false)


// fl_amax_flat folds max |x| over n elements into *out (float32 bits, so
// that NaN, whose bits are above +Inf's, wins, as in scaling's amax).
// *out must be zeroed first. x is 16-byte aligned.
extern "C" __global__ void fl_amax_flat(const float *__restrict__ x, fl_i64 n, fl_u32 *out) {
    fl_u32 m = 0;
    const fl_i64 stride = (fl_i64)gridDim.x * blockDim.x;
    const fl_i64 tid = (fl_i64)blockIdx.x * blockDim.x + threadIdx.x;
    const fl_i64 n4 = n / 4;
    const uint4 *x4 = reinterpret_cast<const uint4 *>(x);
    for (fl_i64 g = tid; g < n4; g += stride) {
        uint4 v = x4[g];
        fl_u32 a = max(v.x & 0x7FFFFFFFu, v.y & 0x7FFFFFFFu);
        fl_u32 b = max(v.z & 0x7FFFFFFFu, v.w & 0x7FFFFFFFu);
        m = max(m, max(a, b));
    }
    for (fl_i64 e = n4 * 4 + tid; e < n; e += stride) {
        m = max(m, fl_f2u(x[e]) & 0x7FFFFFFFu);
    }
    fl_block_amax(m, out);
}

// fl_amax_seg: one warp per 1×bc segment of a row; the segment's amax goes
// to grid[(i / br)·gc + b] (a store when br = 1, else atomicMax into a
// zeroed grid). With vec4, cols % 4 == 0 and bc % 4 == 0.
extern "C" __global__ void fl_amax_seg(const float *__restrict__ x, fl_i64 rows, fl_i64 cols, fl_i64 br, fl_i64 bc,
                                       fl_i64 gc, int vec4, fl_u32 *grid) {
    const int lane = threadIdx.x & 31;
    const fl_i64 nseg = rows * gc;
    const fl_i64 nwarps = ((fl_i64)gridDim.x * blockDim.x) >> 5;
    for (fl_i64 s = ((fl_i64)blockIdx.x * blockDim.x + threadIdx.x) >> 5; s < nseg; s += nwarps) {
        fl_i64 i = fl_udiv(s, gc), b = s - i * gc;
        fl_i64 j0 = b * bc, j1 = j0 + bc < cols ? j0 + bc : cols;
        const float *row = x + i * cols;
        fl_u32 m = 0;
        if (vec4) {
            for (fl_i64 j = j0 + lane * 4; j < j1; j += 128) {
                uint4 v = *reinterpret_cast<const uint4 *>(row + j);
                fl_u32 a = max(v.x & 0x7FFFFFFFu, v.y & 0x7FFFFFFFu);
                fl_u32 c = max(v.z & 0x7FFFFFFFu, v.w & 0x7FFFFFFFu);
                m = max(m, max(a, c));
            }
        } else {
            for (fl_i64 j = j0 + lane; j < j1; j += 32) {
                m = max(m, fl_f2u(row[j]) & 0x7FFFFFFFu);
            }
        }
        m = fl_warp_max(m);
        if (lane == 0) {
            fl_u32 *g = grid + fl_udiv(i, br) * gc + b;
            if (br == 1) {
                *g = m;
            } else {
                atomicMax(g, m);
            }
        }
    }
}

// fl_scales turns the amax grid (float32 bits) into encode multipliers:
// kind 0, the scale rule (scaling.ScaleRule) in double precision; kind 1,
// the MX E8M0 rule, whose codes go to scodes. A non-finite amax gets scale
// 1; the host reports it as an error.
extern "C" __global__ void fl_scales(const fl_u32 *grid, fl_i64 nb, int fmt, int kind, double eps, int margin,
                                     int pow2, int mxround, float *scales, fl_u8 *scodes) {
    const fl_fmt f = fl_format(fmt);
    const fl_rule rule = {eps, margin, pow2};
    for (fl_i64 b = (fl_i64)blockIdx.x * blockDim.x + threadIdx.x; b < nb; b += (fl_i64)gridDim.x * blockDim.x) {
        fl_u32 a = grid[b];
        float s = 1.0f;
        if (a < 0x7F800000u) {
            if (kind == 1) {
                fl_u32 c = fl_mx_code(fl_u2f(a), f, mxround);
                scodes[b] = (fl_u8)c;
                s = fl_mx_scale(c);
            } else {
                s = fl_rule_scale(fl_u2f(a), f.max_value, rule);
            }
        }
        scales[b] = s;
    }
}

// fl_dequant: out = table[code] / factor (mul = 0: float32 scales) or
// table[code] · factor (mul = 1: MX and NVFP4 decode factors), with
// factor = factors[block]. table holds the format's 256 decoded values.
extern "C" __global__ void fl_dequant(const fl_u8 *__restrict__ codes, fl_i64 rows, fl_i64 cols, fl_i64 br,
                                      fl_i64 bc, fl_i64 gc, const float *__restrict__ table,
                                      const float *__restrict__ factors, int mul, int vec4, float *__restrict__ out) {
    __shared__ float tab[256];
    for (int k = threadIdx.x; k < 256; k += blockDim.x) {
        tab[k] = table[k];
    }
    __syncthreads();
    const int vec = vec4 ? 4 : 1;
    const fl_i64 ng = rows * cols / vec;
    const bool uniform = br >= rows && bc >= cols;
    const fl_i64 stride = (fl_i64)gridDim.x * blockDim.x;
    for (fl_i64 g = (fl_i64)blockIdx.x * blockDim.x + threadIdx.x; g < ng; g += stride) {
        fl_i64 e = g * vec;
        float s = factors[0];
        if (!uniform) {
            fl_i64 i = fl_udiv(e, cols), j = e - i * cols;
            s = factors[fl_udiv(i, br) * gc + fl_udiv(j, bc)];
        }
        if (vec4) {
            fl_u32 c = reinterpret_cast<const fl_u32 *>(codes)[g];
            float v[4];
#pragma unroll
            for (int k = 0; k < 4; k++) {
                float d = tab[(c >> (8 * k)) & 0xFFu];
                v[k] = mul ? fl_mul(d, s) : fl_div(d, s);
            }
            reinterpret_cast<float4 *>(out)[g] = make_float4(v[0], v[1], v[2], v[3]);
        } else {
            float d = tab[codes[e]];
            out[e] = mul ? fl_mul(d, s) : fl_div(d, s);
        }
    }
}

// ---- fast Walsh–Hadamard transform --------------------------------------
// The butterfly stages run in the order of scaling's fwht (h = 1, 2, 4, ...),
// three at a time in registers, so every element sees the same float32
// additions and the results are bit-identical; the last pass multiplies by
// norm = float32(1/√block), computed by the host as the CPU does.

#define FL_FWHT_CHUNK 4096

template <int S>
__device__ __forceinline__ void fl_fwht_group(float *buf, fl_i64 base, fl_i64 h, bool scale, float norm) {
    float v[8];
#pragma unroll
    for (int m = 0; m < (1 << S); m++) {
        v[m] = buf[base + m * h];
    }
    fl_fwht_radix<S>(v);
#pragma unroll
    for (int m = 0; m < (1 << S); m++) {
        buf[base + m * h] = scale ? fl_mul(v[m], norm) : v[m];
    }
}

// fl_fwht_group8_contig is fl_fwht_group<3> at distance h = 1, where the
// group's eight values are contiguous: two float4 accesses instead of eight
// scalar ones 8 words apart (an 8-way shared-memory bank conflict). base is
// a multiple of 8 in a 16-byte-aligned buffer.
__device__ __forceinline__ void fl_fwht_group8_contig(float *buf, fl_i64 base, bool scale, float norm) {
    float4 *p = reinterpret_cast<float4 *>(buf + base);
    float4 a = p[0], b = p[1];
    float v[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
    fl_fwht_radix<3>(v);
    if (scale) {
#pragma unroll
        for (int m = 0; m < 8; m++) {
            v[m] = fl_mul(v[m], norm);
        }
    }
    p[0] = make_float4(v[0], v[1], v[2], v[3]);
    p[1] = make_float4(v[4], v[5], v[6], v[7]);
}

// fl_fwht_pass runs S stages at distance h (a power of two) over ngroups
// groups; the group index splits with shifts, not 64-bit division.
__device__ __forceinline__ void fl_fwht_pass(float *buf, fl_i64 ngroups, fl_i64 h, int S, bool scale, float norm,
                                             fl_i64 first, fl_i64 stride) {
    int lh = 0;
    while (((fl_i64)1 << lh) < h) {
        lh++;
    }
    for (fl_i64 q = first; q < ngroups; q += stride) {
        fl_i64 base = ((q >> lh) << (lh + S)) + (q & (h - 1));
        if (S == 3 && h == 1) {
            fl_fwht_group8_contig(buf, base, scale, norm);
        } else if (S == 3) {
            fl_fwht_group<3>(buf, base, h, scale, norm);
        } else if (S == 2) {
            fl_fwht_group<2>(buf, base, h, scale, norm);
        } else {
            fl_fwht_group<1>(buf, base, h, scale, norm);
        }
    }
}

// fl_fwht_copy4 copies a whole 4096-float chunk as float4s, each thread
// issuing four loads before its four stores: one scalar load at a time
// left the shared-memory kernel latency-bound (ncu on an H100: 26-28% of
// DRAM bandwidth). Both pointers are 16-byte aligned (chunks start at
// multiples of 4096 elements of a cuMemAlloc'd buffer).
__device__ __forceinline__ void fl_fwht_copy4(float4 *dst, const float4 *src) {
    const int n4 = FL_FWHT_CHUNK / 4;
    for (int k = threadIdx.x; k < n4; k += 4 * blockDim.x) {
        float4 r[4];
#pragma unroll
        for (int p = 0; p < 4; p++) {
            int idx = k + p * (int)blockDim.x;
            if (idx < n4) {
                r[p] = src[idx];
            }
        }
#pragma unroll
        for (int p = 0; p < 4; p++) {
            int idx = k + p * (int)blockDim.x;
            if (idx < n4) {
                dst[idx] = r[p];
            }
        }
    }
}

// fl_fwht_shared runs the first lb stages (h = 1 .. 2^(lb-1), lb <= 12) of
// every 2^lb-element sub-block, a 4096-element chunk per thread block in
// shared memory; norm is applied when scale is set (lb = log2 of the whole
// block). total is a multiple of 2^lb.
extern "C" __global__ void fl_fwht_shared(float *x, fl_i64 total, int lb, int scale, float norm) {
    __shared__ float4 buf4[FL_FWHT_CHUNK / 4]; // float4: 16-byte aligned for fl_fwht_copy4
    float *buf = reinterpret_cast<float *>(buf4);
    // The host refuses such launches (launch.Config.FWHT); this guard keeps
    // a bad one from touching memory beyond x[total-1].
    if (lb < 0 || lb > 12 || (total & (((fl_i64)1 << lb) - 1)) != 0) {
        return;
    }
    for (fl_i64 c0 = (fl_i64)blockIdx.x * FL_FWHT_CHUNK; c0 < total; c0 += (fl_i64)gridDim.x * FL_FWHT_CHUNK) {
        fl_i64 n = total - c0 < FL_FWHT_CHUNK ? total - c0 : FL_FWHT_CHUNK;
        if (n == FL_FWHT_CHUNK) {
            fl_fwht_copy4(buf4, reinterpret_cast<const float4 *>(x + c0));
        } else {
            for (fl_i64 k = threadIdx.x; k < n; k += blockDim.x) {
                buf[k] = x[c0 + k];
            }
        }
        __syncthreads();
        for (int s0 = 0; s0 < lb; s0 += 3) {
            int S = lb - s0 < 3 ? lb - s0 : 3;
            bool last = s0 + S >= lb;
            fl_fwht_pass(buf, n >> S, (fl_i64)1 << s0, S, last && scale, norm, threadIdx.x, blockDim.x);
            __syncthreads();
        }
        if (n == FL_FWHT_CHUNK) {
            fl_fwht_copy4(reinterpret_cast<float4 *>(x + c0), buf4);
        } else {
            for (fl_i64 k = threadIdx.x; k < n; k += blockDim.x) {
                x[c0 + k] = buf[k];
            }
        }
        __syncthreads();
    }
}

// fl_fwht_global runs S (1..3) stages starting at distance h on the whole
// array in global memory (for blocks above 4096), scaling by norm when set.
extern "C" __global__ void fl_fwht_global(float *x, fl_i64 total, fl_i64 h, int S, int scale, float norm) {
    // Every group spans h << S elements; a total that is not a multiple of
    // it would send the last groups past the end (the host refuses it too).
    if (S < 1 || S > 3 || h < 1 || (total % (h << S)) != 0) {
        return;
    }
    fl_fwht_pass(x, total >> S, h, S, scale != 0, norm, (fl_i64)blockIdx.x * blockDim.x + threadIdx.x,
                 (fl_i64)gridDim.x * blockDim.x);
}

// ---- matrix-product helpers ----------------------------------------------

// fl_transpose_u8 writes the cols×rows transpose of a rows×cols byte matrix
// (B's FP8 codes, K×N, become N×K for cuBLASLt's TN layout). Blocks of 32×8
// threads move 32×32 tiles through shared memory.
extern "C" __global__ void fl_transpose_u8(const fl_u8 *__restrict__ src, fl_i64 rows, fl_i64 cols,
                                           fl_u8 *__restrict__ dst) {
    __shared__ fl_u8 tile[32][33];
    fl_i64 bx = (fl_i64)blockIdx.x * 32, by = (fl_i64)blockIdx.y * 32;
    for (int k = threadIdx.y; k < 32; k += 8) {
        fl_i64 i = by + k, j = bx + threadIdx.x;
        if (i < rows && j < cols) {
            tile[k][threadIdx.x] = src[i * cols + j];
        }
    }
    __syncthreads();
    for (int k = threadIdx.y; k < 32; k += 8) {
        fl_i64 j = bx + k, i = by + threadIdx.x;
        if (i < rows && j < cols) {
            dst[j * rows + i] = tile[threadIdx.x][k];
        }
    }
}

// fl_to_bf16 rounds a rows×cols float32 matrix to BF16 (fp8.BF16.Encode32),
// transposed (cols×rows) when transpose is set.
extern "C" __global__ void fl_to_bf16(const float *__restrict__ src, fl_i64 rows, fl_i64 cols, int transpose,
                                      unsigned short *__restrict__ dst) {
    const fl_i64 n = rows * cols;
    for (fl_i64 e = (fl_i64)blockIdx.x * blockDim.x + threadIdx.x; e < n; e += (fl_i64)gridDim.x * blockDim.x) {
        fl_i64 d = e;
        if (transpose) {
            fl_i64 i = fl_udiv(e, cols), j = e - i * cols;
            d = j * rows + i;
        }
        dst[d] = fl_bf16(src[e]);
    }
}

// fl_produce stands for the kernel that writes a matrix a linear layer
// reads (the previous layer's epilogue): it copies n floats from src to dst
// (both 16-byte aligned) and, when amax is not null, folds max |x| into
// *amax (zeroed first) as it writes, as fl_amax_flat does: the fused FP8
// plan's producer, which spares the amax its own pass over the matrix.
extern "C" __global__ void fl_produce(const float *__restrict__ src, fl_i64 n, float *__restrict__ dst, fl_u32 *amax) {
    fl_u32 m = 0;
    const fl_i64 stride = (fl_i64)gridDim.x * blockDim.x;
    const fl_i64 tid = (fl_i64)blockIdx.x * blockDim.x + threadIdx.x;
    const fl_i64 n4 = n / 4;
    for (fl_i64 g = tid; g < n4; g += stride) {
        float4 v = reinterpret_cast<const float4 *>(src)[g];
        reinterpret_cast<float4 *>(dst)[g] = v;
        fl_u32 a = max(fl_f2u(v.x) & 0x7FFFFFFFu, fl_f2u(v.y) & 0x7FFFFFFFu);
        fl_u32 b = max(fl_f2u(v.z) & 0x7FFFFFFFu, fl_f2u(v.w) & 0x7FFFFFFFu);
        m = max(m, max(a, b));
    }
    for (fl_i64 e = n4 * 4 + tid; e < n; e += stride) {
        dst[e] = src[e];
        m = max(m, fl_f2u(src[e]) & 0x7FFFFFFFu);
    }
    if (amax != 0) {
        fl_block_amax(m, amax);
    }
}

// fl_decode_scale writes float32(1/s) of each of n encode multipliers:
// the decode factors cuBLASLt's scale pointers take
// (Quantized.BlockDecodeScale, 1/s in double precision, rounded once).
extern "C" __global__ void fl_decode_scale(const float *s, fl_i64 n, float *d) {
    for (fl_i64 b = (fl_i64)blockIdx.x * blockDim.x + threadIdx.x; b < n; b += (fl_i64)gridDim.x * blockDim.x) {
        d[b] = (float)fl_ddiv(1.0, (double)s[b]);
    }
}

// fl_scale_rowcol multiplies out (M×N) by float32(fa[i]·fb[j]): the decode
// factors of a per-row A and a per-column B, applied after an unscaled FP8
// product, as scaling.ScaledMatMul applies them.
extern "C" __global__ void fl_scale_rowcol(float *out, fl_i64 M, fl_i64 N, const float *fa, const float *fb) {
    const fl_i64 n = M * N;
    for (fl_i64 e = (fl_i64)blockIdx.x * blockDim.x + threadIdx.x; e < n; e += (fl_i64)gridDim.x * blockDim.x) {
        fl_i64 i = fl_udiv(e, N), j = e - i * N;
        out[e] = fl_mul(out[e], fl_mul(fa[i], fb[j]));
    }
}
