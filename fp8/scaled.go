package fp8

import (
	"fmt"
	"math"
)

// EncodeScaledSlice32 encodes src[j]·scales[j/blockLen] into dst (same
// length as src), the product formed in float32, in mode m (not
// Stochastic). It gives the codes EncodeSlice32 gives for the products, but
// forms each product in the encode loop rather than in a buffer the encoder
// reads back: per-tensor, per-row and per-block quantizers use it to encode
// in the same pass as they scale. It runs on the calling goroutine.
func (f *Format) EncodeScaledSlice32(dst []uint8, src, scales []float32, blockLen int, m Mode) error {
	if err := f.check(); err != nil {
		return err
	}
	if err := checkLengths(len(dst), len(src)); err != nil {
		return err
	}
	if blockLen < 1 || len(scales) < (len(src)+blockLen-1)/blockLen {
		return fmt.Errorf("%w: %d scales for %d values in blocks of %d", ErrLength, len(scales), len(src), blockLen)
	}
	if m.Round == Stochastic {
		return fmt.Errorf("%w: stochastic rounding needs random bits", ErrInvalidMode)
	}
	if err := m.check(); err != nil {
		return err
	}
	// With a table, a call per block costs less than the arithmetic
	// kernels even for MX's 32 (BENCHMARKS.md, issue 14, run F).
	if t := f.table32For(m, len(src)); t != nil {
		if haveAVX2 {
			encodeScaledTableVec(t, dst, src, scales, blockLen)
			return nil
		}
		for b, lo := 0, 0; lo < len(src); b, lo = b+1, lo+blockLen {
			hi := min(lo+blockLen, len(src))
			encodeScaledTable32(t, dst[lo:hi], src[lo:hi], scales[b])
		}
		return nil
	}
	if blockLen < bulkBlock/2 && m.Round == NearestEven && m.Overflow != NoSaturate &&
		(f.fast.kind == kindE4M3FN || f.fast.kind == kindE5M2) {
		return f.encodeScaledShort32(dst, src, scales, blockLen, m)
	}
	// buf holds the products on the generic path only: it would escape
	// (through the kernel's function value), so the fast kernels, which
	// need none, must not pay for allocating it on every call.
	var buf []float32
	for lo := 0; lo < len(src); {
		b := lo / blockLen
		hi := min((b+1)*blockLen, len(src), lo+bulkBlock)
		s, d := src[lo:hi], dst[lo:hi]
		var i int
		var err error
		switch {
		case f.fast.kind == kindE4M3FN && m.Round == NearestEven && m.Overflow != NoSaturate:
			i, err = f.finishScaled(d, s, scales[b], m, nearestScaledE4M3FN(d, s, scales[b]))
		case f.fast.kind == kindE5M2 && m.Round == NearestEven && m.Overflow != NoSaturate:
			i, err = f.finishScaled(d, s, scales[b], m, nearestScaledE5M2(d, s, scales[b]))
		default:
			if buf == nil {
				buf = make([]float32, bulkBlock)
			}
			t := buf[:len(s)]
			for k, x := range s {
				t[k] = x * scales[b]
			}
			i, err = f.encodeSlice32Serial(d, t, m)
		}
		if err != nil {
			return elementError(lo+i, err)
		}
		lo = hi
	}
	return nil
}

// encodeSlice32Serial is EncodeSlice32's work on one goroutine without a
// table; m has been checked and is not Stochastic. It returns the index of
// a failing element, or -1.
func (f *Format) encodeSlice32Serial(dst []uint8, src []float32, m Mode) (int, error) {
	if f.fast.ok && m.Round != AwayFromZero {
		return f.encodeFast32(dst, src, m)
	}
	return f.encodeCore32(dst, src, m)
}

