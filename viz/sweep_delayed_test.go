package viz

import (
	"math"
	"strconv"
	"testing"

	"github.com/fp8lab/fp8lab/scaling"
	"github.com/stretchr/testify/require"
)

func init() {
	sweeps["delayed"] = sweepSpec{
		fixed: map[string][]string{"seed": {"5", "6"}, "spike_at": {"0", "1", "80", "199"}, "spike": {"0", "1", "10", "16"}},
		short: 50,
		long:  1000,
		truth: delayedTruth,
	}
}

// delayedTruth runs delayed scaling afresh, written out here from
// Transformer Engine's rule (scale = Max / amax of the history / 2^margin in
// float64, kept when the amax is 0; the first step uses scale 1), with every
// element rounded by refRound, over the scene's sequence of tensors.
func delayedTruth(t *testing.T, s Scene) truths {
	get := func(k string) int { v, err := strconv.Atoi(mustGet(t, s, k)); require.NoError(t, err); return v }
	format := mustGet(t, s, "format")
	histLen := get("history")
	mostRecent := mustGet(t, s, "algo") == "most_recent"
	margin := math.Exp2(float64(get("margin")))
	at := get("spike_at")
	seq := scaling.Sequence{Steps: delayedSteps, Rows: delayedRows, Cols: delayedCols, Seed: uint64(get("seed")),
		Drift: 1 + float64(get("drift"))/100, SpikeStep: at, SpikeFactor: math.Exp2(float64(get("spike")))}
	ts, err := seq.Generate()
	require.NoError(t, err)
	vals := refOf(t, format).vals
	fmax := vals[len(vals)-1]
	type step struct {
		scale, sqnr, cur float64
		over, under      int
	}
	run := func(x []float32, scale float32) (sqnr float64, over, under int) {
		var sig, noise float64
		for _, v := range x {
			r, _ := refRound(t, format, float64(v*scale), "nearest", "saturate")
			back := float64(float32(r.value) / scale)
			if r.overflow {
				over++
			}
			if v != 0 && r.value == 0 {
				under++
			}
			d := float64(v) - back
			sig, noise = sig+float64(v)*float64(v), noise+d*d
		}
		return scaling.SQNR(sig, noise), over, under
	}
	var hist []float64
	scale := float32(1)
	steps := make([]step, len(ts))
	for i, x := range ts {
		st := step{scale: float64(scale)}
		st.sqnr, st.over, st.under = run(x.Data, scale)
		amax := 0.0
		for _, v := range x.Data {
			amax = math.Max(amax, math.Abs(float64(v)))
		}
		cs := float32(fmax / math.Max(amax, 1e-12) / margin)
		st.cur, _, _ = run(x.Data, cs)
		steps[i] = st
		hist = append(hist, amax)
		if len(hist) > histLen {
			hist = hist[1:]
		}
		h := hist[len(hist)-1]
		if !mostRecent {
			for _, a := range hist {
				h = math.Max(h, a)
			}
		}
		if h > 0 {
			scale = float32(fmax / h / margin)
		}
	}
	tr := truths{}
	events, total, first, worst := 0, 0, -1, math.Inf(1)
	var sq, cq float64
	for i, st := range steps {
		if st.over > 0 {
			events++
			total += st.over
			if first < 0 {
				first = i
			}
		}
		sq, cq = sq+st.sqnr, cq+st.cur
		worst = math.Min(worst, st.sqnr)
	}
	n := float64(len(steps))
	tr["delayed.overflow_steps"], tr["delayed.overflow_values"], tr["delayed.first_overflow"] = events, total, float64(first)
	tr["delayed.mean_sqnr"], tr["delayed.mean_current"], tr["delayed.worst_sqnr"] = sq/n, cq/n, worst
	tr["delayed.mean_vs_current"] = [2]float64{sq / n, cq / n}
	tr["delayed.final_scale"] = float64(scale)
	tr["delayed.spike_overflow"] = steps[at].over
	// The stale window: the steps after the spike whose scale is at most
	// half the scale the spike step used.
	stale, flushSteps, flushed := 0, 0, 0
	var staleSum, beforeSum float64
	if get("spike") > 0 {
		for k := at + 1; k < len(steps) && steps[k].scale <= steps[at].scale/2; k++ {
			stale++
			staleSum += steps[k].sqnr
			if steps[k].under > 0 {
				flushSteps++
				flushed += steps[k].under
			}
		}
	}
	tr["delayed.stale_steps"], tr["delayed.flush_steps"], tr["delayed.flushed"] = stale, flushSteps, flushed
	if stale > 0 {
		tr["delayed.stale_ratio"] = steps[at].scale / steps[at+1].scale
		before := 0
		for k := max(at-stale, 0); k < at; k++ {
			beforeSum += steps[k].sqnr
			before++
		}
		tr["delayed.stale_sqnr"] = staleSum / float64(stale)
		if before > 0 {
			tr["delayed.before_sqnr"] = beforeSum / float64(before)
			tr["delayed.stale_vs_before"] = [2]float64{staleSum / float64(stale), beforeSum / float64(before)}
		}
	}
	return tr
}
