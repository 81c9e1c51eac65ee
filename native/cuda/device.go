//go:build cuda

// Package cuda is the CUDA backend of package native: the operations of
// native.Backend as FP8 kernels (native/kernels, PTX loaded with
// cuModuleLoadData through gorgonia.org/cu) and cuBLASLt matrix products
// (the library opened at run time with dlopen, so no CUDA version is fixed
// at link time).
//
// Build with -tags cuda against CUDA headers and the libcuda stub
// (scripts/cuda-headers.sh). gorgonia.org/cu initializes the driver when the
// program starts and ends it when that fails; this package checks first
// (internal/drivercheck) and exits with one clear line and status 2 on a
// machine without a usable GPU. Nothing in the default build imports it.
//
// Codes, scales and stochastic roundings are meant to be bit-identical to
// the CPU backend's (native/parity checks it); products agree within
// native.GEMMTolFP8 and native.GEMMTolBF16.
//
// Status: this package was written and compile-checked on a machine without
// a GPU. The kernels' arithmetic and launch programs are checked on the host
// (native/kernels and native/internal/launch tests, which compile the CUDA
// sources with g++); the hardware-conversion kernels, cuBLASLt and every
// timing are unverified until `fp8lab-gpu parity` and `bench` run on a GPU.
package cuda

import (
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/fp8lab/fp8lab/native"
	"github.com/fp8lab/fp8lab/native/cuda/internal/drivercheck"
	"github.com/fp8lab/fp8lab/native/kernels"
	"gorgonia.org/cu"
)

// Device is the CUDA backend on one GPU. It implements native.Backend; its
// methods are safe for concurrent use (they are serialized, each running on
// a locked OS thread with the device's primary context current).
type Device struct {
	mu      sync.Mutex
	closed  bool
	dev     cu.Device
	ctx     cu.CUContext
	sw, hw  cu.Module
	hasHW   bool
	fns     map[string]cu.Function
	lt      *cublasLt // opened on first use
	props   Properties
	threads int // threads per block of the elementwise kernels
}

// Properties describe a GPU.
type Properties struct {
	Ordinal       int     `json:"ordinal"`
	Name          string  `json:"name"`
	Major         int     `json:"major"`
	Minor         int     `json:"minor"`
	SMs           int     `json:"sms"`
	MemoryBytes   int64   `json:"memory_bytes"`
	MemoryClockHz int64   `json:"memory_clock_hz"`
	BusWidthBits  int     `json:"bus_width_bits"`
	PeakGBps      float64 `json:"peak_gbps"` // 2 × clock × bus width: the theoretical DRAM bandwidth
	Driver        int     `json:"driver"`    // e.g. 12040 for CUDA 12.4
	Devices       int     `json:"devices"`   // GPUs the driver sees
}

// ComputeCapability returns "sm_90" style text.
func (p Properties) ComputeCapability() string { return fmt.Sprintf("sm_%d%d", p.Major, p.Minor) }

// DriverString returns the driver's CUDA version as "12.4".
func (p Properties) DriverString() string {
	return fmt.Sprintf("%d.%d", p.Driver/1000, p.Driver%1000/10)
}

var _ native.Backend = (*Device)(nil)

