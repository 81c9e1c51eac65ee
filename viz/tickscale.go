package viz

import (
	"github.com/fp8lab/fp8lab/viz/draw"
)

// tickScale is a linear scale with caller-chosen ticks, such as the
// representable values of a format.
type tickScale struct {
	draw.LinearScale
	ticks []draw.Tick
}

func newTickScale(lo, hi float64, ticks []draw.Tick) (tickScale, error) {
	ls, err := draw.NewLinear(lo, hi)
	if err != nil {
		return tickScale{}, err
	}
	return tickScale{LinearScale: ls, ticks: ticks}, nil
}

// Ticks implements draw.Scale.
func (s tickScale) Ticks() []draw.Tick { return append([]draw.Tick(nil), s.ticks...) }

// WithRange implements draw.Scale.
func (s tickScale) WithRange(p0, p1 float64) draw.Scale {
	ls, _ := s.LinearScale.WithRange(p0, p1).(draw.LinearScale)
	return tickScale{LinearScale: ls, ticks: s.ticks}
}
