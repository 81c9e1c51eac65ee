//go:build cuda

package cuda

/*
#include <cuda.h>

static const char *fl_error_name(int r) {
	const char *s = 0;
	if (cuGetErrorName((CUresult)r, &s) != CUDA_SUCCESS || s == 0) return "CUDA_ERROR_UNKNOWN";
	return s;
}

static const char *fl_error_string(int r) {
	const char *s = 0;
	if (cuGetErrorString((CUresult)r, &s) != CUDA_SUCCESS || s == 0) return "unknown error";
	return s;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/fp8lab/fp8lab/native"
)

// Error is a failure of a CUDA driver or cuBLASLt call. It wraps
// native.ErrDevice, and ErrOutOfMemory when the device ran out of memory.
type Error struct {
	Op      string // what was being done, e.g. "cuMemAlloc(1073741824 bytes)"
	Code    int    // the CUresult or cublasStatus_t
	Name    string // e.g. CUDA_ERROR_OUT_OF_MEMORY
	Message string // the library's description, e.g. "out of memory"
}

// ErrOutOfMemory is wrapped by an Error from an allocation that failed for
// lack of device memory (CUDA_ERROR_OUT_OF_MEMORY, CUBLAS_STATUS_ALLOC_FAILED).
var ErrOutOfMemory = errors.New("cuda: out of device memory")

// Error returns "cuda: OP: NAME: MESSAGE".
func (e *Error) Error() string {
	return fmt.Sprintf("cuda: %s: %s: %s", e.Op, e.Name, e.Message)
}

// Unwrap returns native.ErrDevice, plus ErrOutOfMemory where it applies.
func (e *Error) Unwrap() []error {
	if e.Name == "CUDA_ERROR_OUT_OF_MEMORY" || e.Name == "CUBLAS_STATUS_ALLOC_FAILED" {
		return []error{native.ErrDevice, ErrOutOfMemory}
	}
	return []error{native.ErrDevice}
}

// check turns an error returned by gorgonia.org/cu (a CUresult) into an
// *Error carrying the driver's own name and message for it.
func check(op string, err error) error {
	if err == nil {
		return nil
	}
	code := -1
	if v := reflect.ValueOf(err); v.Kind() >= reflect.Int && v.Kind() <= reflect.Int64 {
		code = int(v.Int()) // cu's cuResult is the CUresult number
	}
	if code < 0 {
		return fmt.Errorf("cuda: %s: %w (%w)", op, err, native.ErrDevice)
	}
	return &Error{Op: op, Code: code, Name: C.GoString(C.fl_error_name(C.int(code))), Message: C.GoString(C.fl_error_string(C.int(code)))}
}
