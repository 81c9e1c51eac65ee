//go:build cuda

// Package drivercheck initializes the CUDA driver before gorgonia.org/cu
// does, so that a machine without a usable GPU gets one clear line and exit
// status 2 instead of cu's own message and status 1.
//
// gorgonia.org/cu calls cuInit in its package initialisation and ends the
// process when it fails. Go (1.21 and later) initializes packages in the
// order of their import paths among those whose imports are ready; this
// package imports nothing cu does not, and "github.com/..." sorts before
// "gorgonia.org/...", so its init runs first in every binary that imports
// both (native/cuda does).
package drivercheck

/*
#cgo LDFLAGS: -lcuda
#include <cuda.h>

static int fl_driver_check(int *count, int *version, const char **name, const char **msg) {
	*count = 0;
	*version = 0;
	CUresult r = cuInit(0);
	if (r == CUDA_SUCCESS) {
		cuDriverGetVersion(version);
		r = cuDeviceGetCount(count);
	}
	if (r != CUDA_SUCCESS) {
		if (cuGetErrorName(r, name) != CUDA_SUCCESS) *name = "CUDA_ERROR_UNKNOWN";
		if (cuGetErrorString(r, msg) != CUDA_SUCCESS) *msg = "unknown error";
	}
	return (int)r;
}
*/
import "C"

import (
	"fmt"
	"os"
	"path/filepath"
)

// Devices is the number of CUDA devices cuInit found (at least 1 once
// init has returned).
var Devices int

// DriverVersion is the CUDA driver's version, e.g. 12040 for 12.4.
var DriverVersion int

func init() {
	var count, version C.int
	var name, msg *C.char
	r := C.fl_driver_check(&count, &version, &name, &msg)
	prog := filepath.Base(os.Args[0])
	switch {
	case r != 0:
		fmt.Fprintf(os.Stderr, "%s: no usable GPU: cuInit failed: %s (%s)\n", prog, C.GoString(name), C.GoString(msg))
		os.Exit(2)
	case count == 0:
		fmt.Fprintf(os.Stderr, "%s: no usable GPU: the CUDA driver found no device\n", prog)
		os.Exit(2)
	}
	Devices, DriverVersion = int(count), int(version)
}
