package fp8

import "math"

// fast32 holds the constants of the float32 fast paths used by the slice
// encoders. They compute exactly what the float64 core computes (a float32
// converts to float64 exactly, so there is a single rounding either way); the
// tests compare both on every float32 class and, in long mode, on all 2^32 inputs.
type fast32 struct {
	ok        bool    // the format fits the fast path's assumptions
	minNormal uint32  // float32 bits of the smallest normal value
	drop      uint32  // 23 - mantissa bits: float32 mantissa bits dropped
	rebias    uint32  // (127 - bias) << mantissa bits
	magic     float32 // 2^(emin - m + 23): adding it rounds a subnormal to its grid
	magicBits uint32
	maxMag    uint32
	emin      int32
	signBit   uint8
	fnuz      bool
}

func newFast32(f *Format) fast32 {
	s := f.spec
	emin := f.grid.emin
	magicExp := emin - s.ManBits + 23
	if !s.Signed || s.Specials == ExponentOnly || emin < -126 || magicExp > 127 {
		return fast32{}
	}
	magic := float32(math.Ldexp(1, magicExp))
	return fast32{
		ok:        true,
		minNormal: math.Float32bits(float32(math.Ldexp(1, emin))),
		drop:      uint32(23 - s.ManBits),
		rebias:    uint32(127-s.Bias) << s.ManBits,
		magic:     magic,
		magicBits: math.Float32bits(magic),
		maxMag:    uint32(f.maxMag),
		emin:      int32(emin),
		signBit:   f.signBit,
		fnuz:      s.Specials == FNUZ,
	}
}

// encodeNearest32 encodes src with round-to-nearest-even. Elements that are
// NaN, Inf or overflow go through the float64 core so that every Overflow
// policy is honoured; it returns the index of a failing element, or -1.
func (f *Format) encodeNearest32(dst []uint8, src []float32, m Mode) (int, error) {
	fc := &f.fast
	// Finite overflow saturates in this mode: no need for the slow path.
	saturates := m.Overflow != NoSaturate || !f.hasNaN
	dst = dst[:len(src)]
	for i, x := range src {
		u := math.Float32bits(x)
		a := u & 0x7FFFFFFF
		var mag uint32
		if a >= fc.minNormal {
			mag = (a+(1<<(fc.drop-1)-1)+(a>>fc.drop)&1)>>fc.drop - fc.rebias
			if mag > fc.maxMag && saturates && a < 0x7F800000 {
				mag = fc.maxMag
			}
			if a >= 0x7F800000 || mag > fc.maxMag {
				c, _, err := f.encode(float64(x), m, 0)
				if err != nil {
					return i, err
				}
				dst[i] = c
				continue
			}
		} else {
			mag = math.Float32bits(math.Float32frombits(a)+fc.magic) - fc.magicBits
		}
		dst[i] = f.applySign32(mag, u)
	}
	return -1, nil
}

// encodeStochastic32 is the stochastic-rounding fast path; random[i] supplies
// the bits for src[i].
func (f *Format) encodeStochastic32(dst []uint8, src []float32, random []uint32, m Mode) (int, error) {
	fc := &f.fast
	r := uint32(m.RandomBits)
	mask := uint32(1<<r - 1) // r = 32 gives all ones: Go shifts past the width give 0
	dst = dst[:len(src)]
	random = random[:len(src)]
	for i, x := range src {
		u := math.Float32bits(x)
		a := u & 0x7FFFFFFF
		rnd := random[i] & mask
		var mag uint32
		if a >= fc.minNormal && a < 0x7F800000 {
			add := rnd
			if r <= fc.drop {
				add <<= fc.drop - r
			} else {
				add >>= r - fc.drop
			}
			mag = uint32((uint64(a)+uint64(add))>>fc.drop) - fc.rebias
		} else if a < fc.minNormal {
			// Below the format's normal range: round the exact significand
			// on the subnormal grid.
			sig, e := uint64(a&0x7FFFFF|0x800000), int32(a>>23)-127
			if a < 0x00800000 {
				sig, e = uint64(a), -126
			}
			q, _ := roundShift(sig, uint(int32(fc.drop)+fc.emin-e), m, rnd)
			mag = uint32(q)
		} else {
			mag = fc.maxMag + 1 // NaN or Inf: let the core decide
		}
		if mag > fc.maxMag {
			c, _, err := f.encode(float64(x), m, random[i])
			if err != nil {
				return i, err
			}
			dst[i] = c
			continue
		}
		dst[i] = f.applySign32(mag, u)
	}
	return -1, nil
}

// applySign32 attaches the float32's sign to a finite magnitude code,
// mapping -0 to +0 in FNUZ formats.
func (f *Format) applySign32(mag, u uint32) uint8 {
	c := uint8(mag)
	if u>>31 != 0 && (mag != 0 || !f.fast.fnuz) {
		c |= f.fast.signBit
	}
	return c
}