// finishScaled redoes with the core the elements whose product x·scale is
// NaN or ±Inf, when special (from a scaled kernel) says there are any.
func (f *Format) finishScaled(d []uint8, s []float32, scale float32, m Mode, special uint32) (int, error) {
	if special>>31 == 0 {
		return -1, nil
	}
	for i, x := range s {
		p := x * scale
		if math.Float32bits(p)&0x7FFFFFFF >= 0x7F800000 {
			c, _, err := f.encode(float64(p), m, 0)
			if err != nil {
				return i, err
			}
			d[i] = c
		}
	}
	return -1, nil
}

// nearestScaledE4M3FN is nearestE4M3FN (saturating) of s[i]·scale.
func nearestScaledE4M3FN(d []uint8, s []float32, scale float32) uint32 {
	d = d[:len(s)]
	var special uint32
	for i, x := range s {
		u := math.Float32bits(x * scale)
		a := u & 0x7FFFFFFF
		mag := (a - biasE4M3FN + (1<<(dropE4M3FN-1) - 1) + (a>>dropE4M3FN)&1) >> dropE4M3FN
		if a-minNormalE4M3FN >= 0x7F800000-minNormalE4M3FN {
			if a >= 0x7F800000 {
				special = 1 << 31
			} else {
				mag = math.Float32bits(math.Float32frombits(a)+magicE4M3FN) - magicBitsE4M3FN
			}
		}
		d[i] = uint8(min(mag, maxMagE4M3FN)) | uint8(u>>24)&0x80
	}
	return special
}

// nearestScaledE5M2 is nearestE5M2 (saturating) of s[i]·scale.
func nearestScaledE5M2(d []uint8, s []float32, scale float32) uint32 {
	d = d[:len(s)]
	var special uint32
	for i, x := range s {
		u := math.Float32bits(x * scale)
		a := u & 0x7FFFFFFF
		mag := (a - biasE5M2 + (1<<(dropE5M2-1) - 1) + (a>>dropE5M2)&1) >> dropE5M2
		if a-minNormalE5M2 >= 0x7F800000-minNormalE5M2 {
			if a >= 0x7F800000 {
				special = 1 << 31
			} else {
				mag = math.Float32bits(math.Float32frombits(a)+magicE5M2) - magicBitsE5M2
			}
		}
		d[i] = uint8(min(mag, maxMagE5M2)) | uint8(u>>24)&0x80
	}
	return special
}

// encodeScaledShort32 is EncodeScaledSlice32 for short blocks (MX's 32,
// NVFP4's 16) in E4M3FN or E5M2, nearest-even, saturating: one kernel call
// covers as many whole blocks as fit in bulkBlock elements, so no block
// pays for a call, a dispatch or a special-value check of its own.
func (f *Format) encodeScaledShort32(dst []uint8, src, scales []float32, blockLen int, m Mode) error {
	span := bulkBlock / blockLen * blockLen
	for lo := 0; lo < len(src); lo += span {
		hi := min(lo+span, len(src))
		s, d, sc := src[lo:hi], dst[lo:hi], scales[lo/blockLen:]
		var special uint32
		if f.fast.kind == kindE4M3FN {
			special = nearestScaledBlocksE4M3FN(d, s, sc, blockLen)
		} else {
			special = nearestScaledBlocksE5M2(d, s, sc, blockLen)
		}
		if special>>31 == 0 {
			continue
		}
		for j := 0; j < len(s); j += blockLen {
			k := min(j+blockLen, len(s))
			if i, err := f.finishScaled(d[j:k], s[j:k], sc[j/blockLen], m, special); err != nil {
				return elementError(lo+j+i, err)
			}
		}
	}
	return nil
}

