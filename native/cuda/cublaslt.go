//go:build cuda

package cuda

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// The cuBLASLt ABI this file uses, declared here so that no cuBLAS header
// or library is needed to build: the library is opened with dlopen at run
// time. Values from cublasLt.h, cublas_api.h and library_types.h of CUDA
// 11.8, unchanged in CUDA 12 and 13.
enum {
	FL_CUDA_R_32F = 0, FL_CUDA_R_16BF = 14, FL_CUDA_R_8F_E4M3 = 28, FL_CUDA_R_8F_E5M2 = 29,
	FL_CUBLAS_COMPUTE_32F = 68,
	FL_CUBLAS_OP_N = 0, FL_CUBLAS_OP_T = 1,
	FL_DESC_TRANSA = 3, FL_DESC_TRANSB = 4,          // cublasLtMatmulDescAttributes_t
	FL_DESC_A_SCALE_POINTER = 17, FL_DESC_B_SCALE_POINTER = 18,
	FL_DESC_FAST_ACCUM = 25,
	FL_PREF_MAX_WORKSPACE_BYTES = 1,                 // cublasLtMatmulPreferenceAttributes_t
	FL_PREF_REDUCTION_SCHEME_MASK = 3,
	FL_REDUCTION_SCHEME_COMPUTE_TYPE = 2,            // cublasLtReductionScheme_t
	FL_STATUS_NOT_SUPPORTED = 15,                    // CUBLAS_STATUS_NOT_SUPPORTED
};

typedef struct { uint64_t data[8]; } fl_algo;     // cublasLtMatmulAlgo_t
typedef struct {                                    // cublasLtMatmulHeuristicResult_t
	fl_algo algo;
	size_t workspaceSize;
	int state;
	float wavesCount;
	int reserved[4];
} fl_heuristic;

typedef int (*fl_create_fn)(void **);
typedef int (*fl_destroy_fn)(void *);
typedef int (*fl_desc_create_fn)(void **, int, int);
typedef int (*fl_set_fn)(void *, int, const void *, size_t);
typedef int (*fl_layout_create_fn)(void **, int, uint64_t, uint64_t, int64_t);
typedef int (*fl_heuristic_fn)(void *, void *, void *, void *, void *, void *, void *, int, fl_heuristic *, int *);
typedef int (*fl_matmul_fn)(void *, void *, const void *, const void *, void *, const void *, void *,
	const void *, const void *, void *, void *, void *, const fl_algo *, void *, size_t, void *);
typedef const char *(*fl_string_fn)(int);
typedef size_t (*fl_version_fn)(void);

static struct {
	void *lib;
	fl_create_fn create;
	fl_destroy_fn destroy;
	fl_desc_create_fn desc_create;
	fl_destroy_fn desc_destroy;
	fl_set_fn desc_set;
	fl_layout_create_fn layout_create;
	fl_destroy_fn layout_destroy;
	fl_create_fn pref_create;
	fl_destroy_fn pref_destroy;
	fl_set_fn pref_set;
	fl_heuristic_fn heuristic;
	fl_matmul_fn matmul;
	fl_string_fn status_name;   // optional
	fl_string_fn status_string; // optional
	fl_version_fn version;      // optional
} fl_lt;

// fl_lt_open loads the library at path; on failure it returns 0 and the
// dlerror text (or the missing symbol) in err.
static int fl_lt_open(const char *path, char *err, size_t errlen) {
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		const char *e = dlerror();
		strncpy(err, e ? e : "dlopen failed", errlen - 1);
		err[errlen - 1] = 0;
		return 0;
	}
#define FL_SYM(field, name) \
	*(void **)(&fl_lt.field) = dlsym(lib, name); \
	if (!fl_lt.field) { snprintf(err, errlen, "%s has no symbol %s", path, name); dlclose(lib); return 0; }
	FL_SYM(create, "cublasLtCreate")
	FL_SYM(destroy, "cublasLtDestroy")
	FL_SYM(desc_create, "cublasLtMatmulDescCreate")
	FL_SYM(desc_destroy, "cublasLtMatmulDescDestroy")
	FL_SYM(desc_set, "cublasLtMatmulDescSetAttribute")
	FL_SYM(layout_create, "cublasLtMatrixLayoutCreate")
	FL_SYM(layout_destroy, "cublasLtMatrixLayoutDestroy")
	FL_SYM(pref_create, "cublasLtMatmulPreferenceCreate")
	FL_SYM(pref_destroy, "cublasLtMatmulPreferenceDestroy")
	FL_SYM(pref_set, "cublasLtMatmulPreferenceSetAttribute")
	FL_SYM(heuristic, "cublasLtMatmulAlgoGetHeuristic")
	FL_SYM(matmul, "cublasLtMatmul")
