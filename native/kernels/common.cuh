// common.cuh: the arithmetic shared by the fp8lab CUDA kernels and by the
// host test harness (testdata/hostcheck.cc), which compiles it with g++ and
// checks it bit for bit against the Go packages fp8, scaling and dither.
//
// Everything here is a port of Go code; each function names its original.
// Float operations use explicit round-to-nearest intrinsics (__fadd_rn,
// __fmul_rn, __fdiv_rn) so that nvcc never contracts them into FMAs, and
// the kernels are compiled without --use_fast_math: subnormals are kept.
#pragma once

#if defined(__CUDACC__)
#define FL_HD __host__ __device__ __forceinline__
#else
#include <cstdint>
#include <cstring>
#define FL_HD static inline
#endif

typedef unsigned int fl_u32;
typedef unsigned long long fl_u64;
typedef long long fl_i64;
typedef unsigned char fl_u8;

// ---- bit casts and IEEE operations -------------------------------------

FL_HD fl_u32 fl_f2u(float f) {
#if defined(__CUDA_ARCH__)
    return __float_as_uint(f);
#else
    fl_u32 u;
    std::memcpy(&u, &f, sizeof u);
    return u;
#endif
}

FL_HD float fl_u2f(fl_u32 u) {
#if defined(__CUDA_ARCH__)
    return __uint_as_float(u);
#else
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
#endif
}

FL_HD fl_u64 fl_d2u(double d) {
#if defined(__CUDA_ARCH__)
    return (fl_u64)__double_as_longlong(d);
#else
    fl_u64 u;
    std::memcpy(&u, &d, sizeof u);
    return u;
#endif
}

FL_HD double fl_u2d(fl_u64 u) {
#if defined(__CUDA_ARCH__)
    return __longlong_as_double((long long)u);
#else
    double d;
    std::memcpy(&d, &u, sizeof d);
    return d;
#endif
}

FL_HD float fl_add(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}

FL_HD float fl_sub(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fsub_rn(a, b);
#else
    return a - b;
#endif
}

FL_HD float fl_mul(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}

// fl_scale is x · s for the quantize kernels. A GPU's multiply returns the
// canonical NaN (0x7FFFFFFF) for any NaN operand, dropping its sign, where
// the CPU (and so the fp8 package) keeps the NaN it was given: a NaN
// passes through unscaled, so that -NaN still encodes to 0xFF.
FL_HD float fl_scale(float x, float s) {
    return x != x ? x : fl_mul(x, s);
}

FL_HD float fl_div(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fdiv_rn(a, b);
#else
    return a / b;
#endif
}

FL_HD double fl_ddiv(double a, double b) {
#if defined(__CUDA_ARCH__)
    return __ddiv_rn(a, b);
#else
    return a / b;
#endif
}

FL_HD double fl_dmul(double a, double b) {
#if defined(__CUDA_ARCH__)
    return __dmul_rn(a, b);
#else
    return a * b;
#endif
}

// fl_d2f rounds a double to the nearest float (Go's float32(x)).
FL_HD float fl_d2f(double d) {
#if defined(__CUDA_ARCH__)
    return __double2float_rn(d);
#else
    return (float)d;
#endif
}

// ---- FP8 formats (fp8/fast32.go: newFast32) ------------------------------

// fl_fmt holds the float32 fast-path constants of an FP8 format.
struct fl_fmt {
    fl_u32 min_normal; // float32 bits of the smallest normal value
    fl_u32 drop;       // 23 - mantissa bits
    fl_u32 rebias;     // (127 - bias) << mantissa bits
    fl_u32 magic_bits; // float32 bits of 2^(emin - m + 23)
    fl_u32 max_mag;    // magnitude code of the largest finite value
    fl_u32 nan_code;   // the positive NaN code
    int emin;          // unbiased exponent of the smallest normal binade
    int mx_emax;       // emax_elem of OCP MX v1.0
    double max_value;  // the largest finite value
};

// Format ids, as native/cuda passes them.
#define FL_E4M3FN 0
#define FL_E5M2 1

