package viz

import (
	"math"

	"github.com/fp8lab/fp8lab/viz/claim"
)

// The window scene's explanation: where the scale puts the tensor against
// the format's window, and which way to move the scale, decided from the
// measurements at every scale the slider reaches.

// windowTarget is the scale the explanation advises: current scaling's
// scale rounded down to a power of two (fits, the largest power of two that
// clips nothing), kept within the slider.
func (s *windowScene) windowTarget() (fits, tgt int) {
	fits = int(math.Floor(s.currentScaleLog2()))
	return fits, min(max(fits, windowMinScale), windowMaxScale)
}

// scaleText writes the scale 2^k.
func scaleText(k float64) string { return "2^" + sig4(k) }

// Explain implements Scene.
func (s *windowScene) Explain() claim.Explanation {
	var e claim.Explanation
	if err := s.compute(); err != nil {
		e.Addf("The scene cannot be computed: %s.", err)
		return e
	}
	k := s.ps.int("scale")
	now := s.met
	fits, tgt := s.windowTarget()
	then, err := s.at(tgt)
	if err != nil {
		e.Addf("The scene cannot be computed: %s.", err)
		return e
	}
	name := s.f.Name()
	clipped := claim.Share{Key: "window.overflow", Fraction: now.overflow, Show: pctText, None: "none"}
	zero := claim.Share{Key: "window.underflow", Fraction: now.underflow, Show: pctText, None: "none"}
	at := "At a scale of " + scaleText(float64(k))
	switch {
	case now.overflow > 0 && tgt < k:
		where := claim.Sprintf("where %s", claim.Share{Key: "window.overflow_at_target", Fraction: then.overflow, Show: pctText, None: "none is"})
		if then.overflow > 0 {
			where = claim.Sprintf("the slider's lowest, where %s still are", claim.Share{Key: "window.overflow_at_target", Fraction: then.overflow, Show: pctText})
		}
		e.Addf("%s, %s of the values are clipped at %s's maximum: %s, %s.", at, clipped, name,
			claim.Advice{Key: "window.advice", Param: "scale", From: float64(k), To: float64(tgt),
				Goal: "window.overflow", Better: -1,
				Lower: "lower the scale toward " + scaleText(float64(tgt)), Raise: "raise the scale toward " + scaleText(float64(tgt))}, where)
	case now.overflow > 0:
		e.Addf("%s, the slider's lowest, %s of the values are still clipped at %s's maximum: the tensor's amax, %s, needs a scale of %s or less.",
			at, clipped, name, claim.Quantity{Key: "window.amax", V: s.amax, Show: sig4},
			claim.Quantity{Key: "window.fits", V: float64(fits), Show: scaleText})
	case k < tgt && then.underflow < now.underflow:
		e.Addf("%s, %s of the values fall below %s's window and become zero: %s.", at, zero, name,
			claim.Sprintf("%s, where %s do", claim.Advice{Key: "window.advice", Param: "scale", From: float64(k), To: float64(tgt),
				Goal: "window.underflow", Better: -1,
				Raise: "raise the scale toward " + scaleText(float64(tgt)), Lower: "lower the scale toward " + scaleText(float64(tgt))},
				claim.Share{Key: "window.underflow_at_target", Fraction: then.underflow, Show: pctText, None: "none"}))
	case k == fits:
		e.Addf("%s, current scaling's power of two, no value is clipped and %s of the values become zero.", at, zero)
	default:
		e.Addf("%s, %s of the values are clipped and %s become zero.", at, clipped, zero)
	}
	in := s.f.Info()
	sc := math.Exp2(float64(k))
	low, lowName := in.MinSubnormal, "smallest subnormal"
	if !s.f.HasSubnormals() {
		low, lowName = in.MinNormal, "smallest value"
	}
	e.Addf("The histogram shows the %d values of a %s tensor on a log scale. The shaded band is %s's window, from its %s %s to its maximum %s, divided by the scale: from %s to %s.",
		s.t.Len(), s.ps.str("tensor"), name, lowName, exact(low), exact(in.Max),
		claim.Quantity{Key: "window.low", V: low / sc, Show: sig4}, claim.Quantity{Key: "window.high", V: in.Max / sc, Show: sig4})
	sub := claim.Share{Key: "window.subnormal", Fraction: now.subnormal, Show: pctText, None: "none"}
	e.Addf("With this scale %s of the values fall below the window and become zero, %s land among the subnormals, where precision is lower, and %s %s clipped at the maximum. The SQNR is %s.",
		zero, sub, clipped, map[bool]string{true: "is", false: "are"}[now.overflow == 0],
		claim.Quantity{Key: "window.sqnr", V: now.sqnr, Show: dbText})
	c := s.currentScaleLog2()
	e.Addf("Current scaling would multiply by %s (the maximum over the tensor's amax, %s), which puts the largest value exactly at the top of the window; "+
		"the largest power of two that clips nothing is %s. This scale, %s, is %s.",
		claim.Quantity{Key: "window.current_log2", V: c, Show: scaleText},
		claim.Quantity{Key: "window.amax", V: s.amax, Show: sig4}, claim.Quantity{Key: "window.fits", V: float64(fits), Show: scaleText}, scaleText(float64(k)),
		claim.Compare{Key: "window.scale_vs_target", A: float64(k), B: float64(fits),
			Above: "above it: the window sits further left, so the largest values leave it at the top",
			Below: "below it: the window sits further right, so small values fall out at the bottom",
			Same:  "that power of two"})
	e.Add(claim.Lit("Click the histogram to put the maximum where you click."))
	return e
}
