package viz

import (
	"fmt"
	"math"

	"github.com/fp8lab/fp8lab/viz/claim"
)

// The delayed-scaling scene's explanation: what the spike does at once
// (it clips) and afterwards (its amax stays in the history, the scale
// stays small, small values flush), and how delayed scaling compares with
// current scaling over the whole run.

// delayedSummary is what the explanation says about a run, computed once
// from its steps.
type delayedSummary struct {
	overflowSteps, overflowValues, firstOverflow int
	meanSQNR, meanCurrent, worstSQNR             float64
	spikeOverflow                                int
	staleFrom, staleTo, stale                    int
	flushSteps, flushed                          int
	staleSQNR, beforeSQNR                        float64
	ratio                                        float64
}

// summary reduces the run to the numbers the explanation words.
func (s *delayedScene) summary() delayedSummary {
	var d delayedSummary
	d.firstOverflow = -1
	var sq, cq float64
	d.worstSQNR = math.Inf(1)
	for _, st := range s.steps {
		if st.Overflow > 0 {
			d.overflowSteps++
			d.overflowValues += st.Overflow
			if d.firstOverflow < 0 {
				d.firstOverflow = st.Step
			}
		}
		sq += st.SQNR
		cq += st.CurrentSQNR
		d.worstSQNR = math.Min(d.worstSQNR, st.SQNR)
	}
	n := float64(len(s.steps))
	d.meanSQNR, d.meanCurrent = sq/n, cq/n
	at := s.ps.int("spike_at")
	d.staleFrom, d.staleTo, d.stale = s.staleWindow()
	d.staleSQNR, d.beforeSQNR = math.NaN(), math.NaN()
	var staleSum, beforeSum float64
	before := 0
	for _, st := range s.steps {
		if st.Step == at {
			d.spikeOverflow = st.Overflow
		}
		if d.stale > 0 && st.Step >= d.staleFrom && st.Step <= d.staleTo {
			staleSum += st.SQNR
			if st.Underflow > 0 {
				d.flushSteps++
				d.flushed += st.Underflow
			}
		}
		if d.stale > 0 && st.Step >= at-d.stale && st.Step < at {
			beforeSum += st.SQNR
			before++
		}
	}
	if d.stale > 0 {
		d.staleSQNR = staleSum / float64(d.stale)
		d.ratio = float64(s.steps[at].Scale) / float64(s.steps[d.staleFrom].Scale)
		if before > 0 {
			d.beforeSQNR = beforeSum / float64(before)
		}
	}
	return d
}

// Explain implements Scene.
func (s *delayedScene) Explain() claim.Explanation {
	var e claim.Explanation
	if err := s.compute(); err != nil {
		e.Addf("The scene cannot be computed: %s.", err)
		return e
	}
	d := s.summary()
	spike := s.ps.int("spike") > 0
	at := s.ps.int("spike_at")
	per := delayedRows * delayedCols
	stale := claim.Count{Key: "delayed.stale_steps", N: d.stale, One: "step", Many: "steps"}
	flushed := claim.Count{Key: "delayed.flushed", N: d.flushed, One: "small value", Many: "small values", None: "no value"}
	mean := claim.Compare{Key: "delayed.mean_vs_current", A: d.meanSQNR, B: d.meanCurrent, Show: dbText, Above: "above", Below: "below", Same: "the same as"}
	switch {
	case spike && d.stale > 0:
		e.Addf("The spike at step %d clips %s of its %d values, and for the %s after it the stale scale flushes %s to zero.", at,
			claim.Count{Key: "delayed.spike_overflow", N: d.spikeOverflow, One: "value", Many: "values", None: "none"}, per, stale, flushed)
	case spike && at == len(s.steps)-1:
		e.Addf("The spike at step %d, the last, clips %s of its %d values; no step follows it to be scaled from a history that holds its amax.", at,
			claim.Count{Key: "delayed.spike_overflow", N: d.spikeOverflow, One: "value", Many: "values", None: "none"}, per)
	case spike:
		e.Addf("The spike at step %d clips %s of its %d values; the scale is back to its old size at the next step.", at,
			claim.Count{Key: "delayed.spike_overflow", N: d.spikeOverflow, One: "value", Many: "values", None: "none"}, per)
	default:
		e.Addf("Without a spike, delayed scaling's mean SQNR over %d steps is %s, %s the %s of current scaling.", len(s.steps),
			claim.Quantity{Key: "delayed.mean_sqnr", V: d.meanSQNR, Show: dbText}, mean, claim.Quantity{Key: "delayed.mean_current", V: d.meanCurrent, Show: dbText})
	}
	intro := fmt.Sprintf("%d training steps of a tensor without a spike, quantized to %s.", len(s.steps), s.f.Name())
	if spike {
		intro = fmt.Sprintf("%d training steps of a tensor, one of them (step %d) a spike 2^%d times larger, quantized to %s.", len(s.steps), at, s.ps.int("spike"), s.f.Name())
	}
	e.Add(claim.Lit(intro + " Delayed scaling takes each step's scale from the amax history of earlier steps, as Transformer Engine does, so the scale lags behind the data."))
	e.Add(s.overflowParagraph(d, stale, flushed))
	e.Addf("Over all steps the mean SQNR is %s, %s the %s of current scaling, which computes the scale from the step itself. The final scale is %s.",
		claim.Quantity{Key: "delayed.mean_sqnr", V: d.meanSQNR, Show: dbText}, mean,
		claim.Quantity{Key: "delayed.mean_current", V: d.meanCurrent, Show: dbText},
		claim.Quantity{Key: "delayed.final_scale", V: float64(s.steps[len(s.steps)-1].NextScale), Show: sig4})
	return e
}