FL_HD fl_fmt fl_format(int id) {
    fl_fmt f;
    if (id == FL_E5M2) { // bias 15, 2 mantissa bits, IEEE specials
        f.min_normal = 113u << 23;        // 2^-14
        f.drop = 21;
        f.rebias = (127u - 15u) << 2;
        f.magic_bits = (127u + 7u) << 23; // 2^(-14 - 2 + 23) = 2^7
        f.max_mag = 0x7B;                 // 57344
        f.nan_code = 0x7E;                // quiet NaN S.11111.10
        f.emin = -14;
        f.mx_emax = 15;
        f.max_value = 57344.0;
    } else { // E4M3FN: bias 7, 3 mantissa bits, NaN = S.1111.111
        f.min_normal = 121u << 23;         // 2^-6
        f.drop = 20;
        f.rebias = (127u - 7u) << 3;
        f.magic_bits = (127u + 14u) << 23; // 2^(-6 - 3 + 23) = 2^14
        f.max_mag = 0x7E;                  // 448
        f.nan_code = 0x7F;
        f.emin = -6;
        f.mx_emax = 8;
        f.max_value = 448.0;
    }
    return f;
}

// fl_special encodes a NaN or ±Inf input (a = |bits|) as fp8's encode does
// in the Saturate mode: NaN keeps its sign, ±Inf saturates to ±Max. It also
// serves finite overflow, which saturates too.
FL_HD fl_u32 fl_special(fl_u32 u, fl_u32 a, const fl_fmt &f) {
    fl_u32 sign = (u >> 31) << 7;
    if (a > 0x7F800000u) {
        return f.nan_code | sign;
    }
    return f.max_mag | sign;
}

// fl_encode_nearest is fp8's encodeNearest32 (round to nearest even,
// saturating) for one float32 given by its bits. Negative zero and negative
// values that round to zero keep the sign (0x80): E4M3FN and E5M2 have -0.
FL_HD fl_u32 fl_encode_nearest(fl_u32 u, const fl_fmt &f) {
    fl_u32 a = u & 0x7FFFFFFFu;
    if (a >= 0x7F800000u) {
        return fl_special(u, a, f);
    }
    fl_u32 mag;
    if (a >= f.min_normal) {
        mag = ((a + ((1u << (f.drop - 1)) - 1u) + ((a >> f.drop) & 1u)) >> f.drop) - f.rebias;
        if (mag > f.max_mag) {
            mag = f.max_mag;
        }
    } else {
        // Adding 2^(emin-m+23) rounds the value onto the subnormal grid.
        mag = fl_f2u(fl_add(fl_u2f(a), fl_u2f(f.magic_bits))) - f.magic_bits;
    }
    return mag | ((u >> 31) << 7);
}

// fl_round_tiny is fp8's roundTiny for Stochastic: v/2^k (k > 63) rounds
// up exactly when v/2^k + rnd/2^r >= 1.
FL_HD fl_u64 fl_round_tiny(fl_u64 v, fl_u32 k, fl_u32 r, fl_u32 rnd) {
    fl_u64 need = (1ull << r) - ((fl_u64)rnd & ((1ull << r) - 1ull));
    fl_u32 s = k - r;
    if (s < 53 && need <= ((1ull << 53) >> s) && v >= (need << s)) {
        return 1;
    }
    return 0;
}

// fl_round_shift_sto is fp8's roundShift for Stochastic: v/2^k with the low
// r bits of rnd added below the last kept bit, then truncated.
FL_HD fl_u64 fl_round_shift_sto(fl_u64 v, fl_u32 k, fl_u32 r, fl_u32 rnd) {
    if (k > 63) {
        if (v == 0) {
            return 0;
        }
        return fl_round_tiny(v, k, r, rnd);
    }
    fl_u64 add = (fl_u64)rnd & ((1ull << r) - 1ull);
    if (r <= k) {
        add <<= (k - r);
    } else {
        add >>= (r - k);
    }
    return (v + add) >> k;
}

