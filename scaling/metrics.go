package scaling

import (
	"fmt"
	"math"

	"github.com/fp8lab/fp8lab/fp8"
)

// Why per-row and per-block SQNR: the whole-tensor SQNR,
// 10·log10(Σx² / Σ(x-x̂)²), is a ratio of sums, and the sums are dominated
// by the largest values. Give a matrix a few outlier rows 10^5 times larger
// than the rest and quantize it with one tensor scale: the small rows are
// flushed to zero, yet their squared values are 10^-10 of the total, so the
// whole-tensor SQNR barely moves. The per-row and per-block figures weigh
// every row or block alike, and their worst value shows the damage.

// DefaultMetricsBlock is the block shape of Metrics.Blocks: 1×32, the MX
// block, so that every recipe is judged on the same small blocks.
var DefaultMetricsBlock = Block(1, MXBlockSize)

// SQNRSummary summarizes the SQNR of the parts (rows or blocks) of a tensor.
// Parts whose input is all zero have no signal and are left out. A part
// reproduced exactly has an SQNR of +Inf: it counts in Exact and is left out
// of Mean, which would otherwise be +Inf.
type SQNRSummary struct {
	// Mean is the mean SQNR in dB over the parts with signal and some error
	// (+Inf when every such part is exact, NaN when no part has signal).
	Mean float64 `json:"mean_db"`
	// Worst is the lowest SQNR in dB of a part with signal.
	Worst float64 `json:"worst_db"`
	// WorstIndex is the index of the worst part (row, or block in row-major
	// grid order), -1 when there is none.
	WorstIndex int `json:"worst_index"`
	Parts      int `json:"parts"` // parts with signal
	Exact      int `json:"exact"` // parts with signal and no error
}

// MarshalJSON writes ±Inf and NaN as the strings "+Inf", "-Inf" and "NaN"
// (see fp8.Number).
func (s SQNRSummary) MarshalJSON() ([]byte, error) { return marshalNumbers(s) }

// Metrics describes the error a quantization made. Elements whose input is
// NaN or ±Inf are counted in NonFinite and left out of everything else.
type Metrics struct {
	Elements  int `json:"elements"`
	NonFinite int `json:"non_finite"`
	// MSE is the mean of (x - x̂)² over the finite elements.
	MSE float64 `json:"mse"`
	// SQNR is 10·log10(Σx² / Σ(x-x̂)²) in dB over the whole tensor: +Inf when
	// there is no error, NaN when the input is all zero. It hides what coarse
	// scaling does to small values; see Rows and Blocks.
	SQNR        float64 `json:"sqnr_db"`
	MaxAbsError float64 `json:"max_abs_error"`
	// MaxRelError is the largest |x - x̂| / |x| over nonzero x (1 for an
	// element flushed to zero).
	MaxRelError float64 `json:"max_rel_error"`
	// Overflow counts the finite elements that were clipped: the scaled
	// value x·scale, formed in float32 as Quantize forms it, rounds beyond
	// the format's Max (fp8's Format.Overflows: round first, then compare),
	// so the code is ±Max (or Inf or NaN in non-saturating modes). A value
	// a hair above Max that rounds to Max is not clipped. Under stochastic
	// rounding it counts the elements that can round past Max.
	Overflow int `json:"overflow"`
	// Underflow counts the nonzero elements that became zero.
	Underflow int `json:"underflow"`
	// FractionSubnormal is the fraction of elements whose code is a nonzero
	// subnormal of the element format.
	FractionSubnormal float64 `json:"fraction_subnormal"`
	// DistinctCodes is how many different codes the elements use.
	DistinctCodes int `json:"distinct_codes"`
	// Rows summarizes the SQNR of each row; Blocks that of each block of
	// BlockRows×BlockCols (DefaultMetricsBlock unless MeasureWith was told
	// otherwise).
	Rows      SQNRSummary `json:"row_sqnr"`
	Blocks    SQNRSummary `json:"block_sqnr"`
	BlockRows int         `json:"block_rows"`
	BlockCols int         `json:"block_cols"`
}

// MarshalJSON writes ±Inf and NaN as the strings "+Inf", "-Inf" and "NaN"
// (see fp8.Number).
func (m Metrics) MarshalJSON() ([]byte, error) { return marshalNumbers(m) }

// SQNR returns 10·log10(signal/noise) in dB for sums of squares: +Inf when
// noise is 0 and signal is not, NaN when signal is 0.
func SQNR(signal, noise float64) float64 {
	if signal == 0 {
		return math.NaN()
	}
	if noise == 0 {
		return math.Inf(1)
	}
	return 10 * math.Log10(signal/noise)
}

// Measure dequantizes q and compares it with orig, the tensor it was made
// from, with the default per-block shape (DefaultMetricsBlock).
func Measure(orig *Tensor, q *Quantized) (Metrics, error) {
	return MeasureWith(orig, q, DefaultMetricsBlock)
}

