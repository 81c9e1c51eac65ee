package scaling

import (
	"math"
	"sync"

	"github.com/fp8lab/fp8lab/fp8"
)

// EncodeStats are the error statistics of a quantization, gathered while
// the codes are written (QuantizeWithStats) instead of in a decode pass
// afterwards (Measure). Each element's x̂ is formed exactly as Dequantize
// forms it and each count follows Metrics' definition, so the counts equal
// Measure's and the sums differ from it only in the order of addition.
type EncodeStats struct {
	Elements  int // all elements
	NonFinite int // NaN or ±Inf inputs, left out of the rest
	// SumSquares is Σx² and SumSquaredError Σ(x - x̂)² over the finite
	// elements, in float64 (+Inf where x̂ is NaN or infinite).
	SumSquares      float64
	SumSquaredError float64
	MSE             float64 // SumSquaredError over the finite elements
	SQNR            float64 // 10·log10(SumSquares/SumSquaredError) dB, see SQNR
	Overflow        int     // finite elements clipped, as Metrics.Overflow
	Underflow       int     // nonzero elements that became zero
}

// QuantizeWithStats is Quantize that also returns the error statistics,
// computed in the encode pass from each chunk while it is in cache.
func QuantizeWithStats(t *Tensor, f *fp8.Format, g Granularity, opts Options) (*Quantized, EncodeStats, error) {
	st := &statsAcc{}
	q, err := quantize(nil, t, f, g, opts, st)
	if err != nil {
		return nil, EncodeStats{}, err
	}
	s := st.s
	s.Elements = t.Len()
	if finite := s.Elements - s.NonFinite; finite > 0 {
		s.MSE = s.SumSquaredError / float64(finite)
	}
	s.SQNR = SQNR(s.SumSquares, s.SumSquaredError)
	return q, s, nil
}

// statsAcc holds what the workers of encodeBlocks share and merges their
// statistics.
type statsAcc struct {
	factors []float32 // MX and NVFP4: the decode multiplier of each block
	values  [256]float32
	edge    [256]bool // codes that may mean overflow: ±Max, ±Inf, NaN

	mu sync.Mutex
	s  EncodeStats
}

// init fills the shared tables once q's scales are known.
func (a *statsAcc) init(q *Quantized) {
	f := q.Format
	for code := 0; code < f.NumCodes(); code++ {
		a.values[code] = f.Decode32(uint8(code))
		v := float64(a.values[code])
		a.edge[code] = math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) == f.Max()
	}
	if !q.Granularity.FloatScales() { // decode scales: E8M0 or E4M3 codes
		a.factors = make([]float32, len(q.Scales))
		for b := range a.factors {
			a.factors[b] = float32(q.BlockDecodeScale(b))
		}
	}
}

func (a *statsAcc) merge(s *EncodeStats) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.s.NonFinite += s.NonFinite
	a.s.SumSquares += s.SumSquares
	a.s.SumSquaredError += s.SumSquaredError
	a.s.Overflow += s.Overflow
	a.s.Underflow += s.Underflow
}

// chunkStats accumulates the statistics of one worker.
type chunkStats struct {
	q       *Quantized
	mode    fp8.Mode
	factors []float32
	values  [256]float32
	edge    [256]bool
	// tab caches values[c]/tabScale for the float32-scale granularities,
	// rebuilt for runs of at least 256 elements under one scale.
	tab      [256]float32
	tabScale float32
	s        EncodeStats
}

func newChunkStats(q *Quantized, mode fp8.Mode, a *statsAcc) *chunkStats {
	return &chunkStats{q: q, mode: mode, factors: a.factors, values: a.values, edge: a.edge}
}

// add folds elements x and their codes, the run j0.. of row i, into the
// statistics.
func (c *chunkStats) add(i, j0 int, x []float32, codes []uint8) {
	q := c.q
	base := (i / q.BlockRows) * q.ScaleCols
	for j := 0; j < len(x); {
		b := base + (j0+j)/q.BlockCols
		end := min((b-base+1)*q.BlockCols-j0, len(x))
		xs, cs := x[j:end], codes[j:end]
		cs = cs[:len(xs)]
		scale := q.Scales[b]
		switch {
		case c.factors != nil:
			fac := c.factors[b]
			for k, v := range xs {
				c.element(v, scale, cs[k], c.values[cs[k]]*fac)
			}
		case len(xs) >= 256 || q.Scales[b] == c.tabScale:
			if s := q.Scales[b]; s != c.tabScale {
				for code, v := range c.values {
					c.tab[code] = v / s
				}
				c.tabScale = s
			}
			for k, v := range xs {
				c.element(v, scale, cs[k], c.tab[cs[k]])
			}
		default:
			s := q.Scales[b]
			for k, v := range xs {
				c.element(v, scale, cs[k], c.values[cs[k]]/s)
			}
		}
		j = end
	}
}

// element folds one element: input x, its block's scale, code and x̂ = y.
func (c *chunkStats) element(x, scale float32, code uint8, y float32) {
	xf := float64(x)
	if math.IsNaN(xf) || math.IsInf(xf, 0) {
		c.s.NonFinite++
		return
	}
	e := xf - float64(y)
	e2 := e * e
	if math.IsNaN(e2) || math.IsInf(e2, 0) {
		e2 = math.Inf(1)
	}
	c.s.SumSquares += xf * xf
	c.s.SumSquaredError += e2
	if x != 0 && y == 0 {
		c.s.Underflow++
	}
	if c.edge[code] && c.q.Format.Overflows(float64(x*scale), c.mode) {
		c.s.Overflow++
	}
}
