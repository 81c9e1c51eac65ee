package fp8

import "math"

// fast32 holds the constants of the branchless slice encoders (this file and
// bulk.go). They compute exactly what the float64 core computes: a float32
// converts to float64 exactly and a float64 is rounded from its own bits, so
// there is a single rounding either way. The tests compare the kernels with
// the core on every class of input and, in long mode, on all 2^32 float32s.
type fast32 struct {
	ok        bool    // the format fits the kernels' assumptions
	minNormal uint32  // float32 bits of the smallest normal value
	drop      uint32  // 23 - mantissa bits: float32 mantissa bits dropped
	rebias    uint32  // (127 - bias) << mantissa bits
	bias      uint32  // rebias << drop: subtracted before the shift
	magic     float32 // 2^(emin - m + 23): adding it rounds a subnormal to its grid
	magicBits uint32
	subScale  float32 // 2^(m - emin): a subnormal times it is its code plus a fraction
	maxMag    uint32
	ovfMag    uint32 // magnitude NoSaturate gives on overflow: Inf, NaN or Max
	subK      uint32 // drop + emin + 127: the shift of a subnormal is subK - biased exponent
	emin      int32
	signBit   uint8
	signShift uint32 // 32 - code bits: u >> signShift puts the float32 sign on the code's
	fnuz      bool
	kind      uint8 // kindE4M3FN, kindE5M2 or kindE2M1: a specialized kernel applies

	// The same for float64 inputs.
	minNormal64 uint64
	drop64      uint64
	bias64      uint64
	magic64     float64
	magicBits64 uint64
	subScale64  float64
}

func newFast32(f *Format) fast32 {
	s := f.spec
	emin := f.grid.emin
	magicExp := emin - s.ManBits + 23
	if !s.Signed || s.Specials == ExponentOnly || emin < -126 || magicExp > 127 || s.ManBits > 7 {
		return fast32{}
	}
	magic := float32(math.Ldexp(1, magicExp))
	magic64 := math.Ldexp(1, emin-s.ManBits+52)
	drop := uint32(23 - s.ManBits)
	rebias := uint32(127-s.Bias) << s.ManBits
	ovf := uint32(f.maxMag)
	switch {
	case f.hasInf:
		ovf = uint32(f.infMag)
	case f.hasNaN && s.Specials != FNUZ:
		ovf = uint32(f.nanCode)
	}
	kind := uint8(kindAny)
	switch {
	case s.ExpBits == 4 && s.ManBits == 3 && s.Bias == 7 && s.Specials == FN:
		kind = kindE4M3FN
	case s.ExpBits == 5 && s.ManBits == 2 && s.Bias == 15 && s.Specials == IEEE:
		kind = kindE5M2
	case s.ExpBits == 2 && s.ManBits == 1 && s.Bias == 1 && s.Specials == FiniteOnly:
		kind = kindE2M1
	}
	return fast32{
		ok:          true,
		kind:        kind,
		minNormal:   math.Float32bits(float32(math.Ldexp(1, emin))),
		drop:        drop,
		rebias:      rebias,
		bias:        rebias << drop,
		magic:       magic,
		magicBits:   math.Float32bits(magic),
		subScale:    float32(math.Ldexp(1, s.ManBits-emin)),
		maxMag:      uint32(f.maxMag),
		ovfMag:      ovf,
		subK:        drop + uint32(emin+127),
		emin:        int32(emin),
		signBit:     f.signBit,
		signShift:   uint32(32 - s.Bits()),
		fnuz:        s.Specials == FNUZ,
		minNormal64: math.Float64bits(math.Ldexp(1, emin)),
		drop64:      uint64(52 - s.ManBits),
		bias64:      uint64(1023-s.Bias) << s.ManBits << (52 - s.ManBits),
		magic64:     magic64,
		magicBits64: math.Float64bits(magic64),
		subScale64:  math.Ldexp(1, s.ManBits-emin),
	}
}

// Kernel kinds: E4M3FN and E5M2 (and formats with the same fields) have
// kernels with every format constant compiled in (bulk8.go); E2M1 has a
// nearest-even kernel by table lookup (bulk4.go).
const (
	kindAny = iota
	kindE4M3FN
	kindE5M2
	kindE2M1
)

// bulkBlock is how many elements a kernel encodes before it checks whether
// any of them was NaN or ±Inf; those few are then redone by the core.
const bulkBlock = 2048

// overflowMag returns the magnitude code that finite overflow gives in mode
// m, and whether the kernels can produce it (FNUZ's unsigned NaN cannot).
func (fc *fast32) overflowMag(m Mode) (uint32, bool) {
	if m.Overflow != NoSaturate || m.Round == TowardZero {
		return fc.maxMag, true
	}
	return fc.ovfMag, !fc.fnuz
}

