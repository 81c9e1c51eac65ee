package plot

import (
	"fmt"
	"image"
	"math"
)

// HeatmapStyle says how to colour a heatmap.
type HeatmapStyle struct {
	// Map is the colour map; nil means Viridis.
	Map *ColorMap
	// Value maps data values to colour-map positions: its domain's lo gets
	// the map's first colour and hi the last. Nil means a linear scale over
	// the finite data range. Use NewLinear(-m, m) with BlueWhiteRed for
	// signed errors, or NewLog10 for magnitudes.
	Value Scale
	// Pool says which value a pixel shows when it covers several cells (a
	// map drawn smaller than its data): PoolNone samples one cell, PoolMax
	// and PoolMin keep the largest or smallest, so that a single extreme
	// row or column stays visible at every size. A NaN cell wins any pool.
	Pool Pool
}

// Pool is how DrawHeatmap and Axes.Heatmap reduce the cells one pixel
// covers.
type Pool int

// The pools of HeatmapStyle.Pool.
const (
	PoolNone Pool = iota // sample one cell per pixel
	PoolMax              // keep the largest value (magnitudes, scales)
	PoolMin              // keep the smallest value (SQNR: the worst)
)

// span is the half-open range of grid cells [lo, hi) one pixel row or
// column covers; lo < 0 means the pixel lies outside the grid.
type span struct{ lo, hi int }

// uniqueSpans numbers the distinct consecutive spans: it returns, for each
// pixel, the index of its span in the returned list (-1 outside the grid).
func uniqueSpans(spans []span) (index []int, uniq []span) {
	index = make([]int, len(spans))
	for i, s := range spans {
		if s.lo < 0 {
			index[i] = -1
			continue
		}
		if len(uniq) == 0 || uniq[len(uniq)-1] != s {
			uniq = append(uniq, s)
		}
		index[i] = len(uniq) - 1
	}
	return index, uniq
}

// poolGrid reduces data to one value per (row span, column span): the cell
// at the spans' start for PoolNone, else the largest or smallest, a NaN
// cell winning any pool.
func poolGrid(data [][]float64, rows, cols []span, p Pool) [][]float64 {
	out := make([][]float64, len(rows))
	for i, rs := range rows {
		out[i] = make([]float64, len(cols))
		for j, cs := range cols {
			v := data[rs.lo][cs.lo]
			if p != PoolNone {
				for r := rs.lo; r < rs.hi; r++ {
					for _, x := range data[r][cs.lo:cs.hi] {
						switch {
						case math.IsNaN(v):
						case math.IsNaN(x), p == PoolMax && x > v, p == PoolMin && x < v:
							v = x
						}
					}
				}
			}
			out[i][j] = v
		}
	}
	return out
}

// paintGrid is the one cell-painting path of DrawHeatmap and Axes.Heatmap:
// pixel (x, y) of area shows the cells of rowSpan[y-area.Min.Y] ×
// colSpan[x-area.Min.X], reduced by pool; pixels outside the grid are left
// untouched.
func paintGrid(dst *image.RGBA, area image.Rectangle, data [][]float64, rowSpan, colSpan []span, p Pool, cm *ColorMap, value Scale) {
	rowOf, rows := uniqueSpans(rowSpan)
	colOf, cols := uniqueSpans(colSpan)
	if len(rows) == 0 || len(cols) == 0 {
		return
	}
	grid := poolGrid(data, rows, cols, p)
	paintCells(dst, area, cellIndices(grid, value), len(cols), rowOf, colOf, cm)
}

// resolve fills in defaults and returns the colour map and a value scale
// with pixel range [0, 1].
func (st HeatmapStyle) resolve(data [][]float64) (*ColorMap, Scale, error) {
	cm := st.Map
	if cm == nil {
		cm = Viridis
	}
	v := st.Value
	if v == nil {
		lo, hi, err := ValueRange(data)
		if err != nil {
			return nil, nil, err
		}
		if lo == hi {
			lo, hi = lo-0.5, hi+0.5
		}
		lin, err := NewLinear(lo, hi)
		if err != nil {
			return nil, nil, err
		}
		v = lin
	}
	return cm, v.WithRange(0, 1), nil
}

