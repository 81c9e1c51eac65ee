package viz

import (
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/x448/float16"
)

func init() {
	sweeps["range"] = sweepSpec{
		texts: map[string][]string{"formats": {defaultRangeFormats, "E4M3FN,E5M2", "E5M2,E4M3FN", "E8M0,E2M1", "E2M1", "E8M0", "FP16,BF16",
			"BF16,E4M3FN", "E4M3FNUZ,E5M2FNUZ,E4M3B11FNUZ", "E3M4,E4M3", "E2M3,E3M2,E2M1,E8M0", "", "XYZ", "E4M3FN,,E5M2", " e4m3fn , bf16 ",
			"E4M3FN,E5M2,E4M3FNUZ,E5M2FNUZ,E4M3,E3M4,E2M1,E8M0,BF16"}},
		short: 200,
		truth: rangeTruth,
	}
}

// refWideValues returns FP16's or BF16's positive finite values from their
// bit patterns (x448/float16 for FP16; the top half of a float32 for
// BF16), and the largest value's code.
func refWideValues(name string) (vals []float64, maxCode int) {
	for c := 0; c < 0x8000; c++ {
		var v float64
		if name == "FP16" {
			v = float64(float16.Frombits(uint16(c)).Float32())
		} else {
			v = float64(math.Float32frombits(uint32(c) << 16))
		}
		if v > 0 && !math.IsInf(v, 0) && !math.IsNaN(v) {
			vals, maxCode = append(vals, v), c
		}
	}
	sort.Float64s(vals)
	return vals, maxCode
}

// rangeTruth recomputes every format's range from its decoded codes: the
// smallest and largest positive values, their count, the powers of two
// between them, the value after 1, and where round to nearest even starts
// to overflow (halfway to the step beyond max, itself included when the
// step's code would be even).
func rangeTruth(t *testing.T, s Scene) truths {
	names := strings.Split(mustGet(t, s, "formats"), ",")
	tr := truths{}
	type summary struct{ binades, step float64 }
	sums := map[string]summary{}
	for _, name := range names {
		var vals []float64
		var maxCode int
		if name == "FP16" || name == "BF16" {
			vals, maxCode = refWideValues(name)
		} else {
			rf := refOf(t, name)
			for i, v := range rf.vals {
				if v > 0 {
					vals, maxCode = append(vals, v), rf.mags[i]
				}
			}
		}
		require.NotEmpty(t, vals)
		lo, hi := vals[0], vals[len(vals)-1]
		k := "range." + name
		tr[k+".smallest"], tr[k+".max"], tr[k+".positive_values"] = lo, hi, len(vals)
		tr[k+".binades"] = math.Log2(hi / lo)
		after := math.NaN()
		for _, v := range vals {
			if v > 1 {
				after = v
				break
			}
		}
		tr[k+".after_one"] = after
		next := 2 * hi // a format of powers of two steps to the next one
		if m, _ := math.Frexp(vals[len(vals)-2]); m != 0.5 || hi != 2*vals[len(vals)-2] {
			next = hi + (hi - vals[len(vals)-2])
		}
		tr[k+".overflow_threshold"] = (hi + next) / 2
		tr[k+".overflow_inclusive"] = (maxCode+1)%2 == 0 // the tie goes to the even code
		sums[name] = summary{math.Log2(hi / lo), after - 1}
	}
	if len(names) >= 2 {
		a, b := names[0], names[1]
		tr["range."+a+".binades_vs_"+b] = [2]float64{sums[a].binades, sums[b].binades}
		tr["range."+a+".step_vs_"+b] = [2]float64{sums[a].step, sums[b].step}
	}
	return tr
}