// kernel32 encodes s into d (same length) and returns a word whose bit 31 is
// set when s holds a NaN or ±Inf, whose codes it leaves wrong. ovf is the
// magnitude that finite overflow gives.
type kernel32 func(fc *fast32, d []uint8, s []float32, ovf uint32) uint32

// encodeNearest32 encodes src with round-to-nearest-even and returns the
// index of a failing element (a NaN where the format has none), or -1.
//
// Per element, without branches: the normal range rounds the float32 bits
// directly (add half an ulp minus one plus the kept lsb, shift, rebias); the
// subnormal range adds a power of two whose ulp is the format's subnormal
// step, so the FPU rounds to nearest even; a select picks one, a second one
// clamps overflow. NaN and ±Inf are marked in a per-block flag and redone by
// the core, which applies every Overflow policy.
func (f *Format) encodeNearest32(dst []uint8, src []float32, m Mode) (int, error) {
	k := nearestAny32
	switch f.fast.kind {
	case kindE4M3FN:
		k = nearestE4M3FN
	case kindE5M2:
		k = nearestE5M2
	case kindE2M1:
		k = nearestE2M1
	}
	return f.runKernel32(dst, src, m, k)
}

// encodeTowardZero32 is encodeNearest32 for TowardZero: the normal range
// truncates the bits, the subnormal range converts x·2^(m-emin) to an
// integer (a truncating conversion); overflow always gives ±Max.
func (f *Format) encodeTowardZero32(dst []uint8, src []float32, m Mode) (int, error) {
	k := towardZeroAny32
	switch f.fast.kind {
	case kindE4M3FN:
		k = towardZeroE4M3FN
	case kindE5M2:
		k = towardZeroE5M2
	}
	return f.runKernel32(dst, src, m, k)
}

// runKernel32 runs k over src block by block, then lets the core redo the
// special elements of the blocks that hold any.
func (f *Format) runKernel32(dst []uint8, src []float32, m Mode, k kernel32) (int, error) {
	fc := &f.fast
	ovf, ok := fc.overflowMag(m)
	if !ok {
		return f.encodeCore32(dst, src, m)
	}
	dst = dst[:len(src)]
	for lo := 0; lo < len(src); lo += bulkBlock {
		s := src[lo:min(lo+bulkBlock, len(src))]
		d := dst[lo : lo+len(s)]
		special := k(fc, d, s, ovf)
		if i, err := f.finishBlock32(d, s, m, special); err != nil {
			return lo + i, err
		}
	}
	return -1, nil
}

// nearestAny32 is the nearest-even kernel for any format the kernels serve;
// nearestE4M3FN and nearestE5M2 are the same with the shifts made constants.
func nearestAny32(fc *fast32, d []uint8, s []float32, ovf uint32) uint32 {
	half, drop, bias := uint32(1)<<(fc.drop-1)-1, fc.drop&31, fc.bias
	minNormal, magic, magicBits, maxMag := fc.minNormal, fc.magic, fc.magicBits, fc.maxMag
	sh, sb := fc.signShift&31, fc.signBit
	d = d[:len(s)]
	var special uint32
	for i, x := range s {
		u := math.Float32bits(x)
		a := u & 0x7FFFFFFF
		special |= a + 0x00800000 // bit 31 set iff a is NaN or Inf
		mag := (a + half + (a>>drop)&1 - bias) >> drop
		if a < minNormal {
			mag = math.Float32bits(math.Float32frombits(a)+magic) - magicBits
		}
		if mag > maxMag {
			mag = ovf
		}
		d[i] = uint8(mag) | uint8(u>>sh)&sb
	}
	return special
}

// towardZeroAny32 is the TowardZero kernel for any format.
func towardZeroAny32(fc *fast32, d []uint8, s []float32, _ uint32) uint32 {
	drop, bias := fc.drop&31, fc.bias
	minNormal, subScale, maxMag := fc.minNormal, fc.subScale, fc.maxMag
	sh, sb := fc.signShift&31, fc.signBit
	d = d[:len(s)]
	var special uint32
	for i, x := range s {
		u := math.Float32bits(x)
		a := u & 0x7FFFFFFF
		special |= a + 0x00800000
		mag := (a - bias) >> drop
		if a < minNormal {
			mag = uint32(int32(math.Float32frombits(a) * subScale))
		}
		mag = min(mag, maxMag)
		d[i] = uint8(mag) | uint8(u>>sh)&sb
	}
	return special
}