#undef FL_SYM
	*(void **)(&fl_lt.status_name) = dlsym(lib, "cublasLtGetStatusName");
	*(void **)(&fl_lt.status_string) = dlsym(lib, "cublasLtGetStatusString");
	*(void **)(&fl_lt.version) = dlsym(lib, "cublasLtGetVersion");
	fl_lt.lib = lib;
	return 1;
}

static size_t fl_lt_version(void) { return fl_lt.version ? fl_lt.version() : 0; }
static const char *fl_lt_status_name(int s) { return fl_lt.status_name ? fl_lt.status_name(s) : "CUBLAS_STATUS"; }
static const char *fl_lt_status_string(int s) { return fl_lt.status_string ? fl_lt.status_string(s) : "see cublas_api.h"; }
static int fl_lt_create(uintptr_t *h) { void *p = 0; int s = fl_lt.create(&p); *h = (uintptr_t)p; return s; }
static int fl_lt_destroy(uintptr_t h) { return fl_lt.destroy((void *)h); }

// A plan holds the descriptors and the algorithm of one matrix product
// D (m×n, column-major, ldd = m) = scale_a·scale_b · op(A)·op(B), A of
// type atype stored k×m (op T, the default) or m×k (op N, a_n set), B of
// type btype stored k×n (op N, the default) or n×k (op T, b_t set). FP8
// products on Hopper take only the default, TN.
//
// The heuristic's first FL_ALGOS candidates are kept: cuBLASLt may offer an
// algorithm that cublasLtMatmul then refuses (CUBLAS_STATUS_NOT_SUPPORTED),
// and the next one runs instead.
#define FL_ALGOS 8
typedef struct {
	void *desc, *adesc, *bdesc, *ddesc;
	fl_heuristic h[FL_ALGOS];
	int count, chosen;
} fl_plan;

static void fl_plan_free(fl_plan *p) {
	if (p->ddesc) fl_lt.layout_destroy(p->ddesc);
	if (p->bdesc) fl_lt.layout_destroy(p->bdesc);
	if (p->adesc) fl_lt.layout_destroy(p->adesc);
	if (p->desc) fl_lt.desc_destroy(p->desc);
	free(p);
}

