package dither

import (
	"math"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/rng"
)

// frame quantizes src (width columns, finite values) into dst, as frame f.
func (q *Quantizer) frame(dst, src []float32, width int, f uint64) {
	height := len(src) / width
	switch {
	case q.opts.Method == FloydSteinberg:
		q.floyd(dst, src, width, height)
	case q.uniform:
		q.uniformFrame(dst, src, width, height, f)
	default:
		q.formatFrame(dst, src, width, height, f)
	}
}

// uniformFrame handles nearest, stochastic and ordered dithering onto
// uniform levels: index = floor(v·(k-1) + t) with t = 1/2 (nearest), the
// random word's r bits as a fraction of 2^r (stochastic) or the Bayer
// threshold (ordered).
func (q *Quantizer) uniformFrame(dst, src []float32, width, height int, f uint64) {
	top := len(q.levels) - 1
	index := func(t float64) int {
		i := int(t)
		if i > top {
			return top
		}
		return max(i, 0)
	}
	var random []uint32
	r := uint(q.opts.RandomBits)
	mask := uint32(1<<r - 1)
	unit := math.Ldexp(1, -int(r))
	if q.opts.Method == Stochastic {
		random = make([]uint32, width)
	}
	for y := 0; y < height; y++ {
		in, out := src[y*width:(y+1)*width], dst[y*width:(y+1)*width]
		switch q.opts.Method {
		case Nearest:
			for x, v := range in {
				out[x] = q.levels[index(float64(clamp01(v))*q.km1+0.5)]
			}
		case Stochastic:
			rng.Fill(random, q.opts.Seed, f, uint64(y*width))
			for x, v := range in {
				u := float64(random[x]&mask) * unit
				out[x] = q.levels[index(float64(clamp01(v))*q.km1+u)]
			}
		default: // Bayer
			n := q.bayerN
			row := q.thresh[(y%n)*n : (y%n+1)*n]
			for x, v := range in {
				out[x] = q.levels[index(float64(clamp01(v))*q.km1+row[x%n])]
			}
		}
	}
}

// formatFrame handles nearest, stochastic and ordered dithering onto a
// Format's grid. Nearest and stochastic run fp8's own codecs on v·Scale, so
// the picture shows exactly what FP8 rounding does; ordered dithering picks
// between the two levels around v with the Bayer threshold.
func (q *Quantizer) formatFrame(dst, src []float32, width, height int, f uint64) {
	scaled := make([]float32, width)
	codes := make([]uint8, width)
	var random []uint32
	mode := fp8.Mode{}
	if q.opts.Method == Stochastic {
		random = make([]uint32, width)
		mode = fp8.Mode{Round: fp8.Stochastic, RandomBits: q.opts.RandomBits}
	}
	format := q.opts.Format
	for y := 0; y < height; y++ {
		in, out := src[y*width:(y+1)*width], dst[y*width:(y+1)*width]
		if n := q.bayerN; n > 0 {
			// Up when the position f of v between its levels, plus the
			// threshold t, reaches 1: f >= 1 - t.
			row := q.threshUp[(y%n)*n : (y%n+1)*n]
			for x, v := range in {
				v = clamp01(v)
				i := q.levelBelow(v)
				if (v-q.levels[i])*q.gapInv[i] >= row[x%n] {
					i++
				}
				out[x] = q.levels[i]
			}
			continue
		}
		for x, v := range in {
			scaled[x] = clamp01(v) * q.scale
		}
		// The inputs are finite and non-negative and the format has a zero,
		// so the codecs cannot fail here.
		if random != nil {
			rng.Fill(random, q.opts.Seed, f, uint64(y*width))
			_ = format.EncodeSliceStochastic32(codes, scaled, random, mode)
		} else {
			_ = format.EncodeSlice32(codes, scaled, mode)
		}
		for x, c := range codes {
			out[x] = q.decode[c]
		}
	}
}

