package viz

import (
	"math"
	"strings"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/stretchr/testify/require"
)

func init() {
	sweeps["granularity"] = sweepSpec{
		fixed: map[string][]string{"seed": {"7", "8"}, "outlier_rows": {"0", "1", "3", "16"}, "outlier_cols": {"0", "1", "16"}, "factor": {"0", "1", "16", "24"}},
		short: 50,
		long:  1000,
		truth: granularityTruth,
	}
}

// granMeasured is one granularity measured in float64 from the library's
// quantized codes and scales.
type granMeasured struct {
	key                 string
	sqnr, worst         float64
	underflow, overflow int
}

// granularityTruth quantizes the scene's input matrix with every
// granularity the scene shows, by scaling.Quantize called directly, and
// measures each: SQNR of the whole tensor and of its worst row in float64,
// values flushed to zero, and values whose scaled magnitude rounds beyond
// the format's largest value by refRound.
func granularityTruth(t *testing.T, s Scene) truths {
	g := s.(*granularityScene)
	tr := truths{}
	if g.compute() != nil {
		return tr
	}
	x := g.t
	mxr, err := fp8.ParseScaleRounding(mustGet(t, s, "mx_rounding"))
	require.NoError(t, err)
	var ms []granMeasured
	for _, c := range g.cases {
		f := c.fmt
		opt := scaling.Options{}
		if c.g.Scales() == scaling.ScaleE8M0 {
			opt.MXRounding = mxr
		}
		q, err := scaling.Quantize(x, f, c.g, opt)
		require.NoError(t, err)
		deq, err := q.Dequantize()
		require.NoError(t, err)
		m := granMeasured{key: c.key, worst: math.Inf(1)}
		var sig, noise float64
		for i := 0; i < x.Rows; i++ {
			var rs, rn float64
			for j := 0; j < x.Cols; j++ {
				k := i*x.Cols + j
				v, d := float64(x.Data[k]), float64(x.Data[k])-float64(deq.Data[k])
				rs, rn = rs+v*v, rn+d*d
				if v != 0 && deq.Data[k] == 0 {
					m.underflow++
				}
				sc := q.Scales[(i/q.BlockRows)*q.ScaleCols+j/q.BlockCols]
				if r, ok := refRound(t, f.Name(), float64(x.Data[k]*sc), "nearest", "saturate"); ok && r.overflow {
					m.overflow++
				}
			}
			sig, noise = sig+rs, noise+rn
			if rs > 0 {
				m.worst = math.Min(m.worst, scaling.SQNR(rs, rn))
			}
		}
		m.sqnr = scaling.SQNR(sig, noise)
		ms = append(ms, m)
	}
	tensor := ms[0]
	tr["granularity.tensor.sqnr"], tr["granularity.tensor.worst_row"] = tensor.sqnr, tensor.worst
	tr["granularity.tensor.sqnr_vs_worst_row"] = [2]float64{tensor.sqnr, tensor.worst}
	tr["granularity.tensor.underflow"] = tensor.underflow
	best := math.Inf(-1)
	for _, m := range ms {
		best = math.Max(best, m.worst)
	}
	var keys []string
	lo, hi, wlo, whi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, m := range ms {
		if dbText(m.worst) == dbText(best) {
			keys = append(keys, m.key)
		}
		tr["granularity."+m.key+".underflow"] = m.underflow
		tr["granularity."+m.key+".worst_row"] = m.worst
		tr["granularity."+m.key+".worst_row_vs_tensor"] = [2]float64{m.worst, tensor.worst}
		lo, hi, wlo, whi = math.Min(lo, m.sqnr), math.Max(hi, m.sqnr), math.Min(wlo, m.worst), math.Max(whi, m.worst)
		if m.key == "mx" {
			tr["granularity.mx.overflow"] = m.overflow
		}
	}
	tr["granularity.best_worst_row"] = strings.Join(keys, "+")
	tr["granularity.spans"] = [2]float64{hi - lo, whi - wlo}
	tr["granularity.outlier_rows"], tr["granularity.outlier_cols"] = g.ps.int("outlier_rows"), g.ps.int("outlier_cols")
	for _, c := range g.cases {
		if c.g.Scales() == scaling.ScaleE8M0 {
			emax, err := scaling.MXEmax(c.fmt)
			require.NoError(t, err)
			tr["granularity.mx.floor_reach"] = [2]float64{math.Exp2(float64(emax + 1)), c.fmt.Max()}
		}
	}
	return tr
}
