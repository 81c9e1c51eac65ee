// Package kernels holds the CUDA C sources of fp8lab's GPU kernels and
// their PTX, generated with nvcc and embedded here so that the CUDA backend
// (native/cuda) loads them with cuModuleLoadData and the driver compiles
// them for the GPU at hand. The package has no cgo and imports nothing from
// CUDA: it is always built and tested, GPU or not.
//
// Modules: sw.ptx (compute_70: amax, scales, the software FP8 codec,
// dequantize, Hadamard, matrix-product helpers; any GPU from Volta on) and
// hw.ptx (compute_90: the same quantize kernels with the hardware
// conversion cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32).
//
// Regenerate after editing a .cu or .cuh file:
//
//	go generate ./native/kernels
//
// Each .ptx file starts with the sha256 of its sources; a test fails when
// they no longer match, and, where nvcc 11.8 is installed, another checks
// that regenerating gives the committed bytes.
package kernels

import _ "embed" // for the PTX files

//go:generate go run genptx.go

// SoftwarePTX is the PTX of sw.cu (compute_70).
//
//go:embed sw.ptx
var SoftwarePTX string

// HardwarePTX is the PTX of hw.cu (compute_90).
//
//go:embed hw.ptx
var HardwarePTX string

// Kernel names, as the .cu files declare them (extern "C").
const (
	AmaxFlat     = "fl_amax_flat"
	AmaxSeg      = "fl_amax_seg"
	Scales       = "fl_scales"
	Dequant      = "fl_dequant"
	FWHTShared   = "fl_fwht_shared"
	FWHTGlobal   = "fl_fwht_global"
	TransposeU8  = "fl_transpose_u8"
	ToBF16       = "fl_to_bf16"
	ScaleRowCol  = "fl_scale_rowcol"
	Produce      = "fl_produce"
	DecodeScale  = "fl_decode_scale"
	CastTransSW  = "fl_cast_transpose_sw"
	CastTransHW  = "fl_cast_transpose_hw"
	Encode4SW    = "fl_encode4_sw"
	Encode1SW    = "fl_encode1_sw"
	RowSeg4SW    = "fl_rowseg4_sw"
	RowSeg1SW    = "fl_rowseg1_sw"
	Encode4HW    = "fl_encode4_hw"
	Encode1HW    = "fl_encode1_hw"
	RowSeg4HW    = "fl_rowseg4_hw"
	RowSeg1HW    = "fl_rowseg1_hw"
	FWHTChunk    = 4096 // elements a thread block of fl_fwht_shared holds
	FormatE4M3FN = 0    // format ids of the kernels (common.cuh)
	FormatE5M2   = 1
)

// SoftwareKernels lists the entry points of SoftwarePTX.
var SoftwareKernels = []string{Encode4SW, Encode1SW, RowSeg4SW, RowSeg1SW, CastTransSW, AmaxFlat, AmaxSeg, Scales, Dequant,
	FWHTShared, FWHTGlobal, TransposeU8, ToBF16, ScaleRowCol, Produce, DecodeScale}

// HardwareKernels lists the entry points of HardwarePTX.
var HardwareKernels = []string{Encode4HW, Encode1HW, RowSeg4HW, RowSeg1HW, CastTransHW}
