package scaling

import (
	"fmt"
	"math"

	"github.com/fp8lab/fp8lab/fp8"
)

// Outlier places one chosen value in a tensor.
type Outlier struct {
	Row   int     `json:"row"`
	Col   int     `json:"col"`
	Value float32 `json:"value"`
}

// OutlierSpec describes a normal random tensor with planted outliers: whole
// rows multiplied by RowFactor (outlier tokens) and single values set
// exactly (outlier features). A vector is a 1×n spec.
type OutlierSpec struct {
	Rows int     `json:"rows"`
	Cols int     `json:"cols"`
	Std  float64 `json:"std"` // 0 means 1
	Seed uint64  `json:"seed"`
	// OutlierRows are multiplied by RowFactor (0 means 1, no change).
	OutlierRows []int     `json:"outlier_rows,omitempty"`
	RowFactor   float64   `json:"row_factor,omitempty"`
	Outliers    []Outlier `json:"outliers,omitempty"`
}

// MakeOutlierTensor builds the tensor spec describes.
func MakeOutlierTensor(spec OutlierSpec) (*Tensor, error) {
	std := spec.Std
	if std == 0 {
		std = 1
	}
	t, err := RandomNormal(spec.Rows, spec.Cols, std, spec.Seed)
	if err != nil {
		return nil, err
	}
	factor := spec.RowFactor
	if factor == 0 {
		factor = 1
	}
	if math.IsNaN(factor) || math.IsInf(factor, 0) {
		return nil, fmt.Errorf("%w: row factor %g", ErrValue, factor)
	}
	for _, r := range spec.OutlierRows {
		if r < 0 || r >= t.Rows {
			return nil, fmt.Errorf("%w: outlier row %d outside 0..%d", ErrShape, r, t.Rows-1)
		}
		row := t.Row(r)
		for j := range row {
			row[j] = float32(float64(row[j]) * factor)
		}
	}
	for _, o := range spec.Outliers {
		if o.Row < 0 || o.Row >= t.Rows || o.Col < 0 || o.Col >= t.Cols {
			return nil, fmt.Errorf("%w: outlier at (%d, %d) outside %d×%d", ErrShape, o.Row, o.Col, t.Rows, t.Cols)
		}
		t.Set(o.Row, o.Col, o.Value)
	}
	return t, nil
}

// OutlierReport compares quantizing a tensor directly with quantizing it
// after a Hadamard rotation of its rows.
type OutlierReport struct {
	// Plain measures Quantize(x) against x.
	Plain Metrics `json:"plain"`
	// Rotated measures the error of rotate → quantize → dequantize →
	// unrotate against x. Its Overflow, Underflow, FractionSubnormal and
	// DistinctCodes are counted on the rotated tensor, where the quantizer
	// works.
	Rotated Metrics `json:"rotated"`
	// AmaxBefore and AmaxAfter are the amax of x and of x·R.
	AmaxBefore float32 `json:"amax_before"`
	AmaxAfter  float32 `json:"amax_after"`
	// Before and After are the binade histograms of x and x·R over a shared
	// range of binades.
	Before Histogram `json:"before"`
	After  Histogram `json:"after"`
}

// OutlierExperiment quantizes t with and without the row rotation rot
// (rot.Size must equal t.Cols) and reports the errors and the magnitude
// histograms before and after rotation. t is not modified.
func OutlierExperiment(t *Tensor, f *fp8.Format, g Granularity, rot *Rotation, opts Options) (*OutlierReport, error) {
	if err := t.Check(); err != nil {
		return nil, err
	}
	if err := rot.Check(); err != nil {
		return nil, err
	}
	rep := &OutlierReport{}
	q, err := Quantize(t, f, g, opts)
	if err != nil {
		return nil, err
	}
	if rep.Plain, err = Measure(t, q); err != nil {
		return nil, err
	}
	rotated := t.Clone()
	if err := rot.RotateRows(rotated); err != nil {
		return nil, err
	}
	qr, err := Quantize(rotated, f, g, opts)
	if err != nil {
		return nil, err
	}
	inRotated, err := Measure(rotated, qr)
	if err != nil {
		return nil, err
	}
	back, err := qr.Dequantize()
	if err != nil {
		return nil, err
	}
	if err := rot.UnrotateRows(back); err != nil {
		return nil, err
	}
	if rep.Rotated, err = Compare(t, back, DefaultMetricsBlock); err != nil {
		return nil, err
	}
	rep.Rotated.Overflow, rep.Rotated.Underflow = inRotated.Overflow, inRotated.Underflow
	rep.Rotated.FractionSubnormal, rep.Rotated.DistinctCodes = inRotated.FractionSubnormal, inRotated.DistinctCodes
	if rep.AmaxBefore, err = Amax(t); err != nil {
		return nil, err
	}
	if rep.AmaxAfter, err = Amax(rotated); err != nil {
		return nil, err
	}
	lo, hi, ok := binadeRange(t.Data, rotated.Data)
	if !ok {
		lo, hi = 0, 0
	}
	if rep.Before, err = Log2Histogram(t.Data, lo, hi); err != nil {
		return nil, err
	}
	if rep.After, err = Log2Histogram(rotated.Data, lo, hi); err != nil {
		return nil, err
	}
	return rep, nil
}
