package scan

import (
	"fmt"
	"math"
	"sort"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
)

// MetricsBlock is the block of Result.WorstBlockSQNR: 1×32 along rows, the
// block scaling.Metrics judges every recipe on (scaling.DefaultMetricsBlock).
const MetricsBlock = scaling.MXBlockSize

// WorstRows is how many outlier rows TensorStats lists.
const WorstRows = 3

// TensorStats describes one tensor and what each recipe does to it.
// Non-finite values are counted in NaN and Inf and left out of every other
// figure (they are quantized as zeros, which costs nothing in MSE or SQNR).
type TensorStats struct {
	Name  string  `json:"name"`
	File  string  `json:"file"`
	DType string  `json:"dtype"`
	Shape []int64 `json:"shape"`
	// View says how the tensor was read as a matrix (see Layout.View):
	// Rows output channels of Cols values, and which dimensions each
	// comes from. Every per-row and per-block figure refers to it.
	View string `json:"view"`
	Rows int    `json:"rows"`
	Cols int    `json:"cols"`
	// Amax is the largest finite |x|; MinNonZero the smallest nonzero one.
	Amax       float64 `json:"amax"`
	MinNonZero float64 `json:"min_nonzero"`
	// DynamicRange is log2(Amax/MinNonZero), in binades (0 when the tensor
	// holds fewer than one distinct nonzero magnitude).
	DynamicRange float64 `json:"dynamic_range_binades"`
	// Zeros is the share of elements that are zero (0…1).
	Zeros float64 `json:"zeros"`
	NaN   int     `json:"nan"`
	Inf   int     `json:"inf"`
	// Outlier is the largest, over rows, of the row's max|x| over the RMS
	// of the whole tensor: about 3–5 for a Gaussian tensor of a few
	// thousand values, far more when some rows hold values much larger
	// than the rest (what a per-tensor scale suffers from). OutlierRows are
	// the rows with the largest ratios, worst first.
	Outlier     float64 `json:"outlier_max_over_rms"`
	OutlierRows []int   `json:"outlier_rows"`
	// Histogram counts the finite nonzero |x| by binade; Windows holds,
	// for each scanned format, what it represents under the tensorwise
	// scale.
	Histogram   Histogram `json:"histogram"`
	Windows     []Window  `json:"windows"`
	Results     []Result  `json:"results"`
	Skipped     string    `json:"skipped,omitempty"`
	outlierVals []float64 // ratios of OutlierRows (for tests)
}

// Result is one tensor quantized with one recipe and element format.
type Result struct {
	Recipe string `json:"recipe"`
	Format string `json:"format"`
	// ScaleInvMin and ScaleInvMax are the smallest and largest decode scale
	// (scale_inv: what multiplies a decoded code) over the blocks with
	// nonzero amax; NaN when every block is zero.
	ScaleInvMin float64 `json:"scale_inv_min"`
	ScaleInvMax float64 `json:"scale_inv_max"`
	// Overflow, Underflow and Subnormal are percentages of the elements
	// (a non-finite input counts as a zero): clipped (x·scale rounds beyond the format's Max), nonzero
	// flushed to zero, and encoded as a nonzero subnormal.
	Overflow  float64 `json:"overflow_pct"`
	Underflow float64 `json:"underflow_pct"`
	Subnormal float64 `json:"subnormal_pct"`
	// OverflowEnergy and UnderflowEnergy are the percentages of the
	// tensor's Σx² that the clipped and the flushed values carry (0 for
	// an all-zero tensor): whether the values lost matter.
	OverflowEnergy  float64 `json:"overflow_energy_pct"`
	UnderflowEnergy float64 `json:"underflow_energy_pct"`
	// MSE is the mean of (x-x̂)² over the elements.
	MSE float64 `json:"mse"`
	// SQNR is 10·log10(Σx²/Σ(x-x̂)²) in dB over the tensor (+Inf: exact,
	// NaN: all zero); WorstRowSQNR and WorstBlockSQNR are the lowest over
	// the rows and the 1×32 blocks with signal, at WorstRow and WorstBlock
	// (block index in row-major order of the 1×32 grid; -1: none).
	SQNR           float64 `json:"sqnr_db"`
	WorstRowSQNR   float64 `json:"worst_row_sqnr_db"`
	WorstRow       int     `json:"worst_row"`
	WorstBlockSQNR float64 `json:"worst_block_sqnr_db"`
	WorstBlock     int     `json:"worst_block"`
	// Skipped says why the recipe could not run on this tensor.
	Skipped string `json:"skipped,omitempty"`
}