// nearestScaledBlocksE4M3FN is nearestScaledE4M3FN over consecutive blocks
// of blockLen elements, block b multiplied by scales[b].
func nearestScaledBlocksE4M3FN(d []uint8, s, scales []float32, blockLen int) uint32 {
	var special uint32
	for b := 0; len(s) > 0; b++ {
		n := min(blockLen, len(s))
		x, y, scale := s[:n], d[:n], scales[b]
		for i := range x {
			u := math.Float32bits(x[i] * scale)
			a := u & 0x7FFFFFFF
			mag := (a - biasE4M3FN + (1<<(dropE4M3FN-1) - 1) + (a>>dropE4M3FN)&1) >> dropE4M3FN
			if a-minNormalE4M3FN >= 0x7F800000-minNormalE4M3FN {
				if a >= 0x7F800000 {
					special = 1 << 31
				} else {
					mag = math.Float32bits(math.Float32frombits(a)+magicE4M3FN) - magicBitsE4M3FN
				}
			}
			y[i] = uint8(min(mag, maxMagE4M3FN)) | uint8(u>>24)&0x80
		}
		s, d = s[n:], d[n:]
	}
	return special
}

// nearestScaledBlocksE5M2 is nearestScaledBlocksE4M3FN for E5M2.
func nearestScaledBlocksE5M2(d []uint8, s, scales []float32, blockLen int) uint32 {
	var special uint32
	for b := 0; len(s) > 0; b++ {
		n := min(blockLen, len(s))
		x, y, scale := s[:n], d[:n], scales[b]
		for i := range x {
			u := math.Float32bits(x[i] * scale)
			a := u & 0x7FFFFFFF
			mag := (a - biasE5M2 + (1<<(dropE5M2-1) - 1) + (a>>dropE5M2)&1) >> dropE5M2
			if a-minNormalE5M2 >= 0x7F800000-minNormalE5M2 {
				if a >= 0x7F800000 {
					special = 1 << 31
				} else {
					mag = math.Float32bits(math.Float32frombits(a)+magicE5M2) - magicBitsE5M2
				}
			}
			y[i] = uint8(min(mag, maxMagE5M2)) | uint8(u>>24)&0x80
		}
		s, d = s[n:], d[n:]
	}
	return special
}

// scaledGroup is how many products encodeScaledTableVec forms at a time: a
// 1 KiB buffer in L1, short enough that the loads of the next group
// overlap the lookups of this one (a pass of 4096 products first, then
// the lookups, cost 0.24 ns/value more than plain encode against 0.17 for
// the multiply inside the lookup loop: the multiply pass is bound by
// memory, the lookups by instructions, and they did not overlap).
const scaledGroup = 256

// encodeScaledTableVec is EncodeScaledSlice32's table loop with the
// products formed eight at a time (mulBlocksVec) into a small buffer,
// which encodeTable32 then reads: up to scaledGroup values of one block,
// or as many whole blocks of a multiple of 8 values as fit. The products
// are the same float32 products (IEEE single-precision multiply, rounded
// to nearest even); what is left over (a block's last few values, blocks
// whose length is not a multiple of 8) goes through encodeScaledTable32.
func encodeScaledTableVec(t *codeTable, dst []uint8, src, scales []float32, blockLen int) {
	var buf [scaledGroup]float32
	for lo := 0; lo < len(src); {
		b := lo / blockLen
		end := min((b+1)*blockLen, len(src)) // of lo's block
		var n int
		if lo == b*blockLen && blockLen%8 == 0 && blockLen <= scaledGroup {
			whole := min(scaledGroup/blockLen, (len(src)-lo)/blockLen)
			n = whole * blockLen
			if n > 0 {
				mulBlocksVec(buf[:n], src[lo:lo+n], scales[b:b+whole], blockLen)
			}
		} else if n = min(scaledGroup, end-lo) &^ 7; n > 0 {
			mulBlocksVec(buf[:n], src[lo:lo+n], scales[b:b+1], n)
		}
		if n == 0 {
			encodeScaledTable32(t, dst[lo:end], src[lo:end], scales[b])
			lo = end
			continue
		}
		encodeTable32(t, dst[lo:lo+n], buf[:n])
		lo += n
	}
}

// mulBlocksGo is mulBlocksVec in Go.
func mulBlocksGo(dst, src, scales []float32, bc int) {
	for b, s := range scales {
		d, x := dst[b*bc:(b+1)*bc], src[b*bc:(b+1)*bc]
		for k := range x {
			d[k] = x[k] * s
		}
	}
}
