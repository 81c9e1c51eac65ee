// emulate: runs the real kernels of sw.cu on the host, one coroutine
// (ucontext fiber) per CUDA thread, so that the launch programs of
// native/internal/launch can be checked against the Go core on machines
// without a GPU. Built by native/internal/launch's tests with
//
//	g++ -std=c++17 -O1 -ffp-contract=off -fno-fast-math -I.. emulate.cc
//
// Emulated: grids and blocks (blocks run one after another, the threads of
// a block as fibers that switch at barriers), __syncthreads,
// __shfl_xor_sync (per-warp barriers), __shared__ arrays (one block at a
// time, so function statics serve), atomicMax. A barrier that not every
// thread reaches is reported as a deadlock. Device arithmetic uses the host paths of common.cuh,
// which testdata/hostcheck.cc compares with the Go packages. Not emulated:
// the hardware FP8 kernels (hw.cu) and cuBLASLt.
//
// Input (stdin, little-endian): u32 buffers, then per buffer i64 bytes, u8
// mode (0 blank, 1 zero, 2 data) and the data; u32 steps, then per step
// u32 name length, name, i32 gridX gridY blockX blockY, u32 args, then per
// arg u8 kind (0 buffer) and u64 bits; u32 outputs, then the buffer indices.
// Output: the bytes of each output buffer. Blank buffers start as 0xCD
// bytes, so that a kernel that leaves an element unwritten is noticed.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <csetjmp>
#include <functional>
#include <map>
#include <string>
#include <ucontext.h>
#include <vector>

struct dim3 {
    unsigned x = 1, y = 1, z = 1;
};
struct alignas(16) uint4 {
    unsigned x, y, z, w;
};
struct alignas(16) float4 {
    float x, y, z, w;
};
static inline float4 make_float4(float x, float y, float z, float w) { return float4{x, y, z, w}; }

// One fiber per CUDA thread of the running block.
// A fiber starts with makecontext/swapcontext; after that, switches use
// _setjmp/_longjmp, which (unlike swapcontext) make no system call.
struct Fiber {
    ucontext_t ctx;
    jmp_buf jb;
    std::vector<char> stack;
    dim3 tid;
    int warp = 0, lane = 0;
    bool started = false, done = false;
};
static ucontext_t scheduler;
static jmp_buf scheduler_jb;
static std::vector<Fiber> fibers;
static size_t cur;
static unsigned long long progress; // barrier releases and finished fibers

static dim3 gridDim, blockDim, blockIdx;
#define threadIdx (fibers[cur].tid)

static void yield() {
    if (!_setjmp(fibers[cur].jb)) {
        _longjmp(scheduler_jb, 1);
    }
}

// Barrier blocks its fiber until n fibers have arrived.
struct Barrier {
    unsigned n = 0, arrived = 0, gen = 0;
    void wait() {
        unsigned g = gen;
        if (++arrived == n) {
            arrived = 0;
            gen++;
            progress++;
            return;
        }
        while (gen == g) {
            yield();
        }
    }
};
static Barrier block_barrier;
static std::vector<Barrier> warp_barriers;
static std::vector<std::vector<uint64_t>> warp_slots;

static void __syncthreads() { block_barrier.wait(); }

template <typename T> static T __shfl_xor_sync(unsigned, T v, int mask) {
    Fiber &f = fibers[cur];
    std::memcpy(&warp_slots[f.warp][f.lane], &v, sizeof v);
    warp_barriers[f.warp].wait();
    T r;
    std::memcpy(&r, &warp_slots[f.warp][f.lane ^ mask], sizeof r);
    warp_barriers[f.warp].wait();
    return r;
}

static unsigned atomicMax(unsigned *p, unsigned v) {
    unsigned old = *p;
    if (v > old) {
        *p = v;
    }
    return old;
}

static inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static

#include "sw.cu"

typedef std::function<void(const std::vector<uint64_t> &)> Kernel;

