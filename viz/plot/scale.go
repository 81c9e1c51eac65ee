package plot

import (
	"fmt"
	"math"
)

// Scale maps data values to pixel positions along one axis.
//
// Scales are immutable values: WithRange returns a copy with a new pixel
// range, which is how Axes fits a scale to its plot area. Map returns NaN
// for values the scale cannot place (such as non-positive values on a log
// scale); drawing functions skip such points.
type Scale interface {
	// Map returns the pixel position of data value v.
	Map(v float64) float64
	// Invert returns the data value at pixel position p.
	Invert(p float64) float64
	// Domain returns the data interval the scale shows, in the order given.
	Domain() (lo, hi float64)
	// Range returns the pixel positions of Domain's lo and hi.
	Range() (p0, p1 float64)
	// WithRange returns a copy of the scale mapping the domain onto [p0, p1].
	WithRange(p0, p1 float64) Scale
	// Ticks returns tick marks for the domain, their density chosen from the
	// pixel range (about one labelled tick per 70 px on linear scales).
	Ticks() []Tick
}

// Pixel spacing that tick generation aims for, per kind of scale.
const (
	linearTickSpacing = 70.0
	logTickSpacing    = 42.0
	defaultTickTarget = 6
)

// minLabels is the fewest labelled ticks a scale gives where its domain
// allows: with two, a reader cannot tell a linear axis from a logarithmic
// one, nor check the step between labels.
const minLabels = 3

// tickTarget is the number of labelled ticks that fit in the pixel range,
// between minLabels and most.
func tickTarget(p0, p1, spacing float64, most, override int) int {
	if override > 0 {
		return override
	}
	l := math.Abs(p1 - p0)
	if !(l > 0) || math.IsInf(l, 0) {
		return defaultTickTarget
	}
	return min(max(int(l/spacing), minLabels), most)
}

// LinearScale maps [lo, hi] linearly onto a pixel range. lo may be greater
// than hi for a reversed axis.
type LinearScale struct {
	lo, hi, p0, p1 float64
	target         int
	format         func(float64) string
}

// NewLinear returns a linear scale over [lo, hi] with pixel range [0, 1].
// lo and hi must be finite and different.
func NewLinear(lo, hi float64) (LinearScale, error) {
	if !finite(lo) || !finite(hi) || lo == hi || !finite(hi-lo) {
		return LinearScale{}, fmt.Errorf("plot: linear scale [%g, %g]: %w", lo, hi, ErrBadDomain)
	}
	return LinearScale{lo: lo, hi: hi, p0: 0, p1: 1}, nil
}

// Map implements Scale.
func (s LinearScale) Map(v float64) float64 {
	return s.p0 + (v-s.lo)/(s.hi-s.lo)*(s.p1-s.p0)
}

// Invert implements Scale.
func (s LinearScale) Invert(p float64) float64 {
	if s.p1 == s.p0 {
		return math.NaN()
	}
	return s.lo + (p-s.p0)/(s.p1-s.p0)*(s.hi-s.lo)
}

// Domain implements Scale.
func (s LinearScale) Domain() (float64, float64) { return s.lo, s.hi }

// Range implements Scale.
func (s LinearScale) Range() (float64, float64) { return s.p0, s.p1 }

// WithRange implements Scale.
func (s LinearScale) WithRange(p0, p1 float64) Scale { s.p0, s.p1 = p0, p1; return s }

// WithTickCount returns a copy that aims for n labelled ticks regardless of
// the pixel range (n <= 0 restores automatic density).
func (s LinearScale) WithTickCount(n int) LinearScale { s.target = n; return s }

// WithFormat returns a copy that labels ticks with f instead of FormatTick.
func (s LinearScale) WithFormat(f func(v float64) string) LinearScale { s.format = f; return s }

// Ticks implements Scale: multiples of a 1-2-5 step inside the domain, at
// least minLabels of them (a finer step where the first leaves fewer, as
// 0 and 200 on [0, 250] become 0, 100 and 200).
func (s LinearScale) Ticks() []Tick {
	target := tickTarget(s.p0, s.p1, linearTickSpacing, 12, s.target)
	vals, step, err := LinearTicks(s.lo, s.hi, target)
	for t := target + 1; err == nil && len(vals) < minLabels && t <= 4*minLabels; t++ {
		vals, step, err = LinearTicks(s.lo, s.hi, t)
	}
	if err != nil {
		return nil
	}
	ticks := make([]Tick, len(vals))
	for i, v := range vals {
		label := FormatTick(v, step)
		if s.format != nil {
			label = s.format(v)
		}
		ticks[i] = Tick{Value: v, Label: label}
	}
	return ticks
}