// Open retains the primary context of GPU ordinal and loads the kernels:
// the software module everywhere, the hardware-conversion module on sm_90
// and later (and on sm_89 where the driver accepts PTX ISA 8.1).
func Open(ordinal int) (*Device, error) {
	if ordinal < 0 || ordinal >= drivercheck.Devices {
		return nil, fmt.Errorf("%w: GPU %d: the driver sees %d", native.ErrInvalidArgument, ordinal, drivercheck.Devices)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	dev, err := cu.GetDevice(ordinal)
	if err != nil {
		return nil, check("cuDeviceGet", err)
	}
	d := &Device{dev: dev, fns: map[string]cu.Function{}, threads: 256}
	if err := d.readProperties(ordinal); err != nil {
		return nil, err
	}
	ctx, err := dev.RetainPrimaryCtx()
	if err != nil {
		return nil, check("cuDevicePrimaryCtxRetain", err)
	}
	d.ctx = ctx
	if err := cu.SetCurrentContext(ctx); err != nil {
		_ = dev.ReleasePrimaryCtx()
		return nil, check("cuCtxSetCurrent", err)
	}
	if err := d.load(); err != nil {
		d.unload()
		_ = dev.ReleasePrimaryCtx()
		return nil, err
	}
	return d, nil
}

func (d *Device) readProperties(ordinal int) error {
	name, err := d.dev.Name()
	if err != nil {
		return check("cuDeviceGetName", err)
	}
	attrs, err := d.dev.Attributes(cu.ComputeCapabilityMajor, cu.ComputeCapabilityMinor, cu.MultiprocessorCount,
		cu.MemoryClockRate, cu.GlobalMemoryBusWidth)
	if err != nil {
		return check("cuDeviceGetAttribute", err)
	}
	mem, err := d.dev.TotalMem()
	if err != nil {
		return check("cuDeviceTotalMem", err)
	}
	p := Properties{Ordinal: ordinal, Name: name, Major: attrs[0], Minor: attrs[1], SMs: attrs[2],
		MemoryClockHz: int64(attrs[3]) * 1000, BusWidthBits: attrs[4], MemoryBytes: mem,
		Driver: drivercheck.DriverVersion, Devices: drivercheck.Devices}
	p.PeakGBps = 2 * float64(p.MemoryClockHz) * float64(p.BusWidthBits) / 8 / 1e9
	d.props = p
	d.hasHW = p.Major >= 9 || p.Major == 8 && p.Minor >= 9
	return nil
}

// load loads the PTX modules and looks up every kernel.
func (d *Device) load() error {
	var err error
	if d.sw, err = cu.LoadData(kernels.SoftwarePTX); err != nil {
		return check("cuModuleLoadData(sw.ptx, compute_70)", err)
	}
	for _, name := range kernels.SoftwareKernels {
		fn, err := d.sw.Function(name)
		if err != nil {
			return check("cuModuleGetFunction("+name+")", err)
		}
		d.fns[name] = fn
	}
	if !d.hasHW {
		return nil
	}
	ptx := kernels.HardwarePTX
	if d.props.Major == 8 {
		// Ada (sm_89) has the instruction from PTX ISA 8.1 on; nvcc 11.8
		// writes ISA 7.8, which allows it on sm_90 only. Declaring ISA 8.1
		// for sm_89 lets a CUDA 12.1+ driver compile the same text; where
		// it refuses, the software codec is all there is.
		ptx = strings.Replace(ptx, ".version 7.8\n.target sm_90", ".version 8.1\n.target sm_89", 1)
		if d.hw, err = cu.LoadData(ptx); err != nil {
			d.hasHW = false
			return nil
		}
	} else if d.hw, err = cu.LoadData(ptx); err != nil {
		return check("cuModuleLoadData(hw.ptx, compute_90)", err)
	}
	for _, name := range kernels.HardwareKernels {
		fn, err := d.hw.Function(name)
		if err != nil {
			return check("cuModuleGetFunction("+name+")", err)
		}
		d.fns[name] = fn
	}
	return nil
}

func (d *Device) unload() {
	var zero cu.Module
	if d.sw != zero {
		_ = d.sw.Unload()
	}
	if d.hw != zero {
		_ = d.hw.Unload()
	}
}

// Properties returns what Open found out about the GPU.
func (d *Device) Properties() Properties { return d.props }

// Info describes the backend.
func (d *Device) Info() native.Info {
	p := d.props
	return native.Info{
		Name:        "cuda",
		Device:      fmt.Sprintf("%s (%s, %d SMs, %.0f GiB, CUDA driver %s)", p.Name, p.ComputeCapability(), p.SMs, float64(p.MemoryBytes)/(1<<30), p.DriverString()),
		HardwareFP8: d.hasHW,
	}
}

// do runs fn with the device locked, on a locked OS thread with the
// context current, and synchronizes afterwards so that asynchronous kernel
// failures are reported by the call that caused them.
func (d *Device) do(op string, fn func() error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return native.ErrClosed
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := cu.SetCurrentContext(d.ctx); err != nil {
		return check("cuCtxSetCurrent", err)
	}
	err := fn()
	if serr := check(op+": cuCtxSynchronize", cu.Synchronize()); err == nil {
		err = serr
	}
	return err
}

// Close frees the cuBLASLt handle and the modules and releases the
// primary context.
func (d *Device) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil
	}
	d.closed = true
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	_ = cu.SetCurrentContext(d.ctx)
	var err error
	if d.lt != nil {
		err = d.lt.close()
	}
	d.unload()
	if rerr := check("cuDevicePrimaryCtxRelease", d.dev.ReleasePrimaryCtx()); err == nil {
		err = rerr
	}
	return err
}