// MeasureWith is Measure with the blocks of Metrics.Blocks taken from
// granularity blocks (for example PerCol, Block(128, 128), or q.Granularity
// to judge each scaling block).
func MeasureWith(orig *Tensor, q *Quantized, blocks Granularity) (Metrics, error) {
	if err := orig.Check(); err != nil {
		return Metrics{}, err
	}
	if err := q.Check(); err != nil {
		return Metrics{}, err
	}
	if orig.Rows != q.Rows || orig.Cols != q.Cols {
		return Metrics{}, fmt.Errorf("%w: original %d×%d, quantized %d×%d", ErrShape, orig.Rows, orig.Cols, q.Rows, q.Cols)
	}
	deq, err := q.Dequantize()
	if err != nil {
		return Metrics{}, err
	}
	m, err := Compare(orig, deq, blocks)
	if err != nil {
		return Metrics{}, err
	}
	var subnormal [256]bool
	for c := 0; c < q.Format.NumCodes(); c++ {
		subnormal[c] = q.Format.Class(uint8(c)) == fp8.ClassSubnormal
	}
	var seen [256]bool
	subnormals := 0
	for i := 0; i < q.Rows; i++ {
		base := (i / q.BlockRows) * q.ScaleCols
		for j := 0; j < q.Cols; j++ {
			k := i*q.Cols + j
			c := q.Codes[k]
			seen[c] = true
			if subnormal[c] {
				subnormals++
			}
			x := orig.Data[k]
			if !math.IsInf(float64(x), 0) && q.Format.Overflows(float64(x*q.Scales[base+j/q.BlockCols]), q.Mode) {
				m.Overflow++
			}
		}
	}
	for _, s := range seen {
		if s {
			m.DistinctCodes++
		}
	}
	m.FractionSubnormal = float64(subnormals) / float64(len(q.Codes))
	return m, nil
}

// Compare measures approx against orig (same shape) without codes: MSE,
// SQNR, largest errors, underflow, and the per-row and per-block SQNR with
// blocks of granularity blocks. Overflow, FractionSubnormal and
// DistinctCodes stay zero: they need the codes (see Measure).
func Compare(orig, approx *Tensor, blocks Granularity) (Metrics, error) {
	if err := orig.Check(); err != nil {
		return Metrics{}, err
	}
	if err := approx.Check(); err != nil {
		return Metrics{}, err
	}
	if err := sameShape(orig, approx); err != nil {
		return Metrics{}, err
	}
	l, err := newLayout(blocks, orig.Rows, orig.Cols)
	if err != nil {
		return Metrics{}, err
	}
	m := Metrics{Elements: orig.Len(), BlockRows: l.br, BlockCols: l.bc}
	rowSig, rowNoise := make([]float64, orig.Rows), make([]float64, orig.Rows)
	blkSig, blkNoise := make([]float64, l.blocks()), make([]float64, l.blocks())
	var sig, noise float64
	for i := 0; i < orig.Rows; i++ {
		base := (i / l.br) * l.gc
		for j := 0; j < orig.Cols; j++ {
			x := float64(orig.Data[i*orig.Cols+j])
			y := float64(approx.Data[i*orig.Cols+j])
			if math.IsNaN(x) || math.IsInf(x, 0) {
				m.NonFinite++
				continue
			}
			e := x - y
			s2, e2 := x*x, e*e
			if math.IsNaN(e) || math.IsInf(e, 0) {
				e2 = math.Inf(1)
			}
			sig += s2
			noise += e2
			rowSig[i] += s2
			rowNoise[i] += e2
			b := base + j/l.bc
			blkSig[b] += s2
			blkNoise[b] += e2
			ae := math.Abs(e)
			if math.IsNaN(ae) {
				ae = math.Inf(1)
			}
			m.MaxAbsError = max(m.MaxAbsError, ae)
			if x != 0 {
				m.MaxRelError = max(m.MaxRelError, ae/math.Abs(x))
				if y == 0 {
					m.Underflow++
				}
			}
		}
	}
	if finite := m.Elements - m.NonFinite; finite > 0 {
		m.MSE = noise / float64(finite)
	}
	m.SQNR = SQNR(sig, noise)
	m.Rows = summarize(rowSig, rowNoise)
	m.Blocks = summarize(blkSig, blkNoise)
	return m, nil
}

// summarize turns per-part sums of squares into an SQNRSummary.
func summarize(sig, noise []float64) SQNRSummary {
	s := SQNRSummary{Worst: math.NaN(), WorstIndex: -1}
	var sum float64
	finite := 0
	for p := range sig {
		if sig[p] == 0 {
			continue
		}
		s.Parts++
		db := SQNR(sig[p], noise[p])
		if math.IsInf(db, 1) {
			s.Exact++
		} else {
			sum += db
			finite++
		}
		if s.WorstIndex < 0 || db < s.Worst {
			s.Worst, s.WorstIndex = db, p
		}
	}
	switch {
	case finite > 0:
		s.Mean = sum / float64(finite)
	case s.Exact > 0:
		s.Mean = math.Inf(1)
	default:
		s.Mean = math.NaN()
	}
	return s
}

// SQNRByBlock returns the SQNR in dB of approx against orig for each block
// of granularity g, in row-major grid order (PerRow gives one value per
// row): +Inf for an exact block, NaN for a block whose input is all zero or
// holds non-finite values only.
func SQNRByBlock(orig, approx *Tensor, g Granularity) ([]float64, error) {
	if err := orig.Check(); err != nil {
		return nil, err
	}
	if err := approx.Check(); err != nil {
		return nil, err
	}
	if err := sameShape(orig, approx); err != nil {
		return nil, err
	}
	l, err := newLayout(g, orig.Rows, orig.Cols)
	if err != nil {
		return nil, err
	}
	sig, noise := make([]float64, l.blocks()), make([]float64, l.blocks())
	for i := 0; i < orig.Rows; i++ {
		for j := 0; j < orig.Cols; j++ {
			x := float64(orig.Data[i*orig.Cols+j])
			if math.IsNaN(x) || math.IsInf(x, 0) {
				continue
			}
			e := x - float64(approx.Data[i*orig.Cols+j])
			b := l.blockOf(i, j)
			sig[b] += x * x
			if math.IsNaN(e) {
				noise[b] = math.Inf(1)
			} else {
				noise[b] += e * e
			}
		}
	}
	out := make([]float64, len(sig))
	for b := range out {
		out[b] = SQNR(sig[b], noise[b])
	}
	return out, nil
}
