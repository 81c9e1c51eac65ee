package fp8

import (
	"math"
	"unsafe"
)

// The kernels of fast32.go for the two formats bulk encoding is mostly
// about, E4M3FN and E5M2, with every format constant written as a Go
// constant. The generic loops have more live values than amd64 has
// registers and spill them, and variable shifts tie up CL; these do not.
// Two more things save instructions: the input is read as uint32 words (no
// move from a float register), and the rare cases, subnormal results and
// NaN or ±Inf inputs, share one out-of-line branch, a single unsigned
// comparison of a - minNormal. TestPresetKernelConstants checks the
// constants against newFast32; the tests compare the kernels with the core.

// words32 views s as its bit patterns.
func words32(s []float32) []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// words64 views s as its bit patterns.
func words64(s []float64) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// Constants of E4M3FN (see fast32).
const (
	dropE4M3FN      = 20
	biasE4M3FN      = 0x3c000000
	minNormalE4M3FN = 0x3c800000
	magicE4M3FN     = 0x1p14
	magicBitsE4M3FN = 0x46800000
	subScaleE4M3FN  = 0x1p9
	maxMagE4M3FN    = 0x7e
	subKE4M3FN      = 141
)

// nearestE4M3FN is nearestAny32 for E4M3FN. Every mode the kernels serve has
// ovf = maxMag (saturating) or maxMag + 1 (Inf or NaN), so a min clamps.
func nearestE4M3FN(_ *fast32, d []uint8, s []float32, ovf uint32) uint32 {
	w := words32(s)
	d = d[:len(w)]
	var special uint32
	for i, u := range w {
		a := u & 0x7FFFFFFF
		mag := (a - biasE4M3FN + (1<<(dropE4M3FN-1) - 1) + (a>>dropE4M3FN)&1) >> dropE4M3FN
		if a-minNormalE4M3FN >= 0x7F800000-minNormalE4M3FN {
			if a >= 0x7F800000 {
				special = 1 << 31
			} else {
				mag = math.Float32bits(math.Float32frombits(a)+magicE4M3FN) - magicBitsE4M3FN
			}
		}
		d[i] = uint8(min(mag, ovf)) | uint8(u>>24)&0x80
	}
	return special
}

// towardZeroE4M3FN is towardZeroAny32 for E4M3FN.
func towardZeroE4M3FN(_ *fast32, d []uint8, s []float32, _ uint32) uint32 {
	w := words32(s)
	d = d[:len(w)]
	var special uint32
	for i, u := range w {
		a := u & 0x7FFFFFFF
		mag := (a - biasE4M3FN) >> dropE4M3FN
		if a-minNormalE4M3FN >= 0x7F800000-minNormalE4M3FN {
			if a >= 0x7F800000 {
				special = 1 << 31
			} else {
				mag = uint32(int32(math.Float32frombits(a) * subScaleE4M3FN))
			}
		}
		d[i] = uint8(min(mag, maxMagE4M3FN)) | uint8(u>>24)&0x80
	}
	return special
}

// stochasticE4M3FN is stochasticAny32 for E4M3FN.
func stochasticE4M3FN(_ *fast32, d []uint8, s []float32, rw []uint32, r, ovf uint32) uint32 {
	mask, scale, kmax := uint32(1<<r-1), uint64(1)<<(56-r), uint64(r+24)
	w := words32(s)
	d = d[:len(w)]
	rw = rw[:len(w)]
	var special uint32
	for i, u := range w {
		a := u & 0x7FFFFFFF
		rs := uint64(rw[i]&mask) * scale
		mag := (a + uint32(rs>>(56-dropE4M3FN)) - biasE4M3FN) >> dropE4M3FN
		if a-minNormalE4M3FN >= 0x7F800000-minNormalE4M3FN {
			if a >= 0x7F800000 {
				special = 1 << 31
			} else {
				sig := uint64(a&0x7FFFFF | min(a, 0x800000)&0x800000)
				k := min(subKE4M3FN-uint64(max(a>>23, 1)), kmax)
				mag = uint32((sig<<((56-k)&63) + rs) >> 56)
			}
		}
		d[i] = uint8(min(mag, ovf)) | uint8(u>>24)&0x80
	}
	return special
}