// fl_plan_make returns a cuBLAS status; *stage names the failing call.
static int fl_plan_make(uintptr_t handle, int atype, int btype, int dtype, uint64_t m, uint64_t n, uint64_t k,
		uintptr_t ascale, uintptr_t bscale, int fast_accum, int a_n, int b_t, uint64_t ws_max, uintptr_t *out, const char **stage) {
	fl_plan *p = (fl_plan *)calloc(1, sizeof(fl_plan));
	void *pref = 0;
	int s, ta = a_n ? FL_CUBLAS_OP_N : FL_CUBLAS_OP_T, tb = b_t ? FL_CUBLAS_OP_T : FL_CUBLAS_OP_N, count = 0;
	int8_t fa = (int8_t)fast_accum;
	// Split-K partial sums are reduced in the compute type (float32), never
	// in the output type: a BF16 reduction would round every partial sum.
	uint32_t reduction = FL_REDUCTION_SCHEME_COMPUTE_TYPE;
	void *as = (void *)ascale, *bs = (void *)bscale;
	*out = 0;
	if (!p) { *stage = "calloc"; return 3; } // CUBLAS_STATUS_ALLOC_FAILED
#define FL_TRY(call, name) if ((s = (call)) != 0) { *stage = name; goto fail; }
	FL_TRY(fl_lt.desc_create(&p->desc, FL_CUBLAS_COMPUTE_32F, FL_CUDA_R_32F), "cublasLtMatmulDescCreate")
	FL_TRY(fl_lt.desc_set(p->desc, FL_DESC_TRANSA, &ta, sizeof ta), "cublasLtMatmulDescSetAttribute(TRANSA)")
	FL_TRY(fl_lt.desc_set(p->desc, FL_DESC_TRANSB, &tb, sizeof tb), "cublasLtMatmulDescSetAttribute(TRANSB)")
	if (ascale) FL_TRY(fl_lt.desc_set(p->desc, FL_DESC_A_SCALE_POINTER, &as, sizeof as), "cublasLtMatmulDescSetAttribute(A_SCALE_POINTER)")
	if (bscale) FL_TRY(fl_lt.desc_set(p->desc, FL_DESC_B_SCALE_POINTER, &bs, sizeof bs), "cublasLtMatmulDescSetAttribute(B_SCALE_POINTER)")
	if (atype == FL_CUDA_R_8F_E4M3 || atype == FL_CUDA_R_8F_E5M2)
		FL_TRY(fl_lt.desc_set(p->desc, FL_DESC_FAST_ACCUM, &fa, sizeof fa), "cublasLtMatmulDescSetAttribute(FAST_ACCUM)")
	if (a_n) {
		FL_TRY(fl_lt.layout_create(&p->adesc, atype, m, k, (int64_t)m), "cublasLtMatrixLayoutCreate(A)")
	} else {
		FL_TRY(fl_lt.layout_create(&p->adesc, atype, k, m, (int64_t)k), "cublasLtMatrixLayoutCreate(A)")
	}
	if (b_t) {
		FL_TRY(fl_lt.layout_create(&p->bdesc, btype, n, k, (int64_t)n), "cublasLtMatrixLayoutCreate(B)")
	} else {
		FL_TRY(fl_lt.layout_create(&p->bdesc, btype, k, n, (int64_t)k), "cublasLtMatrixLayoutCreate(B)")
	}
	FL_TRY(fl_lt.layout_create(&p->ddesc, dtype, m, n, (int64_t)m), "cublasLtMatrixLayoutCreate(D)")
	FL_TRY(fl_lt.pref_create(&pref), "cublasLtMatmulPreferenceCreate")
	FL_TRY(fl_lt.pref_set(pref, FL_PREF_MAX_WORKSPACE_BYTES, &ws_max, sizeof ws_max), "cublasLtMatmulPreferenceSetAttribute(MAX_WORKSPACE_BYTES)")
	FL_TRY(fl_lt.pref_set(pref, FL_PREF_REDUCTION_SCHEME_MASK, &reduction, sizeof reduction),
		"cublasLtMatmulPreferenceSetAttribute(REDUCTION_SCHEME_MASK)")
	FL_TRY(fl_lt.heuristic((void *)handle, p->desc, p->adesc, p->bdesc, p->ddesc, p->ddesc, pref, FL_ALGOS, p->h, &count),
		"cublasLtMatmulAlgoGetHeuristic")
	if (count == 0) { s = FL_STATUS_NOT_SUPPORTED; *stage = "cublasLtMatmulAlgoGetHeuristic (no algorithm)"; goto fail; }
#undef FL_TRY
	fl_lt.pref_destroy(pref);
	p->count = count;
	*out = (uintptr_t)p;
	return 0;
fail:
	if (pref) fl_lt.pref_destroy(pref);
	fl_plan_free(p);
	return s;
}

static void fl_plan_destroy(uintptr_t plan) { if (plan) fl_plan_free((fl_plan *)plan); }

// fl_plan_chosen returns the index of the candidate that runs, and the count.
static int fl_plan_chosen(uintptr_t plan, int *count) { *count = ((fl_plan *)plan)->count; return ((fl_plan *)plan)->chosen; }

// fl_plan_run launches the product on the default stream with the chosen
// candidate; when cuBLASLt refuses it, the next candidate becomes the
// chosen one.
static int fl_plan_run(uintptr_t handle, uintptr_t plan, uintptr_t a, uintptr_t b, uintptr_t d, uintptr_t ws, uint64_t ws_size) {
	fl_plan *p = (fl_plan *)plan;
	float alpha = 1.0f, beta = 0.0f;
	int s = FL_STATUS_NOT_SUPPORTED;
	for (; p->chosen < p->count; p->chosen++) {
		s = fl_lt.matmul((void *)handle, p->desc, &alpha, (const void *)a, p->adesc, (const void *)b, p->bdesc,
			&beta, (const void *)d, p->ddesc, (void *)d, p->ddesc, &p->h[p->chosen].algo, (void *)ws, (size_t)ws_size, 0);
		if (s != FL_STATUS_NOT_SUPPORTED) {
			break;
		}
	}
	if (p->chosen == p->count) {
		p->chosen = 0; // a later run starts over (and fails the same way)
	}
	return s;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unsafe"

	"github.com/fp8lab/fp8lab/native"
	"gorgonia.org/cu"
)

