package viz

import (
	"image"

	"github.com/fp8lab/fp8lab/viz/draw"
)

// axesMaker builds axes in a rectangle.
type axesMaker func(r image.Rectangle) (*draw.Axes, error)

// alignedAxes builds one set of axes per rectangle with its maker, then
// narrows the rectangles whose plot area starts further left so that every
// plot area starts at the same x: stacked plots sharing an x axis line up.
func alignedAxes(rects []image.Rectangle, makers ...axesMaker) ([]*draw.Axes, error) {
	axes := make([]*draw.Axes, len(makers))
	left := 0
	for i, mk := range makers {
		ax, err := mk(rects[i])
		if err != nil {
			return nil, err
		}
		axes[i] = ax
		left = max(left, ax.Plot.Min.X)
	}
	for i, mk := range makers {
		if d := left - axes[i].Plot.Min.X; d > 0 {
			r := rects[i]
			r.Min.X += d
			ax, err := mk(r)
			if err != nil {
				return nil, err
			}
			axes[i] = ax
		}
	}
	return axes, nil
}