// Argument casts: slots hold pointers, long long, int, u64, float, double.
#define P(T, i) reinterpret_cast<T>(a[i])
#define L(i) static_cast<long long>(a[i])
#define I(i) static_cast<int>(static_cast<uint32_t>(a[i]))
#define U(i) static_cast<unsigned long long>(a[i])
static float F(uint64_t s) {
    uint32_t u = (uint32_t)s;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
static double D(uint64_t s) {
    double d;
    std::memcpy(&d, &s, 8);
    return d;
}

static std::map<std::string, Kernel> kernels() {
    std::map<std::string, Kernel> k;
    k["fl_encode4_sw"] = [](const std::vector<uint64_t> &a) {
        fl_encode4_sw(P(const float *, 0), L(1), L(2), L(3), L(4), L(5), P(const float *, 6), I(7), P(fl_u8 *, 8), I(9), U(10), U(11), I(12), P(fl_u32 *, 13));
    };
    k["fl_encode1_sw"] = [](const std::vector<uint64_t> &a) {
        fl_encode1_sw(P(const float *, 0), L(1), L(2), L(3), L(4), L(5), P(const float *, 6), I(7), P(fl_u8 *, 8), I(9), U(10), U(11), I(12), P(fl_u32 *, 13));
    };
    k["fl_rowseg4_sw"] = [](const std::vector<uint64_t> &a) {
        fl_rowseg4_sw(P(const float *, 0), L(1), L(2), L(3), L(4), I(5), I(6), I(7), D(a[8]), I(9), I(10), I(11), I(12), U(13), U(14), I(15),
                      P(fl_u8 *, 16), P(float *, 17), P(fl_u32 *, 18), P(fl_u8 *, 19));
    };
    k["fl_rowseg1_sw"] = [](const std::vector<uint64_t> &a) {
        fl_rowseg1_sw(P(const float *, 0), L(1), L(2), L(3), L(4), I(5), I(6), I(7), D(a[8]), I(9), I(10), I(11), I(12), U(13), U(14), I(15),
                      P(fl_u8 *, 16), P(float *, 17), P(fl_u32 *, 18), P(fl_u8 *, 19));
    };
    k["fl_amax_flat"] = [](const std::vector<uint64_t> &a) { fl_amax_flat(P(const float *, 0), L(1), P(fl_u32 *, 2)); };
    k["fl_amax_seg"] = [](const std::vector<uint64_t> &a) {
        fl_amax_seg(P(const float *, 0), L(1), L(2), L(3), L(4), L(5), I(6), P(fl_u32 *, 7));
    };
    k["fl_scales"] = [](const std::vector<uint64_t> &a) {
        fl_scales(P(const fl_u32 *, 0), L(1), I(2), I(3), D(a[4]), I(5), I(6), I(7), P(float *, 8), P(fl_u8 *, 9));
    };
    k["fl_dequant"] = [](const std::vector<uint64_t> &a) {
        fl_dequant(P(const fl_u8 *, 0), L(1), L(2), L(3), L(4), L(5), P(const float *, 6), P(const float *, 7), I(8), I(9), P(float *, 10));
    };
    k["fl_fwht_shared"] = [](const std::vector<uint64_t> &a) { fl_fwht_shared(P(float *, 0), L(1), I(2), I(3), F(a[4])); };
    k["fl_fwht_global"] = [](const std::vector<uint64_t> &a) { fl_fwht_global(P(float *, 0), L(1), L(2), I(3), I(4), F(a[5])); };
    k["fl_transpose_u8"] = [](const std::vector<uint64_t> &a) { fl_transpose_u8(P(const fl_u8 *, 0), L(1), L(2), P(fl_u8 *, 3)); };
    k["fl_to_bf16"] = [](const std::vector<uint64_t> &a) { fl_to_bf16(P(const float *, 0), L(1), L(2), I(3), P(unsigned short *, 4)); };
    k["fl_scale_rowcol"] = [](const std::vector<uint64_t> &a) {
        fl_scale_rowcol(P(float *, 0), L(1), L(2), P(const float *, 3), P(const float *, 4));
    };
    k["fl_produce"] = [](const std::vector<uint64_t> &a) { fl_produce(P(const float *, 0), L(1), P(float *, 2), P(fl_u32 *, 3)); };
    k["fl_decode_scale"] = [](const std::vector<uint64_t> &a) { fl_decode_scale(P(const float *, 0), L(1), P(float *, 2)); };
    k["fl_cast_transpose_sw"] = [](const std::vector<uint64_t> &a) {
        fl_cast_transpose_sw(P(const float *, 0), L(1), L(2), P(const fl_u32 *, 3), I(4), D(a[5]), I(6), I(7), P(fl_u8 *, 8),
                             P(fl_u8 *, 9), P(float *, 10), P(float *, 11));
    };
    return k;
}

static const Kernel *run_kernel;
static const std::vector<uint64_t> *run_args;

static void fiber_main() {
    (*run_kernel)(*run_args);
    fibers[cur].done = true;
    progress++;
    _longjmp(scheduler_jb, 1);
}

// launch runs one kernel on the grid, block after block.
static void launch(const Kernel &k, dim3 grid, dim3 block, const std::vector<uint64_t> &args) {
    gridDim = grid;
    blockDim = block;
    run_kernel = &k;
    run_args = &args;
    unsigned n = block.x * block.y, nwarps = (n + 31) / 32;
    fibers.assign(n, Fiber());
    for (unsigned by = 0; by < grid.y; by++) {
        for (unsigned bx = 0; bx < grid.x; bx++) {
            blockIdx.x = bx;
            blockIdx.y = by;
            block_barrier = Barrier{n};
            warp_barriers.assign(nwarps, Barrier{});
            for (unsigned w = 0; w < nwarps; w++) {
                warp_barriers[w].n = w + 1 < nwarps || n % 32 == 0 ? 32 : n % 32;
            }
            warp_slots.assign(nwarps, std::vector<uint64_t>(32));
            for (unsigned t = 0; t < n; t++) {
                Fiber &f = fibers[t];
                f.stack.resize(1 << 16);
                f.tid.x = t % block.x;
                f.tid.y = t / block.x;
                f.warp = (int)(t / 32);
                f.lane = (int)(t % 32);
                f.done = false;
                f.started = false;
                getcontext(&f.ctx);
                f.ctx.uc_stack.ss_sp = f.stack.data();
                f.ctx.uc_stack.ss_size = f.stack.size();
                f.ctx.uc_link = &scheduler;
                makecontext(&f.ctx, fiber_main, 0);
            }
            for (unsigned left = n; left > 0;) {
                unsigned long long before = progress;
                left = 0;
                for (cur = 0; cur < n; cur++) {
                    Fiber &f = fibers[cur];
                    if (f.done) {
                        continue;
                    }
                    if (!_setjmp(scheduler_jb)) {
                        if (!f.started) {
                            f.started = true;
                            swapcontext(&scheduler, &f.ctx);
                        } else {
                            _longjmp(f.jb, 1);
                        }
                    }
                    left += fibers[cur].done ? 0 : 1;
                }
                if (left > 0 && progress == before) {
                    std::fprintf(stderr, "emulate: deadlock: %u threads of block (%u, %u) wait at a barrier the others do not reach\n", left, bx, by);
                    std::exit(4);
                }
            }
        }
    }
}

template <typename T> static T get() {
    T v;
    if (std::fread(&v, sizeof v, 1, stdin) != 1) {
        std::fprintf(stderr, "emulate: short input\n");
        std::exit(2);
    }
    return v;
}

int main() {
    auto table = kernels();
    uint32_t nbuf = get<uint32_t>();
    std::vector<std::vector<unsigned char>> bufs(nbuf);
    for (auto &b : bufs) {
        int64_t bytes = get<int64_t>();
        uint8_t mode = get<uint8_t>();
        b.assign((size_t)bytes + 16, mode == 1 ? 0 : 0xCD); // +16: no vector read runs off the end
        if (mode == 2 && bytes > 0 && std::fread(b.data(), 1, (size_t)bytes, stdin) != (size_t)bytes) {
            std::fprintf(stderr, "emulate: short buffer\n");
            return 2;
        }
        b.resize((size_t)bytes + 16);
    }
    uint32_t nsteps = get<uint32_t>();
    for (uint32_t s = 0; s < nsteps; s++) {
        uint32_t len = get<uint32_t>();
        std::string name(len, '\0');
        if (std::fread(name.data(), 1, len, stdin) != len) {
            return 2;
        }
        dim3 grid, block;
        grid.x = (unsigned)get<int32_t>();
        grid.y = (unsigned)get<int32_t>();
        block.x = (unsigned)get<int32_t>();
        block.y = (unsigned)get<int32_t>();
        uint32_t nargs = get<uint32_t>();
        std::vector<uint64_t> args(nargs);
        for (auto &arg : args) {
            uint8_t kind = get<uint8_t>();
            uint64_t bits = get<uint64_t>();
            arg = kind == 0 ? (uint64_t)(uintptr_t)bufs.at(bits).data() : bits;
        }
        auto it = table.find(name);
        if (it == table.end()) {
            std::fprintf(stderr, "emulate: no kernel %s\n", name.c_str());
            return 3;
        }
        launch(it->second, grid, block, args);
    }
    uint32_t nout = get<uint32_t>();
    for (uint32_t o = 0; o < nout; o++) {
        auto &b = bufs.at(get<uint32_t>());
        std::fwrite(b.data(), 1, b.size() - 16, stdout);
    }
    return std::fflush(stdout) == 0 ? 0 : 1;
}