// encodeStochastic32 is the stochastic-rounding kernel; random[i] supplies
// the bits for src[i]. The low r bits of the word, placed as a fixed-point
// fraction rs = rnd·2^(56-r), give the addend rs >> (56-k) for a shift of k
// bits: k = drop in the normal range. In the subnormal range the float32
// significand sig is rounded in 64 bits as (sig·2^(56-k) + rs) >> 56, with
// k = subK - exponent capped at r + 24, beyond which the result is 0 either
// way (sig < 2^24).
func (f *Format) encodeStochastic32(dst []uint8, src []float32, random []uint32, m Mode) (int, error) {
	fc := &f.fast
	ovf, ok := fc.overflowMag(m)
	if !ok {
		return f.encodeCore32Stochastic(dst, src, random, m)
	}
	k := stochasticAny32
	switch {
	case fc.kind == kindE4M3FN && haveAVX2:
		k = stochasticE4M3FNVec
	case fc.kind == kindE4M3FN:
		k = stochasticE4M3FN
	case fc.kind == kindE5M2 && haveAVX2:
		k = stochasticE5M2Vec
	case fc.kind == kindE5M2:
		k = stochasticE5M2
	}
	r := uint32(m.RandomBits)
	dst = dst[:len(src)]
	random = random[:len(src)]
	for lo := 0; lo < len(src); lo += bulkBlock {
		s := src[lo:min(lo+bulkBlock, len(src))]
		d := dst[lo : lo+len(s)]
		rw := random[lo : lo+len(s)]
		special := k(fc, d, s, rw, r, ovf)
		if i, err := f.finishBlockStochastic32(d, s, rw, m, special); err != nil {
			return lo + i, err
		}
	}
	return -1, nil
}

// stochasticAny32 is the stochastic kernel for any format, with r random bits.
func stochasticAny32(fc *fast32, d []uint8, s []float32, rw []uint32, r, ovf uint32) uint32 {
	mask, scale := uint32(1<<r-1), uint64(1)<<(56-r) // r = 32: Go gives 1<<32 - 1 = all ones
	drop, bias, subK, kmax := fc.drop&31, fc.bias, uint64(fc.subK), uint64(r+24)
	downN := (56 - uint64(drop)) & 63
	minNormal, maxMag := fc.minNormal, fc.maxMag
	sh, sb := fc.signShift&31, fc.signBit
	d = d[:len(s)]
	rw = rw[:len(s)]
	var special uint32
	for i, x := range s {
		u := math.Float32bits(x)
		a := u & 0x7FFFFFFF
		special |= a + 0x00800000
		rs := uint64(rw[i]&mask) * scale
		mag := (a + uint32(rs>>downN) - bias) >> drop
		sig := uint64(a&0x7FFFFF | min(a, 0x800000)&0x800000)
		k := min(subK-uint64(max(a>>23, 1)), kmax)
		if a < minNormal {
			mag = uint32((sig<<((56-k)&63) + rs) >> 56)
		}
		if mag > maxMag {
			mag = ovf
		}
		d[i] = uint8(mag) | uint8(u>>sh)&sb
	}
	return special
}

// finishBlock32 redoes with the core the NaN and ±Inf elements of a block
// (special has bit 31 set when there are any) and, in FNUZ formats, turns
// the kernels' negative zero, 0x80, into 0x00.
func (f *Format) finishBlock32(d []uint8, s []float32, m Mode, special uint32) (int, error) {
	if f.fast.fnuz {
		fixNegativeZero(d, f.signBit)
	}
	if special>>31 == 0 {
		return -1, nil
	}
	for i, x := range s {
		if math.Float32bits(x)&0x7FFFFFFF >= 0x7F800000 {
			c, _, err := f.encode(float64(x), m, 0)
			if err != nil {
				return i, err
			}
			d[i] = c
		}
	}
	return -1, nil
}

// finishBlockStochastic32 is finishBlock32 with random words.
func (f *Format) finishBlockStochastic32(d []uint8, s []float32, random []uint32, m Mode, special uint32) (int, error) {
	if f.fast.fnuz {
		fixNegativeZero(d, f.signBit)
	}
	if special>>31 == 0 {
		return -1, nil
	}
	for i, x := range s {
		if math.Float32bits(x)&0x7FFFFFFF >= 0x7F800000 {
			c, _, err := f.encode(float64(x), m, random[i])
			if err != nil {
				return i, err
			}
			d[i] = c
		}
	}
	return -1, nil
}

// fixNegativeZero maps the code signBit (-0) to 0. In FNUZ formats that code
// is NaN, which the kernels never produce for a finite input (FNUZ's
// NoSaturate goes to the core), so every one they wrote is a negative zero.
func fixNegativeZero(d []uint8, signBit uint8) {
	for i, c := range d {
		if c == signBit {
			d[i] = 0
		}
	}
}

// encodeCore32 encodes src one element at a time with the core.
func (f *Format) encodeCore32(dst []uint8, src []float32, m Mode) (int, error) {
	for i, x := range src {
		c, _, err := f.encode(float64(x), m, 0)
		if err != nil {
			return i, err
		}
		dst[i] = c
	}
	return -1, nil
}

// encodeCore32Stochastic is encodeCore32 with random words.
func (f *Format) encodeCore32Stochastic(dst []uint8, src []float32, random []uint32, m Mode) (int, error) {
	for i, x := range src {
		c, _, err := f.encode(float64(x), m, random[i])
		if err != nil {
			return i, err
		}
		dst[i] = c
	}
	return -1, nil
}