// fl_encode_stochastic is fp8's encodeStochastic32 (saturating): the low r
// bits (1..32) of rnd are added below the last kept mantissa bit (the
// subnormal ULP in subnormals) and the sum is truncated.
FL_HD fl_u32 fl_encode_stochastic(fl_u32 u, fl_u32 rnd, fl_u32 r, const fl_fmt &f) {
    fl_u32 a = u & 0x7FFFFFFFu;
    fl_u32 mask = r >= 32 ? 0xFFFFFFFFu : (1u << r) - 1u;
    rnd &= mask;
    fl_u32 mag;
    if (a >= f.min_normal && a < 0x7F800000u) {
        fl_u64 add = rnd;
        if (r <= f.drop) {
            add <<= (f.drop - r);
        } else {
            add >>= (r - f.drop);
        }
        mag = (fl_u32)(((fl_u64)a + add) >> f.drop) - f.rebias;
    } else if (a < f.min_normal) {
        fl_u64 sig;
        int e;
        if (a < 0x00800000u) { // float32 subnormal
            sig = a;
            e = -126;
        } else {
            sig = (a & 0x7FFFFFu) | 0x800000u;
            e = (int)(a >> 23) - 127;
        }
        mag = (fl_u32)fl_round_shift_sto(sig, (fl_u32)((int)f.drop + f.emin - e), r, rnd);
    } else {
        return fl_special(u, a, f); // NaN or ±Inf
    }
    if (mag > f.max_mag) {
        return f.max_mag | ((u >> 31) << 7); // finite overflow saturates
    }
    return mag | ((u >> 31) << 7);
}

// ---- Philox4x32-10 (dither/philox.go, dither/stream.go) ------------------

#define FL_PHILOX_M0 0xD2511F53u
#define FL_PHILOX_M1 0xCD9E8D57u
#define FL_PHILOX_W0 0x9E3779B9u
#define FL_PHILOX_W1 0xBB67AE85u

FL_HD void fl_philox_round(fl_u32 c[4], fl_u32 k0, fl_u32 k1) {
#if defined(__CUDA_ARCH__)
    fl_u32 hi0 = __umulhi(FL_PHILOX_M0, c[0]), lo0 = FL_PHILOX_M0 * c[0];
    fl_u32 hi1 = __umulhi(FL_PHILOX_M1, c[2]), lo1 = FL_PHILOX_M1 * c[2];
#else
    fl_u64 p0 = (fl_u64)FL_PHILOX_M0 * c[0], p1 = (fl_u64)FL_PHILOX_M1 * c[2];
    fl_u32 hi0 = (fl_u32)(p0 >> 32), lo0 = (fl_u32)p0;
    fl_u32 hi1 = (fl_u32)(p1 >> 32), lo1 = (fl_u32)p1;
#endif
    fl_u32 n0 = hi1 ^ c[1] ^ k0, n2 = hi0 ^ c[3] ^ k1;
    c[0] = n0;
    c[1] = lo1;
    c[2] = n2;
    c[3] = lo0;
}

// fl_philox encrypts the counter c in place under the key (k0, k1).
FL_HD void fl_philox(fl_u32 c[4], fl_u32 k0, fl_u32 k1) {
#pragma unroll
    for (int i = 0; i < 9; i++) {
        fl_philox_round(c, k0, k1);
        k0 += FL_PHILOX_W0;
        k1 += FL_PHILOX_W1;
    }
    fl_philox_round(c, k0, k1);
}

// fl_philox_block returns in w the four words of Philox block `block` of a
// stream: words 4·block .. 4·block+3, that is dither.Bits(seed, stream, i)
// for i = 4·block + j.
FL_HD void fl_philox_block(fl_u64 seed, fl_u64 stream, fl_u64 block, fl_u32 w[4]) {
    w[0] = (fl_u32)block;
    w[1] = (fl_u32)(block >> 32);
    w[2] = (fl_u32)stream;
    w[3] = (fl_u32)(stream >> 32);
    fl_philox(w, (fl_u32)seed, (fl_u32)(seed >> 32));
}

// fl_bits is dither.Bits(seed, stream, index).
FL_HD fl_u32 fl_bits(fl_u64 seed, fl_u64 stream, fl_u64 index) {
    fl_u32 w[4];
    fl_philox_block(seed, stream, (index >> 2) & ((1ull << 62) - 1ull), w);
    // Selects rather than w[index & 3], which would put w in local memory.
    fl_u32 lo = (index & 1) ? w[1] : w[0], hi = (index & 1) ? w[3] : w[2];
    return (index & 2) ? hi : lo;
}

// ---- scale rules (scaling/scale.go) --------------------------------------

// Scale-rule parameters, packed by native/cuda.
struct fl_rule {
    double eps;  // amax floor (ScaleRule.eps())
    int margin;  // ScaleRule.Margin
    int pow2;    // 0 none, 1 down, 2 up (scaling.Pow2)
};

