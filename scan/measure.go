package scan

import (
	"math"
	"sort"
	"sync"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/parallel"
	"github.com/fp8lab/fp8lab/scaling"
)

// measure fills res from the codes of q in one pass over t and the codes,
// without a dequantized copy: each x̂ is formed as Dequantize forms it
// (dec(c)/scale in float32 for float32 scales, dec(c)·factor for MX and
// NVFP4). Rows are measured in parallel; the per-row sums are kept and
// added in row order afterwards, so the result does not depend on how the
// rows were split.
func measure(res *Result, t *scaling.Tensor, q *scaling.Quantized) {
	m := newMeasurer(q)
	for b := range q.Scales {
		if q.Amax[b] > 0 {
			d := q.BlockDecodeScale(b)
			res.ScaleInvMin = fmin(res.ScaleInvMin, d)
			res.ScaleInvMax = fmax(res.ScaleInvMax, d)
		}
	}
	// Per-row sums: Σx², Σ(x-x̂)², and Σx² of the clipped and the
	// flushed values.
	rowSig := make([]float64, t.Rows)
	rowNoise := make([]float64, t.Rows)
	rowOverE := make([]float64, t.Rows)
	rowUnderE := make([]float64, t.Rows)
	type part struct {
		counts
		worst      float64 // Σx²/Σ(x-x̂)² of worstBlock
		worstBlock int
		sig, noise float64 // of worstBlock
	}
	// One part per chunk, in chunk order (chunks start at distinct rows).
	parts := make(map[int]*part)
	var starts []int
	var mu sync.Mutex
	err := parallel.Chunks(t.Rows, 1, t.Len(), func(lo, hi int) error {
		p := &part{worst: math.Inf(1), worstBlock: -1}
		w := m.worker()
		for i := lo; i < hi; i++ {
			rowSig[i], rowNoise[i], rowOverE[i], rowUnderE[i] = w.row(t, i, &p.counts, &p.worst, &p.worstBlock)
		}
		p.sig, p.noise = w.worstSig, w.worstNoise
		mu.Lock()
		parts[lo] = p
		starts = append(starts, lo)
		mu.Unlock()
		return nil
	})
	if err != nil {
		res.Skipped = err.Error()
		return
	}
	sort.Ints(starts)
	var over, under, subn int
	var worst *part
	for _, lo := range starts {
		p := parts[lo]
		over, under, subn = over+p.over, under+p.under, subn+p.subn
		if p.worstBlock >= 0 && (worst == nil || p.worst < worst.worst) {
			worst = p
		}
	}
	res.WorstBlockSQNR = math.NaN()
	if worst != nil {
		res.WorstBlock, res.WorstBlockSQNR = worst.worstBlock, scaling.SQNR(worst.sig, worst.noise)
	}
	var sig, noise, overE, underE float64
	res.WorstRowSQNR = math.NaN()
	for i := range rowSig {
		rs, rn := rowSig[i], rowNoise[i]
		if rs > 0 {
			if v := scaling.SQNR(rs, rn); res.WorstRow < 0 || v < res.WorstRowSQNR {
				res.WorstRowSQNR, res.WorstRow = v, i
			}
		}
		sig, noise = sig+rs, noise+rn
		overE, underE = overE+rowOverE[i], underE+rowUnderE[i]
	}
	n := float64(t.Len())
	res.Overflow, res.Underflow, res.Subnormal = 100*float64(over)/n, 100*float64(under)/n, 100*float64(subn)/n
	res.MSE = noise / n
	res.SQNR = scaling.SQNR(sig, noise)
	if sig > 0 {
		res.OverflowEnergy, res.UnderflowEnergy = 100*overE/sig, 100*underE/sig
	}
}

// counts are what measure counts over a chunk of rows: values clipped,
// flushed to zero and encoded as subnormals.
type counts struct{ over, under, subn int }

// measurer holds what the workers of measure share.
type measurer struct {
	q       *scaling.Quantized
	f       *fp8.Format
	nc      int
	dec     [256]float32
	sub     [256]uint8 // 1 for the codes of nonzero subnormals
	edge    [256]bool  // codes that may mean overflow: ±Max, ±Inf, NaN
	factors []float32  // MX and NVFP4: the decode multiplier of each block
	// useTab: float32 scales over blocks large enough that a table of
	// dec(c)/scale per block pays for itself.
	useTab bool
}

