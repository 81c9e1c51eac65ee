package scan

import (
	"math"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
)

// Histogram counts a tensor's finite nonzero |x| by binade: Counts[k] is
// the number of values with floor(log2|x|) = Lo+k.
type Histogram struct {
	Lo     int   `json:"lo"`
	Counts []int `json:"counts"`
}

// Hi is the binade of the last bin (Lo-1 for an empty histogram).
func (h Histogram) Hi() int { return h.Lo + len(h.Counts) - 1 }

// Window is the range of |x| an element format represents under the
// tensorwise (one per tensor) scale of the default scale rule:
// [Lo, Hi] = [smallest positive value, Max] × ScaleInv, where ScaleInv is
// the decode scale (scale_inv) of the tensorwise recipe for that format.
// Values above Hi are clipped, values below Lo/2 flushed to zero.
type Window struct {
	Format   string  `json:"format"`
	ScaleInv float64 `json:"scale_inv"`
	Lo       float64 `json:"lo"`
	Hi       float64 `json:"hi"`
}

// SmallestPositive is f's smallest positive value: its smallest
// subnormal, or its smallest normal when it has no subnormals.
func SmallestPositive(f *fp8.Format) float64 {
	in := f.Info()
	if in.MinSubnormal > 0 {
		return in.MinSubnormal
	}
	return in.MinNormal
}

// TensorWindow is the window of format f for a tensor of largest |x| amax
// (see Window); ok is false when the format takes no float32 scale.
func TensorWindow(amax float64, f *fp8.Format) (w Window, ok bool) {
	s, err := scaling.ScaleRule{}.Scale(amax, f)
	if err != nil || s == 0 {
		return Window{}, false
	}
	d := 1 / float64(s) // as scaling.Quantized.BlockDecodeScale forms it
	return Window{Format: f.Name(), ScaleInv: d, Lo: SmallestPositive(f) * d, Hi: f.Max() * d}, true
}

// binades is the range of float32 binades: -149 (the smallest subnormal)
// to 127.
const minBinade, numBinades = -149, 277

// binade returns floor(log2 a) for a finite a > 0.
func binade(a float32) int {
	e := int(math.Float32bits(a)>>23) & 0xFF
	if e != 0 {
		return e - 127
	}
	_, exp := math.Frexp(float64(a))
	return exp - 1
}

// histogram builds a Histogram from per-binade counts indexed from
// minBinade.
func histogram(counts *[numBinades]int) Histogram {
	lo, hi := -1, -1
	for k, c := range counts {
		if c > 0 {
			if lo < 0 {
				lo = k
			}
			hi = k
		}
	}
	if lo < 0 {
		return Histogram{Counts: []int{}}
	}
	return Histogram{Lo: lo + minBinade, Counts: append([]int(nil), counts[lo:hi+1]...)}
}
