package tensorio

import (
	"encoding/binary"
	"math"

	"github.com/fp8lab/fp8lab/fp8"
)

// The safetensors dtypes, as the reference implementation's Dtype enum
// names them (huggingface/safetensors, safetensors/src/tensor.rs: BOOL, F4,
// F6_E2M3, F6_E3M2, U8, I8, F8_E5M2, F8_E4M3, F8_E8M0, F8_E4M3FNUZ,
// F8_E5M2FNUZ, I16, U16, F16, BF16, I32, U32, F32, C64, F64, I64, U64; the
// Python binding maps torch.float8_e8m0fnu to F8_E8M0 and
// torch.float4_e2m1fn_x2 to F4). Each has a width in bits; F4 and F6 are
// packed, the byte count of a tensor being ceil(elements·bits/8).
//
// Packing of the sub-byte types: F4 holds two E2M1 values per byte, the
// first in the low nibble (PyTorch's float4_e2m1fn_x2). F6 values are read
// as a little-endian bit stream: value i occupies bits 6i…6i+5, so three
// bytes hold four values. The format's specification does not pin the F6
// bit order down; this is the OCP MX convention for packed elements.
var dtypeBits = map[string]int{
	"BOOL": 8, "U8": 8, "I8": 8, "I16": 16, "U16": 16, "I32": 32, "U32": 32,
	"I64": 64, "U64": 64, "C64": 64,
	"F64": 64, "F32": 32, "F16": 16, "BF16": 16,
	"F8_E4M3": 8, "F8_E5M2": 8, "F8_E8M0": 8, "F8_E4M3FNUZ": 8, "F8_E5M2FNUZ": 8,
	"F6_E2M3": 6, "F6_E3M2": 6, "F4": 4,
}

// codec decodes one dtype: groups of groupBytes bytes hold groupVals values.
type codec struct {
	groupBytes, groupVals int
	// decode fills dst (len = groups·groupVals) from src (groups·groupBytes).
	decode func(dst []float32, src []byte)
}

// byteFormat decodes one fp8-family code per byte with fp8's table.
func byteFormat(f *fp8.Format) codec {
	return codec{1, 1, func(dst []float32, src []byte) { _ = f.DecodeSlice32(dst, src) }}
}

// packed decodes bits-wide codes of f packed as described at dtypeBits.
func packed(f *fp8.Format, bits int) codec {
	gv := 8 / gcd(8, bits)
	gb := gv * bits / 8
	mask := uint32(1)<<bits - 1
	var tab [64]float32
	for c := range uint32(mask + 1) {
		tab[c] = f.Decode32(uint8(c))
	}
	return codec{gb, gv, func(dst []float32, src []byte) {
		for g := 0; g < len(src)/gb; g++ {
			var w uint32
			for k := 0; k < gb; k++ {
				w |= uint32(src[g*gb+k]) << (8 * k)
			}
			for k := 0; k < gv; k++ {
				dst[g*gv+k] = tab[(w>>(bits*k))&mask]
			}
		}
	}}
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// codecs are the dtypes this package decodes; every other dtype of
// dtypeBits is listed by Open but not decoded.
var codecs = map[string]codec{
	"F64": {8, 1, func(dst []float32, src []byte) {
		for i := range dst {
			dst[i] = float32(math.Float64frombits(binary.LittleEndian.Uint64(src[8*i:])))
		}
	}},
	"F32": {4, 1, func(dst []float32, src []byte) {
		for i := range dst {
			dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
		}
	}},
	"F16": {2, 1, func(dst []float32, src []byte) {
		for i := range dst {
			dst[i] = fp8.FP16.Decode(binary.LittleEndian.Uint16(src[2*i:]))
		}
	}},
	"BF16": {2, 1, func(dst []float32, src []byte) {
		// fp8.BF16.Decode, inlined: a BF16 is the top half of a float32.
		for i := range dst {
			dst[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(src[2*i:])) << 16)
		}
	}},
	"F32" + bigEndian: {4, 1, func(dst []float32, src []byte) {
		for i := range dst {
			dst[i] = math.Float32frombits(binary.BigEndian.Uint32(src[4*i:]))
		}
	}},
	"F16" + bigEndian: {2, 1, func(dst []float32, src []byte) {
		for i := range dst {
			dst[i] = fp8.FP16.Decode(binary.BigEndian.Uint16(src[2*i:]))
		}
	}},
	"F64" + bigEndian: {8, 1, func(dst []float32, src []byte) {
		for i := range dst {
			dst[i] = float32(math.Float64frombits(binary.BigEndian.Uint64(src[8*i:])))
		}
	}},
	"F8_E4M3":     byteFormat(fp8.E4M3FN),
	"F8_E5M2":     byteFormat(fp8.E5M2),
	"F8_E8M0":     byteFormat(fp8.E8M0),
	"F8_E4M3FNUZ": byteFormat(fp8.E4M3FNUZ),
	"F8_E5M2FNUZ": byteFormat(fp8.E5M2FNUZ),
	"F6_E2M3":     packed(fp8.E2M3, 6),
	"F6_E3M2":     packed(fp8.E3M2, 6),
	"F4":          packed(fp8.E2M1, 4),
}

// DTypes returns the safetensors dtypes this package decodes.
func DTypes() []string {
	return []string{"F64", "F32", "F16", "BF16", "F8_E4M3", "F8_E5M2", "F8_E8M0",
		"F8_E4M3FNUZ", "F8_E5M2FNUZ", "F6_E2M3", "F6_E3M2", "F4"}
}

// dtypeBytes is the byte count of n values of a dtype of the given width,
// or -1 when it overflows an int64.
func dtypeBytes(n int64, bits int) int64 {
	if n > math.MaxInt64/int64(bits) {
		return -1
	}
	return (n*int64(bits) + 7) / 8
}