// checkGrid validates a rectangular grid and returns its size.
func checkGrid(data [][]float64) (rows, cols int, err error) {
	rows = len(data)
	if rows == 0 || len(data[0]) == 0 {
		return 0, 0, fmt.Errorf("plot: heatmap: %w", ErrEmptyData)
	}
	cols = len(data[0])
	for i, row := range data {
		if len(row) != cols {
			return 0, 0, fmt.Errorf("plot: heatmap: %w: row %d has %d values, row 0 has %d", ErrLengthMismatch, i, len(row), cols)
		}
	}
	return rows, cols, nil
}

// ValueRange returns the smallest and largest finite values in data. It
// fails if there are none.
func ValueRange(data [][]float64) (lo, hi float64, err error) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, row := range data {
		for _, v := range row {
			if finite(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if lo > hi {
		return 0, 0, fmt.Errorf("plot: value range: %w: no finite values", ErrEmptyData)
	}
	return lo, hi, nil
}

// SymmetricRange returns (-m, m) where m is the largest finite |value| in
// data (1 if all values are 0), the range a diverging map needs so that
// zero sits at its centre.
func SymmetricRange(data [][]float64) (lo, hi float64, err error) {
	lo, hi, err = ValueRange(data)
	if err != nil {
		return 0, 0, err
	}
	m := math.Max(math.Abs(lo), math.Abs(hi))
	if m == 0 {
		m = 1
	}
	return -m, m, nil
}

// cellIndices converts every cell to a colour LUT index (-1 for NaN or
// values the scale cannot place).
func cellIndices(data [][]float64, value Scale) []int16 {
	rows, cols := len(data), len(data[0])
	idx := make([]int16, rows*cols)
	for r, row := range data {
		for c, v := range row {
			t := math.NaN()
			if !math.IsNaN(v) {
				t = value.Map(v)
			}
			if math.IsNaN(t) {
				idx[r*cols+c] = -1
			} else {
				idx[r*cols+c] = int16(lutIndex(t))
			}
		}
	}
	return idx
}

// paintCells fills area (clipped to dst) so that pixel (x, y) gets the
// colour of cell (rowOf[y-area.Min.Y], colOf[x-area.Min.X]); negative
// row or column indices leave the pixel untouched.
func paintCells(dst *image.RGBA, area image.Rectangle, idx []int16, cols int, rowOf, colOf []int, cm *ColorMap) {
	clip := area.Intersect(dst.Rect)
	if clip.Empty() {
		return
	}
	lut := cm.LUT()
	w := 4 * clip.Dx()
	prevRow, prevY := -1, 0
	for y := clip.Min.Y; y < clip.Max.Y; y++ {
		r := rowOf[y-area.Min.Y]
		if r < 0 {
			continue
		}
		pix := dst.Pix[dst.PixOffset(clip.Min.X, y):][:w]
		if r == prevRow {
			// Same grid row as the previous painted pixel row: copy its
			// cell pixels, leaving pixels outside the grid untouched.
			copyRowCells(pix, dst.Pix[dst.PixOffset(clip.Min.X, prevY):][:w], colOf[clip.Min.X-area.Min.X:])
			continue
		}
		cells := idx[r*cols : (r+1)*cols]
		for i, x := 0, clip.Min.X; x < clip.Max.X; i, x = i+4, x+1 {
			c := colOf[x-area.Min.X]
			if c < 0 {
				continue
			}
			col := NaNColor
			if k := cells[c]; k >= 0 {
				col = lut[k]
			}
			pix[i], pix[i+1], pix[i+2], pix[i+3] = col.R, col.G, col.B, col.A
		}
		prevRow, prevY = r, y
	}
}

// copyRowCells copies the pixels of src whose column has a cell
// (colOf[x] >= 0) into dst, in runs.
func copyRowCells(dst, src []uint8, colOf []int) {
	n := len(dst) / 4
	for x := 0; x < n; {
		if colOf[x] < 0 {
			x++
			continue
		}
		e := x
		for e < n && colOf[e] >= 0 {
			e++
		}
		copy(dst[4*x:4*e], src[4*x:4*e])
		x = e
	}
}

// pixelSpans divides n cells among px pixels: pixel i covers cells
// [i·n/px, (i+1)·n/px), at least one; without pooling only the first.
func pixelSpans(n, px int, p Pool) []span {
	out := make([]span, px)
	for i := range out {
		lo := min(i*n/px, n-1)
		hi := lo + 1
		if p != PoolNone {
			hi = min(max((i+1)*n/px, hi), n)
		}
		out[i] = span{lo, hi}
	}
	return out
}

// DrawHeatmap fills r with the grid data[row][col], row 0 at the top and
// column 0 at the left, each cell a nearest-neighbour block of pixels. NaN
// cells get NaNColor. It fails on empty or ragged data, or when st.Value is
// nil and no value is finite.
func DrawHeatmap(dst *image.RGBA, r image.Rectangle, data [][]float64, st HeatmapStyle) error {
	if dst == nil {
		return fmt.Errorf("plot: heatmap: %w", ErrNilImage)
	}
	rows, cols, err := checkGrid(data)
	if err != nil {
		return err
	}
	cm, value, err := st.resolve(data)
	if err != nil {
		return err
	}
	r = r.Canon()
	if r.Empty() {
		return nil
	}
	paintGrid(dst, r, data, pixelSpans(rows, r.Dy(), st.Pool), pixelSpans(cols, r.Dx(), st.Pool), st.Pool, cm, value)
	return nil
}

// Heatmap fills the plot area with the grid data[row][col], mapping the
// grid through the axes' scales: with lo and hi the smaller and larger end
// of a scale's domain and w, h the cell sizes ((hi−lo)/cols, (hi−lo)/rows),
// column j covers x from lo+j·w to lo+(j+1)·w and row i covers y from
// lo+i·h to lo+(i+1)·h. So on an ordinary y axis row 0 is at the bottom; a
// reversed y scale (such as NewLinear(rows, 0)) puts it at the top like a
// matrix, with tick labels counting rows downwards. With band scales, cell i
// is the band of category i.
func (a *Axes) Heatmap(dst *image.RGBA, data [][]float64, st HeatmapStyle) error {
	if dst == nil {
		return fmt.Errorf("plot: heatmap: %w", ErrNilImage)
	}
	rows, cols, err := checkGrid(data)
	if err != nil {
		return err
	}
	cm, value, err := st.resolve(data)
	if err != nil {
		return err
	}
	p := a.Plot
	// spanOf returns the cells pixel [px, px+1) covers along s: the one
	// under its centre, or with pooling all it touches.
	spanOf := func(s Scale, px float64, n int) span {
		lo, hi := s.Domain()
		lo, hi = math.Min(lo, hi), math.Max(lo, hi)
		frac := func(v float64) float64 { return (s.Invert(v) - lo) / (hi - lo) }
		f := frac(px + 0.5)
		if !(f >= 0 && f <= 1) {
			return span{-1, -1}
		}
		c := min(int(f*float64(n)), n-1)
		if st.Pool == PoolNone {
			return span{c, c + 1}
		}
		f0, f1 := frac(px), frac(px+1)
		f0, f1 = math.Min(f0, f1), math.Max(f0, f1)
		// A pixel edge on a cell edge must not reach into the next cell.
		const eps = 1e-9
		c0 := max(int(math.Floor(f0*float64(n)+eps)), 0)
		c1 := min(int(math.Ceil(f1*float64(n)-eps)), n)
		return span{min(c0, c), max(c1, c+1)}
	}
	colSpan := make([]span, p.Dx())
	for i := range colSpan {
		colSpan[i] = spanOf(a.X, float64(p.Min.X+i), cols)
	}
	rowSpan := make([]span, p.Dy())
	for i := range rowSpan {
		rowSpan[i] = spanOf(a.Y, float64(p.Min.Y+i), rows)
	}
	paintGrid(a.Clip(dst), p, data, rowSpan, colSpan, st.Pool, cm, value)
	return nil
}