// cuBLASLt data types (cudaDataType_t).
const (
	typeF32  = C.FL_CUDA_R_32F
	typeBF16 = C.FL_CUDA_R_16BF
	typeE4M3 = C.FL_CUDA_R_8F_E4M3
	typeE5M2 = C.FL_CUDA_R_8F_E5M2
)

// WorkspaceBytes is the cuBLASLt workspace each product may use (32 MiB,
// what cuBLAS recommends for Hopper).
const WorkspaceBytes = 32 << 20

// ErrNoCUBLASLt is wrapped by the error of a product when no cuBLASLt
// library could be opened.
var ErrNoCUBLASLt = errors.New("cuda: cuBLASLt not found")

var libOnce struct {
	sync.Once
	path string
	err  error
}

// LibraryCandidates returns where the cuBLASLt library is looked for, in
// order: $FP8LAB_CUBLASLT (a file); libcublasLt.so.13, .12 and .11 under
// $CUDA_HOME, $CUDA_PATH and /usr/local/cuda (lib64 and
// targets/x86_64-linux/lib); inside the Python packages that PyTorch
// installs (site-packages/nvidia/cublas/lib and nvidia/cu*/lib of every
// Python prefix found: $VIRTUAL_ENV, $CONDA_PREFIX, /usr/local, /usr,
// /opt/conda, ~/.local); then the bare names on the loader's path.
func LibraryCandidates() []string {
	var out []string
	if p := os.Getenv("FP8LAB_CUBLASLT"); p != "" {
		out = append(out, p)
	}
	names := []string{"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so.11"}
	for _, dir := range []string{os.Getenv("CUDA_HOME"), os.Getenv("CUDA_PATH"), "/usr/local/cuda"} {
		if dir == "" {
			continue
		}
		for _, n := range names {
			out = append(out, filepath.Join(dir, "lib64", n), filepath.Join(dir, "targets", "x86_64-linux", "lib", n))
		}
	}
	for _, dir := range pythonLibDirs() {
		for _, n := range names {
			out = append(out, filepath.Join(dir, n))
		}
	}
	return append(out, names...)
}

// pythonLibDirs returns the existing directories where pip's NVIDIA
// packages put cuBLAS: site-packages/nvidia/cublas/lib (CUDA 12 wheels) and
// site-packages/nvidia/cu*/lib (CUDA 13 wheels), under every Python prefix
// that is set or exists, in a stable order without repeats.
func pythonLibDirs() []string {
	home, _ := os.UserHomeDir()
	prefixes := []string{os.Getenv("VIRTUAL_ENV"), os.Getenv("CONDA_PREFIX"), "/usr/local", "/usr", "/opt/conda"}
	if home != "" {
		prefixes = append(prefixes, filepath.Join(home, ".local"))
	}
	var out []string
	seen := map[string]bool{}
	for _, pre := range prefixes {
		if pre == "" {
			continue
		}
		for _, pattern := range []string{"lib/python3*/*-packages/nvidia/cublas/lib", "lib/python3*/*-packages/nvidia/cu*/lib"} {
			dirs, _ := filepath.Glob(filepath.Join(pre, pattern)) // the patterns are valid
			for _, d := range dirs {
				if !seen[d] {
					seen[d] = true
					out = append(out, d)
				}
			}
		}
	}
	return out
}

// openLibrary dlopens the first cuBLASLt candidate that loads (once per process).
func openLibrary() (string, error) {
	libOnce.Do(func() {
		var tried []string
		buf := (*C.char)(C.malloc(512))
		defer C.free(unsafe.Pointer(buf))
		for _, p := range LibraryCandidates() {
			if strings.ContainsRune(p, '/') {
				if _, err := os.Stat(p); err != nil {
					continue
				}
			}
			cp := C.CString(p)
			ok := C.fl_lt_open(cp, buf, 512)
			C.free(unsafe.Pointer(cp))
			if ok != 0 {
				libOnce.path = p
				return
			}
			tried = append(tried, C.GoString(buf))
		}
		// A missing library is a limit of this machine, not a failing device.
		libOnce.err = fmt.Errorf("%w (%w): tried %s; set FP8LAB_CUBLASLT to the library's path: %s",
			ErrNoCUBLASLt, native.ErrUnsupported, strings.Join(LibraryCandidates(), ", "), strings.Join(tried, "; "))
	})
	return libOnce.path, libOnce.err
}

