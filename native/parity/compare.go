package parity

import (
	"fmt"
	"math"

	"github.com/fp8lab/fp8lab/native"
	"github.com/fp8lab/fp8lab/scaling"
)

// sameBits reports whether two float32 values have the same bits, or are
// both NaN (payloads differ between CPUs and GPUs and are not compared).
func sameBits(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || a != a && b != b
}

// diffFloats returns the first index where a and b differ (sameBits), -1
// when none does, or the shorter length when the lengths differ.
func diffFloats(a, b []float32) int {
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	for i := range a {
		if !sameBits(a[i], b[i]) {
			return i
		}
	}
	return -1
}

// diffBytes returns the first index where a and b differ, -1 when none does.
func diffBytes(a, b []uint8) int {
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// compareQuantized compares every field of two quantizations of t and
// returns a description of the first difference (empty when identical) and
// a summary.
func compareQuantized(t *scaling.Tensor, r, d *scaling.Quantized) (string, string) {
	switch {
	case r.Rows != d.Rows || r.Cols != d.Cols:
		return fmt.Sprintf("shape %d×%d, device %d×%d", r.Rows, r.Cols, d.Rows, d.Cols), ""
	case !native.SameFormat(r.Format, d.Format) || !native.SameFormat(r.ScaleFormat, d.ScaleFormat):
		return fmt.Sprintf("formats %v/%v, device %v/%v", r.Format, r.ScaleFormat, d.Format, d.ScaleFormat), ""
	case r.Granularity != d.Granularity:
		return fmt.Sprintf("granularity %+v, device %+v", r.Granularity, d.Granularity), ""
	case r.BlockRows != d.BlockRows || r.BlockCols != d.BlockCols || r.ScaleRows != d.ScaleRows || r.ScaleCols != d.ScaleCols:
		return fmt.Sprintf("blocks %d×%d in %d×%d, device %d×%d in %d×%d", r.BlockRows, r.BlockCols, r.ScaleRows, r.ScaleCols,
			d.BlockRows, d.BlockCols, d.ScaleRows, d.ScaleCols), ""
	case r.Mode != d.Mode:
		return fmt.Sprintf("mode %+v, device %+v", r.Mode, d.Mode), ""
	case !sameBits(r.TensorScale, d.TensorScale):
		return fmt.Sprintf("tensor scale %g, device %g", r.TensorScale, d.TensorScale), ""
	}
	if i := diffFloats(r.Amax, d.Amax); i >= 0 {
		return fmt.Sprintf("amax of block %d: %s", i, pairString(r.Amax, d.Amax, i)), ""
	}
	if i := diffFloats(r.Scales, d.Scales); i >= 0 {
		return fmt.Sprintf("scale of block %d: %s (amax %g)", i, pairString(r.Scales, d.Scales, i), at(r.Amax, i)), ""
	}
	if i := diffBytes(r.ScaleCodes, d.ScaleCodes); i >= 0 {
		return fmt.Sprintf("scale code of block %d: %s", i, bytePair(r.ScaleCodes, d.ScaleCodes, i)), ""
	}
	if i := diffBytes(r.Codes, d.Codes); i >= 0 {
		row, col := i/max(r.Cols, 1), i%max(r.Cols, 1)
		b := (row/max(r.BlockRows, 1))*r.ScaleCols + col/max(r.BlockCols, 1)
		x := float32(math.NaN())
		if i < len(t.Data) {
			x = t.Data[i]
		}
		return fmt.Sprintf("code (%d, %d): %s for input %g (%#08x) with scale %g", row, col, bytePair(r.Codes, d.Codes, i),
			x, math.Float32bits(x), at(r.Scales, b)), ""
	}
	return "", fmt.Sprintf("%d codes, %d scales identical", len(r.Codes), len(r.Scales))
}

func at(s []float32, i int) float32 {
	if i >= 0 && i < len(s) {
		return s[i]
	}
	return float32(math.NaN())
}

func pairString(a, b []float32, i int) string {
	x, y := at(a, i), at(b, i)
	return fmt.Sprintf("reference %g (%#08x), device %g (%#08x)", x, math.Float32bits(x), y, math.Float32bits(y))
}

func bytePair(a, b []uint8, i int) string {
	if i >= len(a) || i >= len(b) {
		return fmt.Sprintf("lengths %d and %d", len(a), len(b))
	}
	return fmt.Sprintf("reference %#02x, device %#02x", a[i], b[i])
}

// compareTensors compares two tensors bit for bit (NaN payloads aside).
func compareTensors(r, d *scaling.Tensor, what string) (string, string) {
	if r.Rows != d.Rows || r.Cols != d.Cols {
		return fmt.Sprintf("shape %d×%d, device %d×%d", r.Rows, r.Cols, d.Rows, d.Cols), ""
	}
	if i := diffFloats(r.Data, d.Data); i >= 0 {
		return fmt.Sprintf("%s %d: %s", what, i, pairString(r.Data, d.Data, i)), ""
	}
	return "", fmt.Sprintf("%d values identical", len(r.Data))
}

// compareProduct checks d against r within tol (see GEMMTolFP8).
func compareProduct(a, b, r, d *scaling.Tensor, tol float64, out native.Output) (string, string) {
	if r.Rows != d.Rows || r.Cols != d.Cols {
		return fmt.Sprintf("shape %d×%d, device %d×%d", r.Rows, r.Cols, d.Rows, d.Cols), ""
	}
	worst, i, j := native.ProductError(a, b, r, d, out)
	if worst > tol {
		n := r.Cols
		return fmt.Sprintf("element (%d, %d): reference %g, device %g: error %.3g of Σ|a||b| > tolerance %.3g",
			i, j, r.Data[i*n+j], d.Data[i*n+j], worst, tol), ""
	}
	return "", fmt.Sprintf("max error %.3g of Σ|a||b| (tolerance %.3g)", worst, tol)
}