// LogScale maps [lo, hi] (both positive) logarithmically onto a pixel range.
// Base 2 labels ticks as powers of two ("2⁻⁹"), base 10 as decades ("10³").
type LogScale struct {
	base           float64
	lo, hi, p0, p1 float64
	llo, lhi       float64 // log_base of lo and hi
	target         int
}

// NewLog2 returns a base-2 log scale over [lo, hi]; both must be positive,
// finite and different (lo > hi reverses the axis).
func NewLog2(lo, hi float64) (LogScale, error) { return newLog(2, lo, hi) }

// NewLog10 returns a base-10 log scale over [lo, hi]; both must be positive,
// finite and different.
func NewLog10(lo, hi float64) (LogScale, error) { return newLog(10, lo, hi) }

func newLog(base, lo, hi float64) (LogScale, error) {
	if !(lo > 0) || !(hi > 0) || !finite(lo) || !finite(hi) || lo == hi {
		return LogScale{}, fmt.Errorf("plot: log%g scale [%g, %g]: %w: bounds must be positive, finite and different", base, lo, hi, ErrBadDomain)
	}
	s := LogScale{base: base, lo: lo, hi: hi, p0: 0, p1: 1}
	s.llo, s.lhi = s.log(lo), s.log(hi)
	return s, nil
}

func (s LogScale) log(v float64) float64 {
	if s.base == 2 {
		return math.Log2(v)
	}
	return math.Log10(v)
}

func (s LogScale) pow(e float64) float64 {
	if s.base == 2 {
		return math.Exp2(e)
	}
	return math.Pow(10, e)
}

// Base returns 2 or 10.
func (s LogScale) Base() float64 { return s.base }

// Map implements Scale; values that are not positive map to NaN.
func (s LogScale) Map(v float64) float64 {
	if !(v > 0) {
		return math.NaN()
	}
	return s.p0 + (s.log(v)-s.llo)/(s.lhi-s.llo)*(s.p1-s.p0)
}

// Invert implements Scale.
func (s LogScale) Invert(p float64) float64 {
	if s.p1 == s.p0 {
		return math.NaN()
	}
	return s.pow(s.llo + (p-s.p0)/(s.p1-s.p0)*(s.lhi-s.llo))
}

// Domain implements Scale.
func (s LogScale) Domain() (float64, float64) { return s.lo, s.hi }

// Range implements Scale.
func (s LogScale) Range() (float64, float64) { return s.p0, s.p1 }

// WithRange implements Scale.
func (s LogScale) WithRange(p0, p1 float64) Scale { s.p0, s.p1 = p0, p1; return s }

// WithTickCount returns a copy that aims for at most n labelled ticks (n <= 0
// restores automatic density).
func (s LogScale) WithTickCount(n int) LogScale { s.target = n; return s }