// Describe computes the tensor statistics of t (not the recipes') and
// replaces its non-finite values by zeros, ready for Measure. A tensor
// that is not one (nil, or data that does not match its shape) gives
// statistics with Skipped saying why.
func Describe(t *scaling.Tensor) TensorStats {
	if err := t.Check(); err != nil {
		return TensorStats{Skipped: err.Error()}
	}
	s := TensorStats{Rows: t.Rows, Cols: t.Cols}
	type rowRatio struct {
		row int
		r   float64
	}
	ratios := make([]rowRatio, 0, t.Rows)
	var v valueStats
	v.minBits = math.MaxUint32
	for i := 0; i < t.Rows; i++ {
		row := t.Row(i)
		rmax, ok := v.addRow(row)
		if !ok {
			// Rare: take the row's counts back, zero its NaNs and
			// infinities, and count the row again.
			v.removeRow(row)
			for k, x := range row {
				switch {
				case x != x:
					s.NaN++
					row[k] = 0
				case math.IsInf(float64(x), 0):
					s.Inf++
					row[k] = 0
				}
			}
			rmax, _ = v.addRow(row)
		}
		m := float64(math.Float32frombits(rmax))
		s.Amax = max(s.Amax, m)
		ratios = append(ratios, rowRatio{i, m})
	}
	var bins [numBinades]int
	zeros := v.binades(&bins) - s.NaN - s.Inf // zeroed above
	n := t.Len() - s.NaN - s.Inf
	rms := math.Sqrt(v.sumSquares() / float64(max(n, 1)))
	if rms > 0 {
		for k := range ratios {
			ratios[k].r /= rms
		}
	} else {
		ratios = ratios[:0]
	}
	s.Histogram = histogram(&bins)
	s.Zeros = float64(zeros) / float64(t.Len())
	if v.minBits != math.MaxUint32 {
		s.MinNonZero = float64(math.Float32frombits(v.minBits + 1))
		s.DynamicRange = math.Log2(s.Amax / s.MinNonZero)
	}
	sort.SliceStable(ratios, func(a, b int) bool { return ratios[a].r > ratios[b].r })
	s.OutlierRows = []int{}
	for k := 0; k < len(ratios) && k < WorstRows; k++ {
		s.OutlierRows = append(s.OutlierRows, ratios[k].row)
		s.outlierVals = append(s.outlierVals, ratios[k].r)
	}
	if len(ratios) > 0 {
		s.Outlier = ratios[0].r
	}
	return s
}

// valueStats is what Describe accumulates over the values, on the bits
// of |x| (a nonnegative float32 orders as its bits): counts per exponent
// field, in two copies that alternate so that runs of values in one
// binade do not wait on each other's increments; Σx² in two lanes, for
// the same reason; the bits of the smallest nonzero |x|, minus 1 (so a
// zero, whose bits minus 1 wrap to the largest, never wins a min); and
// the count and binades of the subnormals, which share exponent field 0
// with the zeros.
type valueStats struct {
	exps    [2][256]int
	ss      [2]float64
	minBits uint32
	subn    [numBinades]int
	nSub    int
}

