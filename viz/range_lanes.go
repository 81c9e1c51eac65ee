package viz

import (
	"image"
	"math"
	"sort"

	"github.com/fp8lab/fp8lab/viz/plot"
)

// The range scene's value lanes: a comb with one tick per representable
// value, the min subnormal, min normal and max marked below it, and labels
// (max and overflow threshold, extremes beyond the axis) placed where they
// cover no marker and no other label, inside the plot.

// laneGeom is where the parts of one lane go, in pixel y.
type laneGeom struct {
	combTop, combBot int
	markY            float64   // centre of the markers
	rows             []float64 // centres of the rows labels may use, best first
}

// laneText is the style of the lanes' labels.
func laneText(st style) plot.TextStyle {
	lab := st.text(13, plot.FontRegular, st.th.Foreground)
	lab.VAlign = plot.AlignMiddle
	return lab
}

// laneMarkerSize is the size of the lanes' markers.
func laneMarkerSize(st style) float64 { return math.Max(st.pxf(11), 6) }

// laneTwoRows is the least lane height (pixels) that holds the comb, the
// markers and two rows of labels below them: what a phone's narrow lane
// needs, where a format's labels do not fit beside its markers.
func laneTwoRows(st style) float64 {
	lh := float64(plot.MeasureText("Xg", laneText(st)).Height())
	return 0.7*lh + laneMarkerSize(st) + 2*lh + 4*st.pxf(3)
}

// laneGeometry lays out a lane of height step centred on cy: with two label
// rows under the markers when it is tall enough, else with the labels
// beside the markers, as on a wide picture.
func laneGeometry(st style, cy, step float64) laneGeom {
	lh := float64(plot.MeasureText("Xg", laneText(st)).Height())
	msize, gap := laneMarkerSize(st), st.pxf(3)
	if step < laneTwoRows(st) {
		// The labels' row, beside the markers, no lower than the lane's
		// foot allows.
		m := cy + step*0.2
		row := math.Max(math.Min(m, cy+step/2-lh/2-1), cy-step/2+lh/2)
		return laneGeom{combTop: int(cy - step*0.34), combBot: int(cy + step*0.02), markY: m, rows: []float64{row}}
	}
	bot := cy + step/2 - gap
	r1 := bot - lh/2
	m := bot - lh - gap - math.Max(msize, lh)/2
	return laneGeom{
		combTop: int(cy - step/2 + gap),
		combBot: int(m - msize/2),
		markY:   m,
		rows:    []float64{m, r1},
	}
}

// drawLanes draws one lane per format with a tick at every value and the
// min subnormal, min normal and max marked.
func (s *rangeScene) drawLanes(dst *image.RGBA, st style, ax *plot.Axes) {
	n := len(s.formats)
	ax.Draw(dst)
	clip := ax.Clip(dst)
	s.maxX, s.minX = map[string]float64{}, map[string]float64{}
	s.lanes, s.marks, s.labels, s.unlabelled = s.lanes[:0], s.marks[:0], s.labels[:0], s.unlabelled[:0]
	step := float64(ax.Plot.Dy()) / float64(n)
	focus := s.focus()
	msize := laneMarkerSize(st)
	for i, f := range s.formats {
		cy := ax.Y.Map(float64(n - 1 - i))
		g := laneGeometry(st, cy, step)
		s.lanes = append(s.lanes, image.Rect(ax.Plot.Min.X, int(cy-step/2), ax.Plot.Max.X, int(cy+step/2)))
		col := plot.Categorical(i)
		if focus >= 0 && focus != i {
			col = plot.Mix(col, plot.Hex(0xffffff), 0.6)
		}
		// One column per pixel that holds at least one value: dense
		// formats become a solid bar, 8-bit ones stay a comb. Searching
		// the sorted values per column costs O(width·log n), not O(n).
		for px := ax.Plot.Min.X; px < ax.Plot.Max.X; px++ {
			a, b := ax.X.Invert(float64(px)), ax.X.Invert(float64(px+1))
			if j := sort.SearchFloat64s(f.values, a); j < len(f.values) && f.values[j] < b {
				plot.VLine(clip, px, g.combTop, g.combBot, col)
			}
		}
		var marks []image.Rectangle // this lane's markers
		mark := func(v float64, m plot.Marker) float64 {
			px := ax.X.Map(v)
			plot.DrawMarker(clip, m, px, g.markY, msize, plot.Mix(col, st.th.Foreground, 0.35))
			// Triangles and diamonds reach 1.3 and 1.2 half-sizes out.
			h := int(math.Ceil(msize * 0.65))
			r := image.Rect(int(px)-h, int(g.markY)-h, int(px)+h+1, int(g.markY)+h+1)
			if r.Overlaps(ax.Plot) {
				marks = append(marks, r)
			}
			return px
		}
		if f.info.MinSubnormal > 0 {
			s.minX[f.name] = mark(f.info.MinSubnormal, plot.MarkerTriangleUp)
		}
		mark(f.info.MinNormal, plot.MarkerCircle)
		s.maxX[f.name] = mark(f.info.Max, plot.MarkerDiamond)
		s.marks = append(s.marks, marks...)
		s.drawLaneLabels(clip, st, ax, f, cy, step, g, marks)
	}
}

