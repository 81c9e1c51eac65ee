package fp8

import "math"

// encodeFast32 runs the float32 kernel for m.Round (NearestEven or
// TowardZero); f.fast.ok must hold. It returns the index of a failing
// element, or -1.
func (f *Format) encodeFast32(dst []uint8, src []float32, m Mode) (int, error) {
	if m.Round == TowardZero {
		return f.encodeTowardZero32(dst, src, m)
	}
	return f.encodeNearest32(dst, src, m)
}

// encodeFast64 is encodeFast32 for float64 inputs. The kernels round the
// float64 bits themselves, never through float32, so -431.99999999999994
// gives -416 in E4M3FN, not -448.
func (f *Format) encodeFast64(dst []uint8, src []float64, m Mode) (int, error) {
	fc := &f.fast
	ovf, ok := fc.overflowMag(m)
	if !ok {
		return f.encodeEach(dst, src, m)
	}
	dst = dst[:len(src)]
	for lo := 0; lo < len(src); lo += bulkBlock {
		s := src[lo:min(lo+bulkBlock, len(src))]
		d := dst[lo : lo+len(s)]
		var special uint64
		if m.Round == TowardZero {
			special = f.towardZero64(d, s)
		} else {
			switch fc.kind {
			case kindE4M3FN:
				special = nearest64E4M3FN(d, s, ovf)
			case kindE5M2:
				special = nearest64E5M2(d, s, ovf)
			default:
				special = f.nearest64(d, s, ovf)
			}
		}
		if f.fast.fnuz {
			fixNegativeZero(d, f.signBit)
		}
		if special>>63 == 0 {
			continue
		}
		for i, x := range s {
			if math.Float64bits(x)&^(1<<63) >= f64Inf {
				c, _, err := f.encode(x, m, 0)
				if err != nil {
					return lo + i, err
				}
				d[i] = c
			}
		}
	}
	return -1, nil
}

// nearest64 is the float64 form of encodeNearest32's loop: bit 63 of the
// result is set when s holds a NaN or ±Inf, whose codes it leaves wrong.
func (f *Format) nearest64(d []uint8, s []float64, ovf uint32) uint64 {
	fc := &f.fast
	drop := fc.drop64 & 63
	half, bias := uint64(1)<<(drop-1)-1, fc.bias64
	minNormal, magic, magicBits, maxMag := fc.minNormal64, fc.magic64, fc.magicBits64, uint64(fc.maxMag)
	sh, sb := (fc.signShift+32)&63, fc.signBit
	d = d[:len(s)]
	var special uint64
	for i, x := range s {
		u := math.Float64bits(x)
		a := u &^ (1 << 63)
		special |= a + 1<<52 // bit 63 set iff a is NaN or Inf
		mag := (a + half + (a>>drop)&1 - bias) >> drop
		if a < minNormal {
			mag = math.Float64bits(math.Float64frombits(a)+magic) - magicBits
		}
		if mag > maxMag {
			mag = uint64(ovf)
		}
		d[i] = uint8(mag) | uint8(u>>sh)&sb
	}
	return special
}

// towardZero64 is nearest64 for TowardZero.
func (f *Format) towardZero64(d []uint8, s []float64) uint64 {
	fc := &f.fast
	drop, bias := fc.drop64&63, fc.bias64
	minNormal, subScale, maxMag := fc.minNormal64, fc.subScale64, uint64(fc.maxMag)
	sh, sb := (fc.signShift+32)&63, fc.signBit
	d = d[:len(s)]
	var special uint64
	for i, x := range s {
		u := math.Float64bits(x)
		a := u &^ (1 << 63)
		special |= a + 1<<52
		mag := (a - bias) >> drop
		if a < minNormal {
			mag = uint64(int64(math.Float64frombits(a) * subScale))
		}
		mag = min(mag, maxMag)
		d[i] = uint8(mag) | uint8(u>>sh)&sb
	}
	return special
}
