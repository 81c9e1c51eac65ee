package viz

import (
	"math"
	"strconv"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/stretchr/testify/require"
)

func init() {
	sweeps["window"] = sweepSpec{
		fixed: map[string][]string{"seed": {"1", "2"}},
		short: 120,
		long:  1000,
		truth: windowTruth,
	}
}

// windowFates counts, by direct rounding with refRound, what a scale of
// 2^k does to every element: the fractions clipped, flushed to zero and
// made subnormal, and the SQNR in float64.
func windowFates(t *testing.T, format string, x []float32, k int) (over, under, sub, sqnr float64) {
	codes := refOf(t, format).codes
	sc := float32(math.Exp2(float64(k)))
	var signal, noise float64
	for _, v := range x {
		r, _ := refRound(t, format, float64(v*sc), "nearest", "saturate") // the product in float32, as Quantize forms it
		back := r.value / float64(sc)
		if r.overflow {
			over++
		}
		if v != 0 && r.value == 0 {
			under++
		}
		if codes[r.code].class == fp8.ClassSubnormal {
			sub++
		}
		signal += float64(v) * float64(v)
		d := float64(v) - back
		noise += d * d
	}
	n := float64(len(x))
	return over / n, under / n, sub / n, scaling.SQNR(signal, noise)
}

// windowTruth recomputes the window scene's claims from its tensor.
func windowTruth(t *testing.T, s Scene) truths {
	get := func(k string) string { v, err := s.Get(k); require.NoError(t, err); return v }
	format := get("format")
	mag, _ := strconv.Atoi(get("magnitude"))
	seed, _ := strconv.Atoi(get("seed"))
	k, _ := strconv.Atoi(get("scale"))
	var x *scaling.Tensor
	if get("tensor") == "loaded" {
		x = scaled(sweepTensor(), mag)
	} else {
		var err error
		x, err = makeTensor(get("tensor"), mag, uint64(seed))
		require.NoError(t, err)
	}
	amax := 0.0
	for _, v := range x.Data {
		amax = math.Max(amax, math.Abs(float64(v)))
	}
	vals := refOf(t, format).vals
	top := vals[len(vals)-1]
	c := math.Log2(top / amax)
	fits := int(math.Floor(c))
	tgt := min(max(fits, windowMinScale), windowMaxScale)
	tr := truths{}
	o, u, sub, q := windowFates(t, format, x.Data, k)
	tr["window.overflow"], tr["window.underflow"], tr["window.subnormal"], tr["window.sqnr"] = o, u, sub, q
	if tgt != k {
		o2, u2, _, _ := windowFates(t, format, x.Data, tgt)
		tr["window.overflow_at_target"], tr["window.underflow_at_target"] = o2, u2
	}
	sc := math.Exp2(float64(k))
	for _, v := range vals {
		if v > 0 {
			tr["window.low"] = v / sc // the smallest positive value, subnormal or not
			break
		}
	}
	tr["window.high"] = top / sc
	tr["window.current_log2"] = c
	tr["window.amax"] = amax
	tr["window.scale_vs_target"] = [2]float64{float64(k), float64(fits)}
	tr["window.fits"] = float64(fits)
	return tr
}