// drawLaneLabels tints the magnitudes of a lane that overflow, and writes
// its max and overflow threshold near the max marker and the extremes that
// lie beyond the axis at its borders, each where it covers no marker and
// no other label, inside the plot: in one piece if it fits, else the max
// and the threshold apart. A label with no such place is left out (and
// listed in s.unlabelled) rather than cover anything.
func (s *rangeScene) drawLaneLabels(clip *image.RGBA, st style, ax *plot.Axes, f *formatData, cy, step float64, g laneGeom, marks []image.Rectangle) {
	x0, x1 := float64(ax.Plot.Min.X), float64(ax.Plot.Max.X)
	if t := ax.X.Map(f.threshold); t < x1 {
		plot.FillRect(clip, image.Rect(int(math.Round(t)), int(cy-step*0.45), ax.Plot.Max.X, int(cy+step*0.45)), overflowTint)
	}
	lab := laneText(st)
	lh := plot.MeasureText("Xg", lab).Height()
	pad, gap := st.pxf(4), st.px(2) // gap: kept free around markers and labels (less than between label rows)
	lane := image.Rect(ax.Plot.Min.X, int(math.Ceil(cy-step/2)), ax.Plot.Max.X, int(math.Floor(cy+step/2)))
	taken := append([]image.Rectangle(nil), marks...)
	// place finds a free box for a text of width w, trying the preferred
	// left edges in every row, then every other edge nearest the first.
	place := func(w int, prefer ...float64) (image.Rectangle, bool) {
		lo, hi := x0+pad, x1-pad-float64(w)
		if hi < lo {
			return image.Rectangle{}, false
		}
		fits := func(x, y float64) (image.Rectangle, bool) {
			x = math.Min(math.Max(x, lo), hi)
			r := image.Rect(int(math.Round(x)), int(math.Round(y))-lh/2, int(math.Round(x))+w, int(math.Round(y))-lh/2+lh)
			if !r.In(lane) {
				return r, false
			}
			for _, t := range taken {
				if r.Overlaps(t.Inset(-gap)) {
					return r, false
				}
			}
			return r, true
		}
		for _, x := range prefer {
			for _, y := range g.rows {
				if r, ok := fits(x, y); ok {
					return r, true
				}
			}
		}
		for d := 0.0; d <= hi-lo; d += pad {
			for _, x := range []float64{prefer[0] - d, prefer[0] + d} {
				for _, y := range g.rows {
					if x >= lo && x <= hi {
						if r, ok := fits(x, y); ok {
							return r, true
						}
					}
				}
			}
		}
		return image.Rectangle{}, false
	}
	draw := func(text string, r image.Rectangle) {
		l := lab
		l.Align = plot.AlignLeft
		plot.DrawText(clip, text, float64(r.Min.X), float64(r.Min.Y)+float64(lh)/2, l)
		taken = append(taken, r)
		s.labels = append(s.labels, r)
	}
	// put places and draws the first of the alternatives whose texts all
	// find a place.
	put := func(prefer func(w int) []float64, alternatives ...[]string) {
		for _, texts := range alternatives {
			before, boxes := len(taken), []image.Rectangle{}
			for _, t := range texts {
				w := plot.MeasureText(t, lab).Width
				r, ok := place(w, prefer(w)...)
				if !ok {
					break
				}
				boxes = append(boxes, r)
				taken = append(taken, r)
			}
			taken = taken[:before]
			if len(boxes) == len(texts) {
				for i, t := range texts {
					draw(t, boxes[i])
				}
				return
			}
		}
		s.unlabelled = append(s.unlabelled, f.name+": "+alternatives[0][0])
	}
	maxText := pow2Label(f.info.Max)
	if f.info.Max >= 1e6 {
		maxText = short(f.info.Max)
	}
	over := "overflow " + f.thresholdText()
	mx := s.maxX[f.name]
	msize := laneMarkerSize(st)
	if mx > x1 { // max beyond the axis: say so at its right border
		put(func(w int) []float64 { return []float64{x1 - pad - float64(w)} },
			[]string{"max " + maxText + " · " + over + " →"},
			[]string{"max " + maxText + " →", over})
	} else {
		put(func(w int) []float64 { return []float64{mx + msize, mx - msize - float64(w)} },
			[]string{maxText + " · " + over},
			[]string{maxText, over})
	}
	if lo := f.smallest(); ax.X.Map(lo) < x0 {
		put(func(int) []float64 { return []float64{x0 + pad} }, []string{"← min " + pow2Label(lo)})
	}
}