// Ticks implements Scale. Ticks sit at integer powers of the base. When there
// are too many to label, every k-th power (k = 2, 4, 5, 10, ...) is labelled
// and the others are minor ticks. Base-10 scales with at least 40 px per
// decade also get minor ticks at 2..9 × 10ⁿ. A domain containing no integer power falls
// back to linear ticks labelled with their values.
func (s LogScale) Ticks() []Tick {
	a, b := math.Min(s.llo, s.lhi), math.Max(s.llo, s.lhi)
	e0, e1 := int(math.Ceil(a-1e-9)), int(math.Floor(b+1e-9))
	count := e1 - e0 + 1
	target := tickTarget(s.p0, s.p1, logTickSpacing, 32, s.target)
	if count <= 0 || (count == 1 && s.base == 10 && b-a < 0.5) {
		return s.linearFallback(target)
	}
	stride := exponentStride(count, target)
	// A round stride may label fewer exponents than it allows for (16
	// over 2⁻²⁰…2¹¹ labels 2⁻¹⁶ and 2⁰ only): the next smaller one, until
	// minLabels are labelled or every exponent is.
	for stride > 1 && labelledExponents(e0, e1, stride) < min(minLabels, count) {
		stride = smallerStride(stride)
	}
	if count < minLabels {
		// Fewer integer powers than labels a reader needs (a domain within
		// two binades): plain values, where they give more.
		if lin := s.linearFallback(target); len(lin) > count {
			return lin
		}
	}
	var ticks []Tick
	for e := e0; e <= e1; e++ {
		if len(ticks) >= maxTicks {
			break
		}
		labelled := floorMod(e, stride) == 0
		if !labelled && count > 128 {
			continue
		}
		t := Tick{Value: s.pow(float64(e)), Minor: !labelled}
		if labelled {
			if s.base == 2 {
				t.Label = FormatPow2(e)
			} else {
				t.Label = FormatPow10(e)
			}
		}
		ticks = append(ticks, t)
	}
	if s.base == 10 && stride == 1 && math.Abs(s.p1-s.p0)/(b-a) >= 40 {
		lo, hi := math.Min(s.lo, s.hi), math.Max(s.lo, s.hi)
		for e := e0 - 1; e <= e1; e++ {
			for m := 2.0; m <= 9; m++ {
				v := m * math.Pow(10, float64(e))
				if v >= lo*(1-1e-12) && v <= hi*(1+1e-12) {
					ticks = append(ticks, Tick{Value: v, Minor: true})
				}
			}
		}
	}
	return ticks
}

func (s LogScale) linearFallback(target int) []Tick {
	vals, step, err := LinearTicks(s.lo, s.hi, max(target/2, 2))
	for t := max(target/2, 2) + 1; err == nil && len(vals) < minLabels && t <= 4*minLabels; t++ {
		vals, step, err = LinearTicks(s.lo, s.hi, t)
	}
	if err != nil {
		return nil
	}
	ticks := make([]Tick, 0, len(vals))
	for _, v := range vals {
		if v > 0 {
			ticks = append(ticks, Tick{Value: v, Label: FormatTick(v, step)})
		}
	}
	return ticks
}

// BandScale places n categories in equal bands across the pixel range.
// Category i occupies data values [i-0.5, i+0.5] and is centred at i, so
// Map(i) is the band centre and Map(i±0.4) spans 80% of the band.
type BandScale struct {
	labels []string
	p0, p1 float64
}

// NewBand returns a band scale with one band per label (labels may be
// empty strings, but there must be at least one).
func NewBand(labels []string) (BandScale, error) {
	if len(labels) == 0 {
		return BandScale{}, fmt.Errorf("plot: band scale: %w: no categories", ErrEmptyData)
	}
	return BandScale{labels: append([]string(nil), labels...), p0: 0, p1: 1}, nil
}

// Len returns the number of bands.
func (s BandScale) Len() int { return len(s.labels) }

// Labels returns a copy of the category labels.
func (s BandScale) Labels() []string { return append([]string(nil), s.labels...) }

// Step returns the signed width of one band in pixels.
func (s BandScale) Step() float64 { return (s.p1 - s.p0) / float64(len(s.labels)) }

// Map implements Scale: v is a (possibly fractional) category index.
func (s BandScale) Map(v float64) float64 { return s.p0 + (v+0.5)*s.Step() }

// Invert implements Scale, returning a fractional category index.
func (s BandScale) Invert(p float64) float64 {
	st := s.Step()
	if st == 0 {
		return math.NaN()
	}
	return (p-s.p0)/st - 0.5
}

// Domain implements Scale: [-0.5, n-0.5].
func (s BandScale) Domain() (float64, float64) { return -0.5, float64(len(s.labels)) - 0.5 }

// Range implements Scale.
func (s BandScale) Range() (float64, float64) { return s.p0, s.p1 }

// WithRange implements Scale.
func (s BandScale) WithRange(p0, p1 float64) Scale { s.p0, s.p1 = p0, p1; return s }

// Ticks implements Scale: one labelled tick per band centre.
func (s BandScale) Ticks() []Tick {
	ticks := make([]Tick, 0, min(len(s.labels), maxTicks))
	for i, l := range s.labels {
		if i >= maxTicks {
			break
		}
		ticks = append(ticks, Tick{Value: float64(i), Label: l})
	}
	return ticks
}
