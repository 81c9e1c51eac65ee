package main

import (
	"fmt"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
)

// quantizeResult is what `fp8lab quantize` prints: the scales a
// granularity chose and the metrics of the round trip. It marshals to JSON
// with snake_case keys.
type quantizeResult struct {
	Format      string `json:"format"`
	Granularity string `json:"granularity"`
	Rows        int    `json:"rows"`
	Cols        int    `json:"cols"`
	BlockRows   int    `json:"block_rows"`
	BlockCols   int    `json:"block_cols"`
	ScaleRows   int    `json:"scale_rows"`
	ScaleCols   int    `json:"scale_cols"`
	// Scales holds the encode multiplier of each block (q = enc(x·scale)),
	// row-major over the ScaleRows×ScaleCols grid.
	Scales []float32 `json:"scales"`
	// DecodeScales holds each block's decode factor (x ≈ dec(q)·factor).
	DecodeScales []float64 `json:"decode_scales"`
	// ScaleFormat and ScaleCodes are set for MX (E8M0) and NVFP4 (E4M3FN).
	ScaleFormat string `json:"scale_format,omitempty"`
	ScaleCodes  []int  `json:"scale_codes,omitempty"`
	// TensorScale is NVFP4's float32 tensor (decode) scale.
	TensorScale float32         `json:"tensor_scale,omitempty"`
	Rounding    string          `json:"rounding"`
	Overflow    string          `json:"overflow_mode"`
	Metrics     scaling.Metrics `json:"metrics"`
	// Quantized is the full result, codes included; it is not marshaled.
	Quantized *scaling.Quantized `json:"-"`
}

// evaluate quantizes t with scaling.Quantize and measures the round trip
// with scaling.Measure, returning both in one quantizeResult.
func evaluate(t *scaling.Tensor, f *fp8.Format, g scaling.Granularity, opts scaling.Options) (*quantizeResult, error) {
	q, err := scaling.Quantize(t, f, g, opts)
	if err != nil {
		return nil, err
	}
	m, err := scaling.Measure(t, q)
	if err != nil {
		return nil, err
	}
	if err := q.Check(); err != nil {
		return nil, fmt.Errorf("result: %w", err)
	}
	r := &quantizeResult{
		Format: q.Format.Name(), Granularity: q.Granularity.String(),
		Rows: q.Rows, Cols: q.Cols, BlockRows: q.BlockRows, BlockCols: q.BlockCols,
		ScaleRows: q.ScaleRows, ScaleCols: q.ScaleCols,
		Scales:       append([]float32(nil), q.Scales...),
		DecodeScales: make([]float64, len(q.Scales)),
		TensorScale:  q.TensorScale,
		Rounding:     q.Mode.Round.String(), Overflow: q.Mode.Overflow.String(),
		Metrics: m, Quantized: q,
	}
	for b := range r.DecodeScales {
		r.DecodeScales[b] = q.BlockDecodeScale(b)
	}
	if q.ScaleFormat != nil {
		r.ScaleFormat = q.ScaleFormat.Name()
		r.ScaleCodes = make([]int, len(q.ScaleCodes))
		for b, c := range q.ScaleCodes {
			r.ScaleCodes[b] = int(c)
		}
	}
	return r, nil
}
