package scaling

import (
	"fmt"
	"math"

	"github.com/fp8lab/fp8lab/internal/parallel"
)

// Dequantize decodes q into a new float32 tensor: dec(q)/Scales[b] for
// float32 scales (a float32 division, as torchao does), dec(q)·2^k for MX
// and dec(q)·(d·TensorScale) for NVFP4, the factor formed in float32.
func (q *Quantized) Dequantize() (*Tensor, error) {
	if err := q.Check(); err != nil {
		return nil, err
	}
	out := &Tensor{Rows: q.Rows, Cols: q.Cols, Data: make([]float32, len(q.Codes))}
	if err := q.DequantizeInto(out.Data); err != nil {
		return nil, err
	}
	return out, nil
}

// tableMinRun is the shortest run of elements under one scale for which
// DequantizeInto builds a table of decoded-and-scaled values: 256 divisions
// once instead of one per element.
const tableMinRun = 512

// DequantizeInto writes Dequantize's values into dst (row-major, len(dst)
// equal to the element count) without allocating the tensor: a training
// loop that dequantizes operands of one shape every step reuses dst. The
// values are Dequantize's bit for bit.
func (q *Quantized) DequantizeInto(dst []float32) error {
	if err := q.Check(); err != nil {
		return err
	}
	if len(dst) != len(q.Codes) {
		return fmt.Errorf("%w: %d values for %d codes", ErrShape, len(dst), len(q.Codes))
	}
	mul := !q.Granularity.FloatScales() // decode scales multiply (MX, NVFP4)
	var factors []float32               // multipliers for MX and NVFP4
	if mul {
		factors = make([]float32, len(q.Scales))
		for b := range factors {
			factors[b] = float32(q.BlockDecodeScale(b))
		}
	}
	// A table maps each code straight to its scaled value; it pays when one
	// scale covers a long run (tensor and row scales of long rows).
	useTable := q.BlockCols >= tableMinRun || q.ScaleCols == 1 && q.BlockRows*q.BlockCols >= tableMinRun
	var dec [256]float32 // every code's decoded value, as DecodeSlice32 gives it
	for c := range dec {
		dec[c] = q.Format.Decode32(uint8(c))
	}
	return parallel.Chunks(q.Rows, 1, len(q.Codes), func(lo, hi int) error {
		if useTable {
			q.dequantizeTable(dst, lo, hi, mul, factors)
			return nil
		}
		// Decode and scale in one pass: the decoded value, then the
		// float32 product or quotient.
		var inv []float32 // column scales: their exact inverses, if all have one
		band := -1
		for i := lo; i < hi; i++ {
			row := dst[i*q.Cols : (i+1)*q.Cols]
			codes := q.Codes[i*q.Cols : (i+1)*q.Cols]
			base := (i / q.BlockRows) * q.ScaleCols
			if q.BlockCols == 1 && !mul {
				// One scale per element of the row (column scales).
				s := q.Scales[base : base+q.Cols]
				if base != band {
					inv, band = exactInverses(inv, s), base
				}
				if inv != nil {
					inv := inv[:len(row)]
					for k, c := range codes[:len(row)] {
						row[k] = dec[c] * inv[k]
					}
				} else {
					s := s[:len(row)]
					for k, c := range codes[:len(row)] {
						row[k] = dec[c] / s[k]
					}
				}
				continue
			}
			for j0 := 0; j0 < q.Cols; j0 += q.BlockCols {
				b := base + j0/q.BlockCols
				end := min(j0+q.BlockCols, q.Cols)
				seg, cs := row[j0:end], codes[j0:end]
				cs = cs[:len(seg)]
				if mul {
					m := factors[b]
					for k, c := range cs {
						seg[k] = dec[c] * m
					}
				} else if r, ok := exactInverse(q.Scales[b]); ok {
					for k, c := range cs {
						seg[k] = dec[c] * r
					}
				} else {
					s := q.Scales[b]
					for k, c := range cs {
						seg[k] = dec[c] / s
					}
				}
			}
		}
		return nil
	})
}

// dequantizeTable is DequantizeInto's path for long runs under one scale:
// rows [lo, hi) through a table of each code's scaled value, rebuilt when
// the block changes.
func (q *Quantized) dequantizeTable(dst []float32, lo, hi int, mul bool, factors []float32) {
	var tab [256]float32
	tabBlock := -1
	for i := lo; i < hi; i++ {
		row := dst[i*q.Cols : (i+1)*q.Cols]
		codes := q.Codes[i*q.Cols : (i+1)*q.Cols]
		base := (i / q.BlockRows) * q.ScaleCols
		for j0 := 0; j0 < q.Cols; j0 += q.BlockCols {
			b := base + j0/q.BlockCols
			if b != tabBlock {
				q.scaledTable(&tab, b, mul, factors)
				tabBlock = b
			}
			end := min(j0+q.BlockCols, q.Cols)
			seg, cs := row[j0:end], codes[j0:end]
			for k, c := range cs[:len(seg)] {
				seg[k] = tab[c]
			}
		}
	}
}

// exactInverse returns 1/s when s is a power of two whose inverse float32
// holds exactly (every scale rounded with Pow2, every MX scale): then x·(1/s)
// and x/s are the same correctly rounded number, and a multiply is several
// times cheaper than a division.
func exactInverse(s float32) (float32, bool) {
	b := math.Float32bits(s)
	exp := int(b>>23) & 0xff
	if b&0x807fffff != 0 || exp == 0 || exp == 0xff {
		return 0, false // not a positive normal power of two
	}
	// s = 2^(exp-127) with exp in 1..254: 1/s = 2^(127-exp) is at least
	// 2^-127, a subnormal power of two, which float32 holds exactly.
	return 1 / s, true
}

// exactInverses returns the exact inverses of scales (see exactInverse) in
// buf's memory, or nil when one of them has none.
func exactInverses(buf, scales []float32) []float32 {
	buf = resize(buf, len(scales))
	for k, s := range scales {
		r, ok := exactInverse(s)
		if !ok {
			return nil
		}
		buf[k] = r
	}
	return buf
}

// scaledTable fills tab with every code's value in block b, formed as the
// slow path forms it: the float32 decoded value, then divided by the
// float32 scale (or multiplied by the decode factor for MX and NVFP4).
func (q *Quantized) scaledTable(tab *[256]float32, b int, mul bool, factors []float32) {
	for c := range tab {
		v := q.Format.Decode32(uint8(c))
		if mul {
			tab[c] = v * factors[b]
		} else {
			tab[c] = v / q.Scales[b]
		}
	}
}