// levelBelow returns the index i of the highest level <= v, for v between
// the lowest and the highest level: levels[i] <= v < levels[i+1], or the
// last index when v is the highest level.
func (q *Quantizer) levelBelow(v float32) int {
	var i int
	if q.uniform {
		i = min(int(float64(v)*q.km1), len(q.levels)-1)
		if q.levels[i] > v && i > 0 { // levels[i] is i/(k-1) rounded to float32
			i--
		}
	} else {
		i = int(q.bucket[math.Float32bits(v)>>bucketShift])
	}
	for i+1 < len(q.levels) && q.levels[i+1] <= v {
		i++
	}
	return i
}

// bracket returns the levels lo <= v <= hi around v, which lies between
// the lowest and the highest level (lo = hi when v is a level).
func (q *Quantizer) bracket(v float32) (lo, hi float32) {
	i := q.levelBelow(v)
	if q.levels[i] == v || i+1 == len(q.levels) {
		return q.levels[i], q.levels[i]
	}
	return q.levels[i], q.levels[i+1]
}

// nearestLevel returns the level closest to v (within the levels' range):
// on uniform levels floor(v·(k-1) + 1/2), as the Nearest method does; on a
// Format's grid the closer of the two levels around v (ties to the lower).
func (q *Quantizer) nearestLevel(v float32) float32 {
	if q.uniform {
		return q.levels[min(int(float64(v)*q.km1+0.5), len(q.levels)-1)]
	}
	i := q.levelBelow(v)
	if i+1 < len(q.levels) && q.levels[i+1]-v < v-q.levels[i] {
		i++
	}
	return q.levels[i]
}

// floyd is Floyd–Steinberg error diffusion with a serpentine scan: even
// rows run left to right, odd rows right to left.
func (q *Quantizer) floyd(dst, src []float32, width, height int) {
	// Error rows for this row and the next, with one pixel of padding on
	// each side.
	cur := make([]float32, width+2)
	next := make([]float32, width+2)
	for y := 0; y < height; y++ {
		in, out := src[y*width:(y+1)*width], dst[y*width:(y+1)*width]
		q.floydRow(in, out, cur, next, y%2 == 1)
		cur, next = next, cur
		clear(next)
	}
}

// floydRow diffuses one row, left to right or (reverse, on odd rows of the
// serpentine scan) right to left. cur holds the error diffused into this
// row, next collects the error for the row below (both padded by one pixel
// on each side). The error passed to the next pixel in the row travels in a
// register (carry), which keeps the loop's dependency chain short. The value
// carried into each pixel is clamped to the range of the levels before
// rounding, so that pixels the levels cannot reach do not pile up error
// without bound.
func (q *Quantizer) floydRow(in, out, cur, next []float32, reverse bool) {
	n := len(in)
	out, cur, next = out[:n], cur[:n+2], next[:n+2]
	lowest, highest := q.levels[0], q.levels[len(q.levels)-1]
	uniform, km1, top := q.uniform, float32(q.km1), len(q.levels)-1
	// Pixel x sends 3/16 of its error below and behind it, 5/16 straight
	// below and 1/16 below and ahead; in next (offset by one) those are
	// x+behind, x+1 and x+ahead.
	x, step, behind, ahead := 0, 1, 0, 2
	if reverse {
		x, step, behind, ahead = n-1, -1, 2, 0
	}
	var carry float32
	for range n {
		v := clampTo(clamp01(in[x])+cur[x+1]+carry, lowest, highest)
		var l float32
		if uniform { // nearestLevel, written out so that it is inlined
			l = q.levels[min(int(v*km1+0.5), top)]
		} else {
			i := q.levelBelow(v)
			if i < top && q.levels[i+1]-v < v-q.levels[i] {
				i++
			}
			l = q.levels[i]
		}
		out[x] = l
		e := v - l
		carry = e * (7.0 / 16)
		next[x+behind] += e * (3.0 / 16)
		next[x+1] += e * (5.0 / 16)
		next[x+ahead] += e * (1.0 / 16)
		x += step
	}
}

// clampTo clamps v to [lo, hi] with plain comparisons (v is never NaN here).
func clampTo(v, lo, hi float32) float32 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
