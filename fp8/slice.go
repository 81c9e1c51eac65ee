package fp8

import (
	"fmt"

	"github.com/fp8lab/fp8lab/internal/parallel"
)

func elementError(i int, err error) error {
	return fmt.Errorf("element %d: %w", i, err)
}

func checkLengths(a, b int) error {
	if a != b {
		return fmt.Errorf("%w: %d and %d", ErrLength, a, b)
	}
	return nil
}

// EncodeSlice32 encodes src into dst, which must have the same length, in
// mode m (not Stochastic: see EncodeSliceStochastic32). Large slices are split
// across cores. On error, which names the first failing element, the contents
// of dst are unspecified.
func (f *Format) EncodeSlice32(dst []uint8, src []float32, m Mode) error {
	if err := f.check(); err != nil {
		return err
	}
	if err := checkLengths(len(dst), len(src)); err != nil {
		return err
	}
	if m.Round == Stochastic {
		return fmt.Errorf("%w: stochastic rounding needs random bits, use EncodeSliceStochastic32", ErrInvalidMode)
	}
	if err := m.check(); err != nil {
		return err
	}
	if t := f.table32For(m, len(src)); t != nil {
		return parallel.For(len(src), func(lo, hi int) error {
			encodeTable32(t, dst[lo:hi], src[lo:hi])
			return nil
		})
	}
	return parallel.For(len(src), func(lo, hi int) error {
		if i, err := f.encodeSlice32Serial(dst[lo:hi], src[lo:hi], m); err != nil {
			return elementError(lo+i, err)
		}
		return nil
	})
}

// EncodeSlice is EncodeSlice32 for float64 inputs, each rounded once from its
// exact value.
func (f *Format) EncodeSlice(dst []uint8, src []float64, m Mode) error {
	if err := f.check(); err != nil {
		return err
	}
	if err := checkLengths(len(dst), len(src)); err != nil {
		return err
	}
	if m.Round == Stochastic {
		return fmt.Errorf("%w: stochastic rounding needs random bits, use EncodeSliceStochastic", ErrInvalidMode)
	}
	if err := m.check(); err != nil {
		return err
	}
	if t := f.table64For(m, len(src)); t != nil {
		return parallel.For(len(src), func(lo, hi int) error {
			encodeTable64(t, dst[lo:hi], src[lo:hi])
			return nil
		})
	}
	return parallel.For(len(src), func(lo, hi int) error {
		if i, err := f.encodeSlice64Serial(dst[lo:hi], src[lo:hi], m); err != nil {
			return elementError(lo+i, err)
		}
		return nil
	})
}

// encodeSlice64Serial is EncodeSlice's work on one goroutine without a
// table; m has been checked and is not Stochastic. It returns the index of
// a failing element, or -1.
func (f *Format) encodeSlice64Serial(dst []uint8, src []float64, m Mode) (int, error) {
	if f.fast.ok && m.Round != AwayFromZero {
		return f.encodeFast64(dst, src, m)
	}
	return f.encodeEach(dst, src, m)
}

// encodeEach encodes src into dst one element at a time through the core
// encoder, the path every bulk kernel falls back to. It returns the index
// of a failing element, or -1.
func (f *Format) encodeEach(dst []uint8, src []float64, m Mode) (int, error) {
	for i, x := range src {
		c, _, err := f.encode(x, m, 0)
		if err != nil {
			return i, err
		}
		dst[i] = c
	}
	return -1, nil
}

// EncodeSliceStochastic32 rounds src stochastically into dst, using random[i]
// as the random word for src[i] (see EncodeStochastic). All three slices must
// have the same length and m.Round must be Stochastic.
func (f *Format) EncodeSliceStochastic32(dst []uint8, src []float32, random []uint32, m Mode) error {
	if err := f.check(); err != nil {
		return err
	}
	if err := checkLengths(len(dst), len(src)); err != nil {
		return err
	}
	if err := checkLengths(len(random), len(src)); err != nil {
		return err
	}
	if m.Round != Stochastic {
		return fmt.Errorf("%w: EncodeSliceStochastic32 needs Round: Stochastic", ErrInvalidMode)
	}
	if err := m.check(); err != nil {
		return err
	}
	return parallel.For(len(src), func(lo, hi int) error {
		if f.fast.ok && m.SRRule == StochasticFloor {
			if i, err := f.encodeStochastic32(dst[lo:hi], src[lo:hi], random[lo:hi], m); err != nil {
				return elementError(lo+i, err)
			}
			return nil
		}
		for i := lo; i < hi; i++ {
			c, _, err := f.encode(float64(src[i]), m, random[i])
			if err != nil {
				return elementError(i, err)
			}
			dst[i] = c
		}
		return nil
	})
}

// DecodeSlice32 decodes src into dst, which must have the same length.
func (f *Format) DecodeSlice32(dst []float32, src []uint8) error {
	if err := f.check(); err != nil {
		return err
	}
	if err := checkLengths(len(dst), len(src)); err != nil {
		return err
	}
	return parallel.For(len(src), func(lo, hi int) error {
		decodeTable(&f.values32, dst[lo:hi], src[lo:hi])
		return nil
	})
}

// DecodeSlice decodes src into dst as float64 values.
func (f *Format) DecodeSlice(dst []float64, src []uint8) error {
	if err := f.check(); err != nil {
		return err
	}
	if err := checkLengths(len(dst), len(src)); err != nil {
		return err
	}
	return parallel.For(len(src), func(lo, hi int) error {
		decodeTable(&f.values, dst[lo:hi], src[lo:hi])
		return nil
	})
}

// decodeTable looks every code up in tab, four at a time; len(dst) == len(src).
func decodeTable[T float32 | float64](tab *[256]T, dst []T, src []uint8) {
	dst = dst[:len(src)] // lets the compiler drop the bounds checks
	i := 0
	for ; i+4 <= len(src); i += 4 {
		s, d := src[i:i+4:i+4], dst[i:i+4:i+4]
		d[0], d[1], d[2], d[3] = tab[s[0]], tab[s[1]], tab[s[2]], tab[s[3]]
	}
	for ; i < len(src); i++ {
		dst[i] = tab[src[i]]
	}
}