// overflowParagraph counts the overflows and, after a spike, the steps
// whose stale scale flushes small values.
func (s *delayedScene) overflowParagraph(d delayedSummary, stale, flushed claim.Count) claim.Phrase {
	per := delayedRows * delayedCols
	spike := s.ps.int("spike") > 0
	var p claim.Phrase
	if d.overflowSteps == 0 {
		p = claim.Sprintf("%s: the history always knew a large enough amax.", claim.Count{Key: "delayed.overflow_steps", N: 0, None: "No step overflows"})
	} else {
		p = claim.Sprintf("%s (%s clipped; the first at step %s): the new values arrive before the history knows them.",
			claim.Count{Key: "delayed.overflow_steps", N: d.overflowSteps, One: "step overflows", Many: "steps overflow"},
			claim.Count{Key: "delayed.overflow_values", N: d.overflowValues, One: "value", Many: "values"},
			claim.Quantity{Key: "delayed.first_overflow", V: float64(d.firstOverflow)})
	}
	if !spike {
		return claim.Sprintf("%s The worst step's SQNR is %s.", p, claim.Quantity{Key: "delayed.worst_sqnr", V: d.worstSQNR, Show: dbText})
	}
	if at := s.ps.int("spike_at"); at == len(s.steps)-1 {
		p = claim.Sprintf("%s The spike is the last step, so no step after it shows what its amax does to the scale.", p)
		return claim.Sprintf("%s The worst step's SQNR is %s.", p, claim.Quantity{Key: "delayed.worst_sqnr", V: d.worstSQNR, Show: dbText})
	}
	if d.stale == 0 {
		p = claim.Sprintf("%s The scale is back to its old size at the next step: the spike leaves the history at once, and nothing after it is flushed.", p)
		return claim.Sprintf("%s The worst step's SQNR is %s.", p, claim.Quantity{Key: "delayed.worst_sqnr", V: d.worstSQNR, Show: dbText})
	}
	span := fmt.Sprintf("%d to %d", d.staleFrom, d.staleTo)
	if d.stale == 1 {
		span = fmt.Sprint(d.staleFrom)
	}
	p = claim.Sprintf("%s After the spike its amax stays in the history: for %s (%s) the scale is %s times smaller than before",
		p, stale, span, claim.Quantity{Key: "delayed.stale_ratio", V: d.ratio, Show: sig4})
	if d.flushed == 0 {
		p = claim.Sprintf("%s, yet %s is flushed to zero.", p, flushed)
	} else {
		p = claim.Sprintf("%s, and %s %s in %s of them (of their %d values).", p,
			flushed, map[bool]string{true: "becomes zero", false: "become zero"}[d.flushed == 1],
			claim.Count{Key: "delayed.flush_steps", N: d.flushSteps, One: "step", Many: "steps"}, d.stale*per)
	}
	if !math.IsNaN(d.beforeSQNR) {
		those := map[bool]string{true: "that step", false: "those steps"}[d.stale == 1]
		p = claim.Sprintf("%s Over %s the mean SQNR is %s against %s over as many steps before the spike: the stale scale %s.", p, those,
			claim.Quantity{Key: "delayed.stale_sqnr", V: d.staleSQNR, Show: dbText}, claim.Quantity{Key: "delayed.before_sqnr", V: d.beforeSQNR, Show: dbText},
			claim.Compare{Key: "delayed.stale_vs_before", A: d.staleSQNR, B: d.beforeSQNR, Show: dbText, Above: "raises it", Below: "lowers it", Same: "leaves it unchanged"})
		if math.Abs(d.staleSQNR-d.beforeSQNR) < 1 {
			p = claim.Sprintf("%s SQNR weighs the large values, which keep their precision.", p)
		}
	}
	return claim.Sprintf("%s The worst step's SQNR is %s.", p, claim.Quantity{Key: "delayed.worst_sqnr", V: d.worstSQNR, Show: dbText})
}