// cublasLt is an open cuBLASLt handle with its workspace.
type cublasLt struct {
	handle    C.uintptr_t
	path      string
	version   int
	workspace cu.DevicePtr
}

// ltError turns a cuBLAS status into an *Error.
func ltError(op string, status C.int) error {
	if status == 0 {
		return nil
	}
	return &Error{Op: op, Code: int(status), Name: C.GoString(C.fl_lt_status_name(status)), Message: C.GoString(C.fl_lt_status_string(status))}
}

// openLt opens the library, a handle and the workspace; called with the
// context current.
func openLt() (*cublasLt, error) {
	path, err := openLibrary()
	if err != nil {
		return nil, err
	}
	lt := &cublasLt{path: path, version: int(C.fl_lt_version())}
	if err := ltError("cublasLtCreate", C.fl_lt_create(&lt.handle)); err != nil {
		return nil, err
	}
	ws, err := cu.MemAlloc(WorkspaceBytes)
	if err != nil {
		C.fl_lt_destroy(lt.handle)
		return nil, check("cuMemAlloc(cuBLASLt workspace)", err)
	}
	lt.workspace = ws
	return lt, nil
}

func (lt *cublasLt) close() error {
	_ = cu.MemFree(lt.workspace)
	return ltError("cublasLtDestroy", C.fl_lt_destroy(lt.handle))
}

// plan is a prepared product (see fl_plan_make).
type plan struct {
	lt *cublasLt
	p  C.uintptr_t
}

// gemmSpec describes D (m×n, column-major) = sa·sb · Aᵀ·B with A stored
// k×m and B stored k×n (both K-major: the TN layout FP8 needs).
type gemmSpec struct {
	atype, btype, dtype int
	m, n, k             int
	ascale, bscale      cu.DevicePtr // device float32 scales, or 0
	fastAccum           bool
	aN, bT              bool // A not transposed (stored m×k), B transposed (stored n×k); both false is TN
}

func (lt *cublasLt) plan(s gemmSpec) (*plan, error) {
	var out C.uintptr_t
	var stage *C.char
	fa := C.int(0)
	if s.fastAccum {
		fa = 1
	}
	an, bt := C.int(0), C.int(0)
	if s.aN {
		an = 1
	}
	if s.bT {
		bt = 1
	}
	st := C.fl_plan_make(lt.handle, C.int(s.atype), C.int(s.btype), C.int(s.dtype), C.uint64_t(s.m), C.uint64_t(s.n),
		C.uint64_t(s.k), C.uintptr_t(s.ascale), C.uintptr_t(s.bscale), fa, an, bt, WorkspaceBytes, &out, &stage)
	if st != 0 {
		return nil, ltError(fmt.Sprintf("%s (m=%d n=%d k=%d)", C.GoString(stage), s.m, s.n, s.k), st)
	}
	return &plan{lt: lt, p: out}, nil
}

// run launches the product on the default stream.
func (p *plan) run(a, b, d cu.DevicePtr) error {
	st := C.fl_plan_run(p.lt.handle, p.p, C.uintptr_t(a), C.uintptr_t(b), C.uintptr_t(d), C.uintptr_t(p.lt.workspace), WorkspaceBytes)
	if st != 0 {
		var count C.int
		C.fl_plan_chosen(p.p, &count)
		return ltError(fmt.Sprintf("cublasLtMatmul (each of the heuristic's %d algorithms)", int(count)), st)
	}
	return nil
}

// algorithm returns which of the heuristic's candidates runs (0 is its
// first choice) and how many it offered.
func (p *plan) algorithm() (chosen, count int) {
	var c C.int
	ch := C.fl_plan_chosen(p.p, &c)
	return int(ch), int(c)
}

func (p *plan) destroy() { C.fl_plan_destroy(p.p) }