func newMeasurer(q *scaling.Quantized) *measurer {
	f := q.Format
	m := &measurer{q: q, f: f, nc: f.NumCodes()}
	for c := 0; c < m.nc; c++ {
		m.dec[c] = f.Decode32(uint8(c))
		if f.Class(uint8(c)) == fp8.ClassSubnormal {
			m.sub[c] = 1
		}
		v := float64(m.dec[c])
		m.edge[c] = math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) == f.Max()
	}
	if !q.Granularity.FloatScales() {
		m.factors = make([]float32, len(q.Scales))
		for b := range m.factors {
			m.factors[b] = float32(q.BlockDecodeScale(b))
		}
	} else {
		m.useTab = q.BlockRows*q.BlockCols >= 2*m.nc
	}
	return m
}

// worker is one chunk's state: the dec(c)/scale tables of the current
// band of block rows.
type worker struct {
	*measurer
	band int
	tabs [][256]float32
	ys   [MetricsBlock]float32
	// worstSig and worstNoise are Σx² and Σ(x-x̂)² of the worst block.
	worstSig, worstNoise float64
}

func (m *measurer) worker() *worker {
	w := &worker{measurer: m, band: -1}
	if m.useTab {
		w.tabs = make([][256]float32, m.q.ScaleCols)
	}
	return w
}

// row measures row i: it adds its counts, updates the worst 1×32 block
// (lowest SQNR, first on ties) and returns the row's Σx² and Σ(x-x̂)², and
// the Σx² of its clipped and of its flushed values.
func (w *worker) row(t *scaling.Tensor, i int, cnt *counts, worst *float64, worstBlock *int) (rs, rn, eOver, eUnder float64) {
	q := w.q
	cols := t.Cols
	band := i / q.BlockRows
	base := band * q.ScaleCols
	if w.useTab && band != w.band {
		for bj := range w.tabs {
			s := q.Scales[base+bj]
			tab := &w.tabs[bj]
			for c := 0; c < w.nc; c++ {
				tab[c] = w.dec[c] / s
			}
		}
		w.band = band
	}
	row, codes := t.Row(i), q.Codes[i*cols:(i+1)*cols]
	perRow := (cols + MetricsBlock - 1) / MetricsBlock
	nOver, nUnder, nSub := 0, 0, 0
	for m0 := 0; m0 < cols; m0 += MetricsBlock {
		m1 := min(m0+MetricsBlock, cols)
		var bs, bn float64
		for j := m0; j < m1; {
			bj := j / q.BlockCols
			end := min(m1, (bj+1)*q.BlockCols)
			b := base + bj
			xs := row[j:end]
			cs := codes[j:end]
			cs = cs[:len(xs)]
			ys := w.ys[:len(xs)]
			switch {
			case w.useTab:
				tab := &w.tabs[bj]
				for k, c := range cs {
					ys[k] = tab[c]
				}
			case w.factors != nil:
				fac := w.factors[b]
				for k, c := range cs {
					ys[k] = w.dec[c] * fac
				}
			default:
				s := q.Scales[b]
				for k, c := range cs {
					ys[k] = w.dec[c] / s
				}
			}
			scale := q.Scales[b]
			for k, x := range xs {
				c, y := cs[k], ys[k]
				xf := float64(x)
				e := xf - float64(y)
				bs += xf * xf
				bn += e * e
				if y == 0 && x != 0 {
					nUnder++
					eUnder += xf * xf
				}
				nSub += int(w.sub[c])
				if w.edge[c] && w.f.Overflows(float64(x*scale), q.Mode) {
					nOver++
					eOver += xf * xf
				}
			}
			j = end
		}
		// Compare bs/bn, not the SQNR: the logarithm is monotonic, and
		// measure takes it once, of the worst block.
		if bs > 0 {
			if v := bs / bn; *worstBlock < 0 || v < *worst {
				*worst, *worstBlock = v, i*perRow+m0/MetricsBlock
				w.worstSig, w.worstNoise = bs, bn
			}
		}
		rs, rn = rs+bs, rn+bn
	}
	cnt.over, cnt.under, cnt.subn = cnt.over+nOver, cnt.under+nUnder, cnt.subn+nSub
	return rs, rn, eOver, eUnder
}
