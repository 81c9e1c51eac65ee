package viz

import (
	"github.com/fp8lab/fp8lab/viz/plot"
)

// tickScale is a linear scale with caller-chosen ticks, such as the
// representable values of a format.
type tickScale struct {
	plot.LinearScale
	ticks []plot.Tick
}

func newTickScale(lo, hi float64, ticks []plot.Tick) (tickScale, error) {
	ls, err := plot.NewLinear(lo, hi)
	if err != nil {
		return tickScale{}, err
	}
	return tickScale{LinearScale: ls, ticks: ticks}, nil
}

// Ticks implements plot.Scale.
func (s tickScale) Ticks() []plot.Tick { return append([]plot.Tick(nil), s.ticks...) }

// WithRange implements plot.Scale.
func (s tickScale) WithRange(p0, p1 float64) plot.Scale {
	ls, _ := s.LinearScale.WithRange(p0, p1).(plot.LinearScale)
	return tickScale{LinearScale: ls, ticks: s.ticks}
}
