package scaling

import (
	"fmt"

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
	return parallel.Chunks(q.Rows, 1, len(q.Codes), func(lo, hi int) error {
		var tab [256]float32
		tabBlock := -1
		for i := lo; i < hi; i++ {
			row := dst[i*q.Cols : (i+1)*q.Cols]
			codes := q.Codes[i*q.Cols : (i+1)*q.Cols]
			base := (i / q.BlockRows) * q.ScaleCols
			if useTable {
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
				continue
			}
			if err := q.Format.DecodeSlice32(row, codes); err != nil {
				return err
			}
			if q.BlockCols == 1 && !mul {
				// One scale per element of the row (column scales).
				s := q.Scales[base : base+q.Cols]
				for k := range row {
					row[k] /= s[k]
				}
				continue
			}
			for j0 := 0; j0 < q.Cols; j0 += q.BlockCols {
				b := base + j0/q.BlockCols
				seg := row[j0:min(j0+q.BlockCols, q.Cols)]
				if mul {
					m := factors[b]
					for k := range seg {
						seg[k] *= m
					}
				} else {
					s := q.Scales[b]
					for k := range seg {
						seg[k] /= s
					}
				}
			}
		}
		return nil
	})
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