// fl_rule_scale is ScaleRule.scale for a finite, non-negative amax:
// clamp(roundPow2(Max / max(amax, eps) · 2^-margin)), stored as float32.
FL_HD float fl_rule_scale(float amax, double fmt_max, fl_rule r) {
    double a = (double)amax;
    double s = fl_ddiv(fmt_max, a > r.eps ? a : r.eps);
    // s · 2^-margin: one multiplication by an exact power of two (|margin|
    // <= 1000 keeps it a normal double), the same single rounding as
    // math.Ldexp; results below 2^-126 are clamped below anyway.
    s = fl_dmul(s, fl_u2d((fl_u64)(1023 - r.margin) << 52));
    fl_u64 b = fl_d2u(s);
    const double min_scale = 1.1754943508222875e-38; // 2^-126
    if (r.pow2 != 0 && s >= min_scale && b < 0x7FF0000000000000ull && (b & 0xFFFFFFFFFFFFFull) != 0) {
        b &= 0xFFF0000000000000ull; // 2^floor(log2 s)
        if (r.pow2 == 2) {
            b += 1ull << 52; // 2^ceil(log2 s), possibly +Inf
        }
        s = fl_u2d(b);
    }
    double hi = r.pow2 != 0 ? 1.7014118346046923e+38 /* 2^127 */ : 3.4028234663852886e+38; // MaxFloat32
    if (s < min_scale) {
        s = min_scale;
    }
    if (s > hi) {
        s = hi;
    }
    return fl_d2f(s);
}

// fl_mx_code is scaling.MXScale: the E8M0 code of a block of amax amax.
// rounding: 0 floor (OCP), 1 ceil, 2 nearest even.
FL_HD fl_u32 fl_mx_code(float amax, const fl_fmt &f, int rounding) {
    if (amax == 0.0f) {
        return 0; // 2^-127
    }
    double a = (double)amax; // a float32 is a normal double
    fl_u64 ab = fl_d2u(a);
    if (rounding == 0) {
        int k = (int)((ab >> 52) & 0x7FF) - 1023 - f.mx_emax;
        k = k < -127 ? -127 : (k > 127 ? 127 : k);
        return (fl_u32)(k + 127);
    }
    // fp8.EncodeE8M0(amax / Max): round the double's exponent up or to
    // nearest even, saturating at 0xFE, raising tiny values to 0x00.
    double x = fl_ddiv(a, f.max_value);
    fl_u64 xb = fl_d2u(x);
    int e = (int)(xb >> 52) - 1023;
    if (e < -127) {
        return 0;
    }
    fl_u64 q = xb >> 52;
    fl_u64 rem = xb & 0xFFFFFFFFFFFFFull;
    if (rem != 0) {
        if (rounding == 1 || rem > (1ull << 51) || (rem == (1ull << 51) && (q & 1ull))) {
            q++;
        }
    }
    q -= 896; // (1023 - 127)
    return q > 254 ? 254u : (fl_u32)q;
}

// fl_mx_scale returns the encode multiplier 2^-k of an E8M0 code (k =
// code - 127), a float32 that is subnormal for k = 127.
FL_HD float fl_mx_scale(fl_u32 code) {
    int k = (int)code - 127;
    return fl_d2f(fl_u2d((fl_u64)(1023 - k) << 52));
}

// ---- BF16 (fp8.BF16.Encode32: nearest even, overflow to Inf) -------------

FL_HD unsigned short fl_bf16(float x) {
    fl_u32 u = fl_f2u(x);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) {
        return (unsigned short)(((u >> 16) & 0x8000u) | 0x7FC0u);
    }
    return (unsigned short)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

// ---- Walsh–Hadamard butterflies (scaling/hadamard.go: fwht) --------------

// fl_fwht_radix runs S (1..3) consecutive butterfly stages on 2^S values
// v[m] = x[base + m·h]: first the pairs at distance 1 in m (stride h in x),
// then 2, then 4, each (u, v) -> (u + v, u - v) as in scaling's fwht.
template <int S> FL_HD void fl_fwht_radix(float *v) {
#pragma unroll
    for (int s = 0; s < S; s++) {
#pragma unroll
        for (int m = 0; m < (1 << S); m++) {
            if ((m & (1 << s)) == 0) {
                float a = v[m], b = v[m + (1 << s)];
                v[m] = fl_add(a, b);
                v[m + (1 << s)] = fl_sub(a, b);
            }
        }
    }
}
