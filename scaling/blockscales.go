package scaling

import "fmt"

// blockAmax sets q.Amax of the blocks b0, b0+1, ... from their absMaxBits
// (bits[k] is block b0+k) and returns ErrNonFinite for the first that holds
// a NaN or ±Inf: current scaling has no scale for it.
func blockAmax(q *Quantized, l layout, bits []uint32, b0 int) error {
	amax := q.Amax[b0 : b0+len(bits)]
	for k, v := range bits {
		amax[k] = amaxFromBits(v)
		if v >= f32InfBits {
			b := b0 + k
			return fmt.Errorf("%w: block (%d, %d) of %s holds %g", ErrNonFinite, b/l.gc, b%l.gc, q.Granularity, amax[k])
		}
	}
	return nil
}

// blockScales sets the scales of the blocks b0, b0+1, ... from their amax
// (set by blockAmax; bits[k] is block b0+k's absMaxBits): MX's E8M0 codes
// and multipliers, or g's scale rule's float32 multipliers. NVFP4's scales
// need the tensor's amax first and are not set here.
func blockScales(q *Quantized, g Granularity, bits []uint32, b0 int, opts Options) error {
	b1 := b0 + len(bits)
	if g.Scales() == ScaleE8M0 {
		return mxScales(q.ScaleCodes[b0:b1], q.Scales[b0:b1], q.Amax[b0:b1], bits, q.Format, opts.MXRounding)
	}
	fmax := q.Format.Max()
	for b := b0; b < b1; b++ {
		q.Scales[b] = opts.Rule.scale(float64(q.Amax[b]), fmax)
	}
	return nil
}
