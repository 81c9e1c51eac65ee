package fp8

// grid holds what rounding to a binary floating-point format needs: the
// smallest normal exponent, how many float64 mantissa bits are dropped, the
// exponent rebias and the largest finite magnitude code. Formats of any
// width share it, so FP16 and BF16 round exactly as the minifloats do.
type grid struct {
	emin         int    // unbiased exponent of the smallest normal binade
	shift        uint   // 52 - mantissa bits
	rebias       uint64 // (1023 - bias) << mantissa bits
	maxMag       uint64 // magnitude code of the largest finite value
	exponentOnly bool   // no subnormals: values below 2^emin are raised to it
}

func newGrid(manBits, bias int, maxMag uint64, exponentOnly bool) grid {
	g := grid{emin: 1 - bias, shift: uint(52 - manBits), rebias: uint64(1023-bias) << manBits, maxMag: maxMag, exponentOnly: exponentOnly}
	if exponentOnly {
		g.emin = -bias // code 0 is the normal number 2^-bias
	}
	return g
}

// roundMagnitude rounds the finite, non-negative float64 with bits a to a
// magnitude code. On overflow it sets the flag and leaves the policy to the caller.
func (g *grid) roundMagnitude(a uint64, m Mode, random uint32) (uint64, status) {
	if a == 0 {
		return 0, 0
	}
	exp := int(a >> 52)
	e := exp - 1023
	var q uint64
	var st status
	if e >= g.emin {
		// Normal in the target: rounding the float64 bits directly carries a
		// mantissa overflow into the exponent, as it must.
		q, st = roundShift(a, g.shift, m, random)
		q -= g.rebias
	} else {
		sig := a&f64FracMask | 1<<52
		if exp == 0 {
			sig, e = a, -1022 // float64 subnormal
		}
		if g.exponentOnly {
			return 0, inexact | underflown // no subnormals: raise to 2^-bias
		}
		q, st = roundShift(sig, g.shift+uint(g.emin-e), m, random)
		if q == 0 {
			st |= underflown
		}
	}
	if q > g.maxMag {
		st |= overflowed | inexact
	}
	return q, st
}

// roundShift drops the low k bits of v (k >= 1, v < 2^53 when k > 63) under
// rounding m: the result is v/2^k rounded to an integer.
func roundShift(v uint64, k uint, m Mode, random uint32) (uint64, status) {
	if k > 63 {
		if v == 0 {
			return 0, 0
		}
		return roundTiny(v, k, m, random), inexact
	}
	rem := v & (1<<k - 1)
	q := v >> k
	if rem == 0 {
		return q, 0
	}
	switch m.Round {
	case NearestEven:
		half := uint64(1) << (k - 1)
		if rem > half || rem == half && q&1 == 1 {
			q++
		}
	case AwayFromZero:
		q++
	case Stochastic:
		r := uint(m.RandomBits)
		if m.SRRule == StochasticNearest && r < k {
			// d = δ·2^r = rem/2^(k-r), rounded to nearest even.
			d, low, half := rem>>(k-r), rem&(1<<(k-r)-1), uint64(1)<<(k-r-1)
			if low > half || low == half && d&1 == 1 {
				d++
			}
			if d+uint64(random)&(1<<r-1) >= 1<<r {
				q++
			}
			break
		}
		add := uint64(random) & (1<<r - 1)
		if r <= k {
			add <<= k - r
		} else {
			add >>= r - k
		}
		q = (v + add) >> k
	}
	return q, inexact
}

// roundTiny rounds v/2^k for k > 63 and 0 < v < 2^53, a value below 2^-11:
// it rounds to 0 or 1. Stochastic rounding goes up exactly when
// v/2^k + rnd/2^r >= 1, the rule roundShift applies for smaller k.
func roundTiny(v uint64, k uint, m Mode, random uint32) uint64 {
	switch m.Round {
	case AwayFromZero:
		return 1
	case Stochastic:
		r := uint(m.RandomBits)
		need := uint64(1)<<r - uint64(random)&(1<<r-1) // 2^r - rnd, in 1..2^r
		s := k - r                                     // up iff v >= need·2^s
		if m.SRRule == StochasticNearest {
			// d = v/2^s rounded to nearest even; s >= 32, so d is 0 when s > 53.
			if s > 53 {
				return 0
			}
			d, low, half := v>>s, v&(1<<s-1), uint64(1)<<(s-1)
			if low > half || low == half && d&1 == 1 {
				d++
			}
			if d >= need {
				return 1
			}
			return 0
		}
		if s < 53 && need <= (1<<53)>>s && v >= need<<s {
			return 1
		}
	}
	return 0
}