// addRow adds row's values and returns the largest |x| as float32 bits.
// When the row holds a NaN or an infinity it returns false, and its sums
// are then wrong: the caller takes the counts back (removeRow) and adds
// the row again with those values zeroed.
func (v *valueStats) addRow(row []float32) (uint32, bool) {
	var rmax, special uint32
	minBits := uint32(math.MaxUint32) // of this row
	ss0, ss1 := v.ss[0], v.ss[1]
	e0, e1 := &v.exps[0], &v.exps[1]
	k := 0
	for ; k+2 <= len(row); k += 2 {
		x0, x1 := row[k], row[k+1]
		a0, a1 := math.Float32bits(x0)&0x7FFFFFFF, math.Float32bits(x1)&0x7FFFFFFF
		special |= (a0 + 0x00800000) | (a1 + 0x00800000) // bit 31: NaN or ±Inf
		ss0 += float64(x0) * float64(x0)
		ss1 += float64(x1) * float64(x1)
		rmax = max(rmax, a0, a1)
		minBits = min(minBits, a0-1, a1-1)
		e0[a0>>23]++
		e1[a1>>23]++
	}
	for ; k < len(row); k++ {
		x := row[k]
		a := math.Float32bits(x) & 0x7FFFFFFF
		special |= a + 0x00800000
		ss0 += float64(x) * float64(x)
		rmax = max(rmax, a)
		minBits = min(minBits, a-1)
		e0[a>>23]++
	}
	if special>>31 != 0 {
		return 0, false
	}
	if minBits < 0x007FFFFF { // a nonzero value below the smallest normal
		v.addSubnormals(row)
	}
	v.ss[0], v.ss[1], v.minBits = ss0, ss1, min(v.minBits, minBits)
	return rmax, true
}

// removeRow takes back the exponent counts addRow added for row.
func (v *valueStats) removeRow(row []float32) {
	for k, x := range row {
		v.exps[k&1][math.Float32bits(x)>>23&0xFF]--
	}
}

// addSubnormals counts the nonzero subnormals of row by binade.
func (v *valueStats) addSubnormals(row []float32) {
	for _, x := range row {
		if a := math.Float32bits(x) & 0x7FFFFFFF; a != 0 && a < 0x00800000 {
			v.subn[binade(math.Float32frombits(a))-minBinade]++
			v.nSub++
		}
	}
}

// binades fills bins, indexed from minBinade, with the counts of the
// finite nonzero |x| by binade and returns the number of zeros.
func (v *valueStats) binades(bins *[numBinades]int) int {
	*bins = v.subn
	for e := 1; e < 255; e++ {
		bins[e-127-minBinade] += v.exps[0][e] + v.exps[1][e]
	}
	return v.exps[0][0] + v.exps[1][0] - v.nSub
}

// sumSquares returns Σx² of the values added.
func (v *valueStats) sumSquares() float64 { return v.ss[0] + v.ss[1] }

// Measure quantizes t (finite: see Describe) with recipe r and element
// format f, and measures the result against t in one pass over the codes,
// without a dequantized copy. A Hadamard recipe rotates a copy of t first
// and measures in the rotated basis (the rotation is orthogonal: the
// whole-tensor and per-row sums of squares are those of the original).
func Measure(t *scaling.Tensor, r Recipe, f *fp8.Format) Result {
	if r.Format != nil {
		f = r.Format
	}
	res := Result{Recipe: r.Name, Format: f.Name(), WorstRow: -1, WorstBlock: -1}
	nan := math.NaN()
	res.ScaleInvMin, res.ScaleInvMax, res.SQNR, res.WorstRowSQNR, res.WorstBlockSQNR = nan, nan, nan, nan, nan
	if r.Hadamard > 0 {
		b := r.Hadamard
		for b >= 2 && t.Cols%b != 0 {
			b /= 2
		}
		if b < 2 {
			res.Skipped = fmt.Sprintf("rows of %d values take no Hadamard block", t.Cols)
			return res
		}
		rot, err := scaling.NewRandomRotation(t.Cols, b, HadamardSeed)
		if err == nil {
			t = t.Clone()
			err = rot.RotateRows(t)
		}
		if err != nil {
			res.Skipped = err.Error()
			return res
		}
	}
	q, err := scaling.Quantize(t, f, r.Granularity, scaling.Options{})
	if err != nil {
		res.Skipped = err.Error()
		return res
	}
	measure(&res, t, q)
	return res
}

// fmin and fmax treat NaN as "no value yet".
func fmin(a, b float64) float64 {
	if a != a || b < a {
		return b
	}
	return a
}

func fmax(a, b float64) float64 {
	if a != a || b > a {
		return b
	}
	return a
}
