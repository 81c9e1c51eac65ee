// hostcheck: runs the device arithmetic of ../common.cuh on the host, so
// that kernels_test.go can compare it bit for bit with the Go packages fp8,
// scaling and dither on machines without a GPU. Built by the test with
//
//	g++ -O2 -std=c++14 -ffp-contract=off -fno-fast-math -I.. hostcheck.cc
//
// (plus -DFL_HAVE_CUDA_FP8 -I<cuda include> when the CUDA headers are at
// hand, for the hardware-conversion emulation of cuda_fp8.hpp).
//
// Usage: hostcheck MODE [ARGS] < little-endian records > little-endian results
//
//	enc FMT          u32 float bits            -> u8 code (nearest even, saturating)
//	sto FMT R        u32 bits, u32 random      -> u8 code (stochastic, R bits)
//	bits             u64 seed, stream, index   -> u32 dither.Bits
//	rule FMT         u32 amax, f64 eps, i32 margin, i32 pow2 -> u32 scale bits
//	mx FMT ROUND     u32 amax                  -> u8 E8M0 code, u32 scale bits
//	bf16             u32 float bits            -> u16
//	fwht LB NORM     float32[] (2^LB per block) -> float32[] as the kernels compute
//	hwemu FMT        u32 float bits            -> u8 (cuda_fp8.hpp satfinite + NaN fix-up)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "common.cuh"

#if defined(FL_HAVE_CUDA_FP8)
#include <cuda_fp8.h>
#endif

template <typename T> static bool get(T *v) { return std::fread(v, sizeof(T), 1, stdin) == 1; }
template <typename T> static void put(T v) { std::fwrite(&v, sizeof(T), 1, stdout); }

// fwht_pass mirrors fl_fwht_pass of sw.cu on the host.
static void fwht_pass(float *buf, fl_i64 ngroups, fl_i64 h, int S, bool scale, float norm) {
    for (fl_i64 q = 0; q < ngroups; q++) {
        fl_i64 base = (q / h) * (h << S) + (q % h);
        float v[8];
        for (int m = 0; m < (1 << S); m++) {
            v[m] = buf[base + m * h];
        }
        if (S == 3) {
            fl_fwht_radix<3>(v);
        } else if (S == 2) {
            fl_fwht_radix<2>(v);
        } else {
            fl_fwht_radix<1>(v);
        }
        for (int m = 0; m < (1 << S); m++) {
            buf[base + m * h] = scale ? fl_mul(v[m], norm) : v[m];
        }
    }
}

// fwht mirrors native/cuda's FWHT: fl_fwht_shared on 4096-element chunks
// for the first min(lb, 12) stages, then fl_fwht_global passes.
static void fwht(std::vector<float> &x, int lb, float norm) {
    const fl_i64 chunk = 4096;
    int first = lb < 12 ? lb : 12;
    fl_i64 total = (fl_i64)x.size();
    for (fl_i64 c0 = 0; c0 < total; c0 += chunk) {
        fl_i64 n = total - c0 < chunk ? total - c0 : chunk;
        for (int s0 = 0; s0 < first; s0 += 3) {
            int S = first - s0 < 3 ? first - s0 : 3;
            fwht_pass(x.data() + c0, n >> S, (fl_i64)1 << s0, S, s0 + S >= lb, norm);
        }
    }
    for (int s0 = 12; s0 < lb; s0 += 3) {
        int S = lb - s0 < 3 ? lb - s0 : 3;
        fwht_pass(x.data(), total >> S, (fl_i64)1 << s0, S, s0 + S >= lb, norm);
    }
}

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: hostcheck MODE [ARGS]\n");
        return 2;
    }
    const char *mode = argv[1];
    int a1 = argc > 2 ? std::atoi(argv[2]) : 0;
    int a2 = argc > 3 ? std::atoi(argv[3]) : 0;
    const fl_fmt f = fl_format(a1);
    if (!std::strcmp(mode, "enc")) {
        fl_u32 u;
        while (get(&u)) {
            put((fl_u8)fl_encode_nearest(u, f));
        }
    } else if (!std::strcmp(mode, "sto")) {
        fl_u32 u, r;
        while (get(&u) && get(&r)) {
            put((fl_u8)fl_encode_stochastic(u, r, (fl_u32)a2, f));
        }
    } else if (!std::strcmp(mode, "bits")) {
        fl_u64 seed, stream, index;
        while (get(&seed) && get(&stream) && get(&index)) {
            put(fl_bits(seed, stream, index));
        }
    } else if (!std::strcmp(mode, "rule")) {
        fl_u32 a;
        double eps;
        int margin, pow2;
        while (get(&a) && get(&eps) && get(&margin) && get(&pow2)) {
            fl_rule r = {eps, margin, pow2};
            put(fl_f2u(fl_rule_scale(fl_u2f(a), f.max_value, r)));
        }
    } else if (!std::strcmp(mode, "mx")) {
        fl_u32 a;
        while (get(&a)) {
            fl_u32 c = fl_mx_code(fl_u2f(a), f, a2);
            put((fl_u8)c);
            put(fl_f2u(fl_mx_scale(c)));
        }
    } else if (!std::strcmp(mode, "bf16")) {
        fl_u32 u;
        while (get(&u)) {
            put(fl_bf16(fl_u2f(u)));
        }
    } else if (!std::strcmp(mode, "fwht")) {
        std::vector<float> x;
        float v;
        while (get(&v)) {
            x.push_back(v);
        }
        fwht(x, a1, fl_u2f((fl_u32)std::strtoul(argv[3], nullptr, 0)));
        std::fwrite(x.data(), sizeof(float), x.size(), stdout);
    } else if (!std::strcmp(mode, "hwemu")) {
#if defined(FL_HAVE_CUDA_FP8)
        fl_u32 u;
        while (get(&u)) {
            __nv_fp8_storage_t c = __nv_cvt_float_to_fp8(fl_u2f(u), __NV_SATFINITE, a1 == FL_E5M2 ? __NV_E5M2 : __NV_E4M3);
            fl_u32 code = c;
            if ((u & 0x7FFFFFFFu) > 0x7F800000u) { // fl_hw_fix
                code = f.nan_code | ((u >> 31) << 7);
            }
            put((fl_u8)code);
        }
#else
        std::fprintf(stderr, "hostcheck: built without cuda_fp8.h\n");
        return 3;
#endif
    } else {
        std::fprintf(stderr, "hostcheck: unknown mode %s\n", mode);
        return 2;
    }
    return std::fflush(stdout) == 0 ? 0 : 1;
}