// nearest64E4M3FN is nearest64 for E4M3FN.
func nearest64E4M3FN(d []uint8, s []float64, ovf uint32) uint64 {
	const drop, bias, minNormal, magic, magicBits = 49, 0x3f80000000000000, 0x3f90000000000000, 0x1p43, 0x42a0000000000000
	w := words64(s)
	d = d[:len(w)]
	var special uint64
	for i, u := range w {
		a := u &^ (1 << 63)
		mag := (a - bias + (1<<(drop-1) - 1) + (a>>drop)&1) >> drop
		if a-minNormal >= 0x7FF0000000000000-minNormal {
			if a >= 0x7FF0000000000000 {
				special = 1 << 63
			} else {
				mag = math.Float64bits(math.Float64frombits(a)+magic) - magicBits
			}
		}
		d[i] = uint8(min(mag, uint64(ovf))) | uint8(u>>56)&0x80
	}
	return special
}

// Constants of E5M2 (see fast32).
const (
	dropE5M2      = 21
	biasE5M2      = 0x38000000
	minNormalE5M2 = 0x38800000
	magicE5M2     = 0x1p7
	magicBitsE5M2 = 0x43000000
	subScaleE5M2  = 0x1p16
	maxMagE5M2    = 0x7b
	subKE5M2      = 134
)

// nearestE5M2 is nearestAny32 for E5M2. Every mode the kernels serve has
// ovf = maxMag (saturating) or maxMag + 1 (Inf or NaN), so a min clamps.
func nearestE5M2(_ *fast32, d []uint8, s []float32, ovf uint32) uint32 {
	w := words32(s)
	d = d[:len(w)]
	var special uint32
	for i, u := range w {
		a := u & 0x7FFFFFFF
		mag := (a - biasE5M2 + (1<<(dropE5M2-1) - 1) + (a>>dropE5M2)&1) >> dropE5M2
		if a-minNormalE5M2 >= 0x7F800000-minNormalE5M2 {
			if a >= 0x7F800000 {
				special = 1 << 31
			} else {
				mag = math.Float32bits(math.Float32frombits(a)+magicE5M2) - magicBitsE5M2
			}
		}
		d[i] = uint8(min(mag, ovf)) | uint8(u>>24)&0x80
	}
	return special
}

// towardZeroE5M2 is towardZeroAny32 for E5M2.
func towardZeroE5M2(_ *fast32, d []uint8, s []float32, _ uint32) uint32 {
	w := words32(s)
	d = d[:len(w)]
	var special uint32
	for i, u := range w {
		a := u & 0x7FFFFFFF
		mag := (a - biasE5M2) >> dropE5M2
		if a-minNormalE5M2 >= 0x7F800000-minNormalE5M2 {
			if a >= 0x7F800000 {
				special = 1 << 31
			} else {
				mag = uint32(int32(math.Float32frombits(a) * subScaleE5M2))
			}
		}
		d[i] = uint8(min(mag, maxMagE5M2)) | uint8(u>>24)&0x80
	}
	return special
}

// stochasticE5M2 is stochasticAny32 for E5M2.
func stochasticE5M2(_ *fast32, d []uint8, s []float32, rw []uint32, r, ovf uint32) uint32 {
	mask, scale, kmax := uint32(1<<r-1), uint64(1)<<(56-r), uint64(r+24)
	w := words32(s)
	d = d[:len(w)]
	rw = rw[:len(w)]
	var special uint32
	for i, u := range w {
		a := u & 0x7FFFFFFF
		rs := uint64(rw[i]&mask) * scale
		mag := (a + uint32(rs>>(56-dropE5M2)) - biasE5M2) >> dropE5M2
		if a-minNormalE5M2 >= 0x7F800000-minNormalE5M2 {
			if a >= 0x7F800000 {
				special = 1 << 31
			} else {
				sig := uint64(a&0x7FFFFF | min(a, 0x800000)&0x800000)
				k := min(subKE5M2-uint64(max(a>>23, 1)), kmax)
				mag = uint32((sig<<((56-k)&63) + rs) >> 56)
			}
		}
		d[i] = uint8(min(mag, ovf)) | uint8(u>>24)&0x80
	}
	return special
}

// nearest64E5M2 is nearest64 for E5M2.
func nearest64E5M2(d []uint8, s []float64, ovf uint32) uint64 {
	const drop, bias, minNormal, magic, magicBits = 50, 0x3f00000000000000, 0x3f10000000000000, 0x1p36, 0x4230000000000000
	w := words64(s)
	d = d[:len(w)]
	var special uint64
	for i, u := range w {
		a := u &^ (1 << 63)
		mag := (a - bias + (1<<(drop-1) - 1) + (a>>drop)&1) >> drop
		if a-minNormal >= 0x7FF0000000000000-minNormal {
			if a >= 0x7FF0000000000000 {
				special = 1 << 63
			} else {
				mag = math.Float64bits(math.Float64frombits(a)+magic) - magicBits
			}
		}
		d[i] = uint8(min(mag, uint64(ovf))) | uint8(u>>56)&0x80
	}
	return special
}
