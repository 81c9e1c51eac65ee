// hw.cu: the quantize kernels with the hardware FP8 conversion
// cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 (PTX ISA 7.8, sm_89 and up).
// Compiled to PTX for compute_89; the driver JIT-compiles it for Ada,
// Hopper and later GPUs. Stochastic rounding has no hardware instruction
// before sm_100, so these kernels fall back to the software codec for it.
#define FL_WITH_HW 1
#include "quant.cuh"

FL_DEFINE_QUANT_KERNELS(hw, true)
