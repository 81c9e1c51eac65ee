package scaling

import (
	"fmt"
	"math"
	"slices"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/parallel"
)

// Options configures Quantize. The zero value is the package default:
// current scaling with float32 scales (torchao's rule, eps 1e-12), round to
// nearest even, saturating.
type Options struct {
	// Mode is the element rounding. Stochastic rounding (Mode.Round =
	// fp8.Stochastic, Mode.RandomBits in 1..32) needs Random.
	Mode fp8.Mode
	// Random holds one caller-supplied random word per element, indexed like
	// Tensor.Data (row-major): Random[i*Cols+j] rounds element (i, j). It
	// must be nil unless Mode.Round is fp8.Stochastic. Package rng
	// fills it from Philox streams.
	Random []uint32
	// Rule is the scale rule of the float32-scale granularities (tensor, row,
	// col, tile, block). It must be the zero value for MX and NVFP4, whose
	// scales follow their own specifications.
	Rule ScaleRule
	// MXRounding picks the MX shared-exponent rule (see fp8.MXScale); the zero
	// value is the OCP floor rule. It must be zero for other granularities.
	MXRounding fp8.ScaleRounding
}

// Quantized is a tensor quantized with one granularity: element codes, one
// scale per block and the facts needed to decode them.
//
// Semantics (torchao's convention): Scales[b] multiplies before encoding,
// q = enc(x · Scales[b]), and dequantization undoes it, x ≈ dec(q) / Scales[b].
// For MX and NVFP4 the stored scale is a decode scale, kept in ScaleCodes:
// MX stores X = 2^k (E8M0) and decodes x ≈ dec(q)·X, with Scales[b] = 2^-k;
// NVFP4 stores an E4M3FN block scale d and a float32 TensorScale g and
// decodes x ≈ dec(q)·(d·g), with Scales[b] = 1/(d·g) computed as NVIDIA does.
// BlockDecodeScale gives the decode factor of any block in every case.
type Quantized struct {
	Rows        int
	Cols        int
	Format      *fp8.Format // element format
	Granularity Granularity // with its block shape filled in
	// BlockRows×BlockCols is the shape of a block; the blocks form a
	// ScaleRows×ScaleCols grid, block b = bi*ScaleCols + bj.
	BlockRows, BlockCols int
	ScaleRows, ScaleCols int
	Codes                []uint8   // one per element, row-major
	Scales               []float32 // encode multiplier per block
	Amax                 []float32 // amax of each block's input
	// ScaleFormat is nil for float32 scales, fp8.E8M0 for MX and
	// fp8.E4M3FN for NVFP4, whose block scales ScaleCodes holds.
	ScaleFormat *fp8.Format
	ScaleCodes  []uint8
	// TensorScale is NVFP4's float32 decode-side tensor scale (≈ amax/2688);
	// zero for the other granularities.
	TensorScale float32
	Mode        fp8.Mode // element rounding used
}

// Quantize quantizes t to element format f with granularity g.
//
// The scales follow the rule of the granularity: ScaleRule (current
// scaling) for tensor, row, col, tile and block; fp8.MXScale for MX;
// NVFP4TensorScale and NVFP4BlockScale for NVFP4. The elements of each block
// are multiplied by the block's scale in float32, as GPU kernels do, then
// encoded once with fp8's bulk encoder in opts.Mode.
//
// Formats: tensor, row, col, tile and block take any signed format (E4M3FN,
// E5M2, the FNUZ pair, E4M3, E3M4, E2M3, E3M2, E2M1); MX takes the OCP MX
// element types E4M3FN, E5M2, E3M2, E2M3 and E2M1; NVFP4 takes E2M1 only.
// Other combinations give ErrFormat. A NaN or ±Inf element gives
// ErrNonFinite (current scaling has no scale for it); use QuantizeWithScales,
// as delayed scaling does, to quantize non-finite values with a given scale.
func Quantize(t *Tensor, f *fp8.Format, g Granularity, opts Options) (*Quantized, error) {
	return quantize(nil, t, f, g, opts, nil)
}

// QuantizeInto is Quantize writing its result into dst, whose Codes,
// Scales, Amax and ScaleCodes are reused where their capacity suffices
// (every other field is overwritten): a loop that quantizes tensors of one
// shape allocates nothing after the first call and the garbage collector
// has nothing to do. The result equals Quantize's. On error the contents of
// dst are unspecified.
func QuantizeInto(dst *Quantized, t *Tensor, f *fp8.Format, g Granularity, opts Options) error {
	if dst == nil {
		return fmt.Errorf("%w: nil destination", ErrShape)
	}
	_, err := quantize(dst, t, f, g, opts, nil)
	return err
}

// quantize is Quantize, gathering error statistics into st unless it is nil
// and reusing the buffers of reuse unless it is nil.
func quantize(reuse *Quantized, t *Tensor, f *fp8.Format, g Granularity, opts Options, st *statsAcc) (*Quantized, error) {
	scaleCodes := []uint8(nil)
	if reuse != nil {
		scaleCodes = reuse.ScaleCodes
	}
	q, l, err := prepare(reuse, t, f, g, opts)
	if err != nil {
		return nil, err
	}
	if g.Scales() == ScaleE8M0 || g.Scales() == ScaleE4M3 {
		q.ScaleFormat, q.ScaleCodes = g.ScaleFormat(), resize(scaleCodes, l.blocks())
	}
	if byRows(l, g, opts, st) {
		if err := quantizeByRows(q, t, l, g, opts); err != nil {
			return nil, err
		}
		return q, nil
	}
	bits, err := amaxGridBits(t, l)
	if err != nil {
		return nil, err
	}
	// The loops over blocks run in parallel when there are many (MX on
	// 2048×2048 has 131072): on one core they were an eighth of MX's time.
	// Every amax is checked before any scale is computed, so that a
	// non-finite block is the error whatever a scale rule would say.
	blockWork := len(bits) * blockScaleWork
	err = parallel.Chunks(len(bits), 1, blockWork, func(lo, hi int) error {
		return blockAmax(q, l, bits[lo:hi], lo)
	})
	if err != nil {
		return nil, err
	}
	if g.Scales() == ScaleE4M3 {
		var tensorAmax float32
		for _, a := range q.Amax {
			tensorAmax = max(tensorAmax, a)
		}
		enc, dec, err := NVFP4TensorScale(tensorAmax)
		if err != nil {
			return nil, err
		}
		q.TensorScale = dec
		for b, a := range q.Amax {
			if q.ScaleCodes[b], q.Scales[b], err = NVFP4BlockScale(a, enc); err != nil {
				return nil, err
			}
		}
	} else if err := parallel.Chunks(len(bits), 1, blockWork, func(lo, hi int) error {
		return blockScales(q, g, bits[lo:hi], lo, opts)
	}); err != nil {
		return nil, err
	}
	if err := encodeBlocks(q, t, l, opts, st); err != nil {
		return nil, err
	}
	return q, nil
}

// QuantizeWithScales quantizes t with caller-chosen float32 scales, one per
// block of g (len(scales) must be the number of blocks), for the
// float32-scale granularities (tensor, row, col, tile, block). Each scale
// must be positive and finite. Elements are not checked: ±Inf and values
// pushed beyond Max follow opts.Mode's overflow policy (saturating by
// default) and NaN becomes the format's NaN, or an error where it has none.
// Delayed scaling uses it with a scale computed from past amaxes.
func QuantizeWithScales(t *Tensor, f *fp8.Format, g Granularity, scales []float32, opts Options) (*Quantized, error) {
	if !g.FloatScales() {
		return nil, fmt.Errorf("%w: %s scales are not float32 multipliers; use Quantize", ErrGranularity, g)
	}
	q, l, err := prepare(nil, t, f, g, opts)
	if err != nil {
		return nil, err
	}
	if len(scales) != l.blocks() {
		return nil, fmt.Errorf("%w: %d scales for %d blocks of %s", ErrShape, len(scales), l.blocks(), q.Granularity)
	}
	for b, s := range scales {
		if !(s > 0) || math.IsInf(float64(s), 0) {
			return nil, fmt.Errorf("%w: scale %d is %g (must be positive and finite)", ErrValue, b, s)
		}
	}
	copy(q.Scales, scales)
	bits, err := amaxGridBits(t, l)
	if err != nil {
		return nil, err
	}
	for b, v := range bits {
		q.Amax[b] = amaxFromBits(v)
	}
	if err := encodeBlocks(q, t, l, opts, nil); err != nil {
		return nil, err
	}
	return q, nil
}

// prepare checks the arguments and allocates the result, or overwrites
// reuse and recycles its buffers when it is not nil.
func prepare(reuse *Quantized, t *Tensor, f *fp8.Format, g Granularity, opts Options) (*Quantized, layout, error) {
	if err := t.Check(); err != nil {
		return nil, layout{}, err
	}
	if err := checkCombination(f, g, opts); err != nil {
		return nil, layout{}, err
	}
	if err := checkMode(opts, t.Len()); err != nil {
		return nil, layout{}, err
	}
	l, err := newLayout(g, t.Rows, t.Cols)
	if err != nil {
		return nil, layout{}, err
	}
	resolved := g
	if g.TakesBlockShape() {
		resolved.BlockRows, resolved.BlockCols = l.br, l.bc
	}
	q := reuse
	if q == nil {
		q = new(Quantized)
	}
	*q = Quantized{
		Rows: t.Rows, Cols: t.Cols, Format: f, Granularity: resolved,
		BlockRows: l.br, BlockCols: l.bc, ScaleRows: l.gr, ScaleCols: l.gc,
		Codes:  resize(q.Codes, t.Len()),
		Scales: resize(q.Scales, l.blocks()),
		Amax:   resize(q.Amax, l.blocks()),
		Mode:   opts.Mode,
	}
	return q, l, nil
}

// resize returns s[:n] when s has the capacity, else a new slice of n
// elements. The caller overwrites every element.
func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}

// checkCombination rejects element formats and options that do not go with
// the granularity.
func checkCombination(f *fp8.Format, g Granularity, opts Options) error {
	if err := checkGranularityFormat(f, g); err != nil {
		return err
	}
	if err := opts.Rule.check(); err != nil {
		return err
	}
	mx := g.Scales() == ScaleE8M0 // the MX shared exponent: fp8.MXScale
	if !mx && opts.MXRounding != fp8.ScaleFloor {
		return fmt.Errorf("%w: MXRounding applies to mx only, not %s", ErrOptions, g)
	}
	if !g.FloatScales() && opts.Rule != (ScaleRule{}) {
		spec, _ := g.spec()
		return fmt.Errorf("%w: %s scales follow %s, a ScaleRule (pow2, margin, eps) does not apply", ErrOptions, g, spec.scaleSource)
	}
	if mx && !slices.Contains(MXRoundings(), opts.MXRounding) {
		return fmt.Errorf("%w: MX scale rounding %s", ErrOptions, opts.MXRounding)
	}
	return nil
}

// checkGranularityFormat reports whether g is valid and takes elements of
// format f: any signed format with float32 scales, the OCP MX element types
// with E8M0 scales, the kind's own element format where it has one.
func checkGranularityFormat(f *fp8.Format, g Granularity) error {
	if err := checkElementFormat(f); err != nil {
		return err
	}
	if err := g.Validate(); err != nil {
		return err
	}
	if g.Scales() == ScaleE8M0 {
		_, err := MXEmax(f)
		return err
	}
	if e := g.ElementFormat(); e != nil && !sameFormat(f, e) {
		return fmt.Errorf("%w: %s elements are %s, not %s", ErrFormat, g, e.Name(), f.Name())
	}
	return nil
}

// checkMode validates the rounding mode and the random words.
func checkMode(opts Options, n int) error {
	m := opts.Mode
	if m.Round > fp8.Stochastic || m.Overflow > fp8.NoSaturate {
		return fmt.Errorf("%w: mode %+v", ErrOptions, m)
	}
	if m.Round != fp8.Stochastic {
		if opts.Random != nil {
			return fmt.Errorf("%w: random words given but the rounding is %s, not stochastic", ErrOptions, m.Round)
		}
		return nil
	}
	if m.RandomBits < 1 || m.RandomBits > 32 {
		return fmt.Errorf("%w: stochastic rounding needs Mode.RandomBits in 1..32, got %d", ErrOptions, m.RandomBits)
	}
	if len(opts.Random) != n {
		return fmt.Errorf("%w: stochastic rounding needs one random word per element: %d words for %d elements", ErrOptions, len(opts.Random), n)
	}
	return nil
}

// blockScaleWork is the cost of one block's amax check or scale in the
// elements of parallel's rule: a few nanoseconds, a few encoded values.
const blockScaleWork = 8

// fusedMinBlock is the shortest run of one scale for which encodeBlocks
// lets fp8 scale inside its encode loop (EncodeScaledSlice32); shorter
// runs go through a scaled buffer, whose loop costs less per run.
const fusedMinBlock = 32

// chunkLen is the length of the scaled-value buffer each worker reuses: it
// stays in L1 while the fp8 encoder reads it back.
const chunkLen = 4096

// encodeBlocks fills q.Codes: every element is multiplied by its block's
// scale in float32 into a reused buffer, which fp8's bulk encoder then
// rounds. With st, the error statistics of each chunk are gathered while
// the chunk is still in cache. Rows are split across cores; rows shorter
// than chunkLen are encoded several at a time (encodeRowSpan), so that a
// matrix of short rows does not pay one encoder call per row.
func encodeBlocks(q *Quantized, t *Tensor, l layout, opts Options, st *statsAcc) error {
	f, mode := q.Format, opts.Mode
	if st != nil {
		st.init(q)
	}
	// The encoder calls below are a row or a chunk long; without the hint
	// none would be long enough to build fp8's lookup table.
	f.PrepareEncode(mode, t.Len())
	return parallel.Chunks(t.Rows, 1, t.Len(), func(lo, hi int) error {
		var cs *chunkStats
		if st != nil {
			cs = newChunkStats(q, mode, st)
			defer st.merge(&cs.s)
		}
		if t.Cols <= chunkLen/2 {
			var buf []float32 // allocated where a span needs it
			span := chunkLen / t.Cols
			if cs == nil && fusedSpans(mode, l, t.Cols) {
				// No statistics to gather while a chunk is in cache: one
				// encoder call for the whole range (fp8 keeps its own
				// working set small), not one per 4096 values.
				span = hi - lo
			}
			for i := lo; i < hi; i += span {
				if err := encodeRowSpan(q, t, l, opts, i, min(i+span, hi), &buf); err != nil {
					return err
				}
				if cs != nil {
					for r := i; r < min(i+span, hi); r++ {
						cs.add(r, 0, t.Data[r*t.Cols:(r+1)*t.Cols], q.Codes[r*t.Cols:(r+1)*t.Cols])
					}
				}
			}
			return nil
		}
		buf := make([]float32, min(chunkLen, t.Cols))
		for i := lo; i < hi; i++ {
			row := t.Data[i*t.Cols : (i+1)*t.Cols]
			scales := q.Scales[(i/l.br)*l.gc : (i/l.br+1)*l.gc]
			for j0 := 0; j0 < t.Cols; j0 += len(buf) {
				n := min(len(buf), t.Cols-j0)
				off := i*t.Cols + j0
				var err error
				if mode.Round != fp8.Stochastic && l.bc >= fusedMinBlock {
					// Scale inside the encode loop: no buffer to write and read back.
					err = encodeScaledRun(f, q.Codes[off:off+n], row[j0:j0+n], j0, scales, l.bc, mode)
				} else if scaleChunk(buf[:n], row[j0:j0+n], j0, scales, l.bc); mode.Round == fp8.Stochastic {
					err = f.EncodeSliceStochastic32(q.Codes[off:off+n], buf[:n], opts.Random[off:off+n], mode)
				} else {
					err = f.EncodeSlice32(q.Codes[off:off+n], buf[:n], mode)
				}
				if err != nil {
					return fmt.Errorf("row %d, column %d: %w", i, j0, err)
				}
				if cs != nil {
					cs.add(i, j0, row[j0:j0+n], q.Codes[off:off+n])
				}
			}
		}
		return nil
	})
}

// fusedSpans reports whether encodeRowSpan encodes a span of whole rows
// of this layout in fused encoder calls, which need no buffer and so no
// limit on the span's length.
func fusedSpans(mode fp8.Mode, l layout, cols int) bool {
	return mode.Round != fp8.Stochastic && l.bc >= fusedMinBlock && (cols%l.bc == 0 || l.gc == 1)
}

// encodeScaledRun encodes src, the elements j0, j0+1, ... of a row, each
// times its block's scale. fp8's EncodeScaledSlice32 starts a new block
// every bc elements from the start of its slice, so a run that begins
// inside a block (a chunk boundary that is not a multiple of bc, such as
// 4096 in 1×100 tiles) is cut at the block's end first.
func encodeScaledRun(f *fp8.Format, dst []uint8, src []float32, j0 int, scales []float32, bc int, mode fp8.Mode) error {
	if r := j0 % bc; r != 0 {
		m := min(bc-r, len(src))
		if err := f.EncodeScaledSlice32(dst[:m], src[:m], scales[j0/bc:], bc, mode); err != nil {
			return err
		}
		dst, src, j0 = dst[m:], src[m:], j0+m
	}
	if len(src) == 0 {
		return nil
	}
	return f.EncodeScaledSlice32(dst, src, scales[j0/bc:], bc, mode)
}

// encodeRowSpan encodes the whole rows [lo, hi) in as few encoder calls as
// their blocks allow. Where fusedSpans holds, fp8 scales inside its encode
// loop and the span may be any length: one call where the span's blocks
// follow each other in q.Scales (blocks that tile rows, br = 1), one per
// band where one block covers whole rows (tensor, row bands), one per row
// where blocks of several rows tile each row (128×128). Otherwise the span,
// at most chunkLen elements, is scaled into *buf (grown to the span when
// shorter: a tiny tensor costs no chunk) and encoded in one call. The codes are those of encoding
// each row on its own.
func encodeRowSpan(q *Quantized, t *Tensor, l layout, opts Options, lo, hi int, bufp *[]float32) error {
	f, mode := q.Format, opts.Mode
	cols := t.Cols
	if fusedSpans(mode, l, cols) {
		switch {
		case l.br == 1 && cols%l.bc == 0:
			// Element k of the span lies in block lo·gc + k/bc.
			if err := f.EncodeScaledSlice32(q.Codes[lo*cols:hi*cols], t.Data[lo*cols:hi*cols], q.Scales[lo*l.gc:], l.bc, mode); err != nil {
				return fmt.Errorf("rows %d to %d: %w", lo, hi-1, err)
			}
			return nil
		case l.gc == 1:
			// One scale per band of br whole rows: a call per band.
			for i := lo; i < hi; {
				end := min(hi, (i/l.br+1)*l.br)
				n := (end - i) * cols
				if err := f.EncodeScaledSlice32(q.Codes[i*cols:end*cols], t.Data[i*cols:end*cols], q.Scales[i/l.br:], n, mode); err != nil {
					return fmt.Errorf("rows %d to %d: %w", i, end-1, err)
				}
				i = end
			}
			return nil
		default:
			// Blocks of br > 1 rows that tile each row (128×128): a row's
			// blocks follow each other in its band's scales, a call per row.
			for i := lo; i < hi; i++ {
				if err := f.EncodeScaledSlice32(q.Codes[i*cols:(i+1)*cols], t.Data[i*cols:(i+1)*cols], q.Scales[(i/l.br)*l.gc:], l.bc, mode); err != nil {
					return fmt.Errorf("row %d: %w", i, err)
				}
			}
			return nil
		}
	}
	n := (hi - lo) * cols
	if cap(*bufp) < n {
		*bufp = make([]float32, n)
	}
	buf := *bufp
	for i := lo; i < hi; i++ {
		scales := q.Scales[(i/l.br)*l.gc : (i/l.br+1)*l.gc]
		k := (i - lo) * cols
		scaleChunk(buf[k:k+cols], t.Data[i*cols:(i+1)*cols], 0, scales, l.bc)
	}
	codes := q.Codes[lo*cols : hi*cols]
	var err error
	if mode.Round == fp8.Stochastic {
		err = f.EncodeSliceStochastic32(codes, buf[:n], opts.Random[lo*cols:hi*cols], mode)
	} else {
		err = f.EncodeSlice32(codes, buf[:n], mode)
	}
	if err != nil {
		return fmt.Errorf("rows %d to %d: %w", lo, hi-1, err)
	}
	return nil
}

// scaleChunk writes dst[j] = src[j] · scales[(j0+j)/bc], the float32
// product of each element with its block's multiplier.
func scaleChunk(dst, src []float32, j0 int, scales []float32, bc int) {
	if bc == 1 {
		s := scales[j0 : j0+len(src)]
		for j, x := range src {
			dst[j] = x * s[j]
		}
		return
	}
	for j := 0; j < len(src); {
		b := (j0 + j) / bc
		end := min((b+1)*bc-j0, len(src))
		s := scales[b]
		d, x := dst[j:end], src[j:end]
		for k := range x {
			d[k] = x[k] * s
		}
		j = end
	}
}

// Check reports whether q is internally consistent: shapes, slice lengths,
// a known element format and granularity, and scale codes where needed.
func (q *Quantized) Check() error {
	if q == nil {
		return fmt.Errorf("%w: nil Quantized", ErrShape)
	}
	if err := checkDims(q.Rows, q.Cols); err != nil {
		return err
	}
	if err := checkElementFormat(q.Format); err != nil {
		return err
	}
	l, err := newLayout(q.Granularity, q.Rows, q.Cols)
	if err != nil {
		return err
	}
	if l.br != q.BlockRows || l.bc != q.BlockCols || l.gr != q.ScaleRows || l.gc != q.ScaleCols {
		return fmt.Errorf("%w: block layout %d×%d in a %d×%d grid does not match %s on %d×%d",
			ErrShape, q.BlockRows, q.BlockCols, q.ScaleRows, q.ScaleCols, q.Granularity, q.Rows, q.Cols)
	}
	if len(q.Codes) != q.Rows*q.Cols || len(q.Scales) != l.blocks() {
		return fmt.Errorf("%w: %d codes and %d scales for %d×%d in %d blocks", ErrShape, len(q.Codes), len(q.Scales), q.Rows, q.Cols, l.blocks())
	}
	if want := q.Granularity.ScaleFormat(); want != nil {
		if q.ScaleFormat == nil || !sameFormat(q.ScaleFormat, want) || len(q.ScaleCodes) != l.blocks() {
			return fmt.Errorf("%w: %s needs %d %s scale codes", ErrShape, q.Granularity, l.blocks(), want.Name())
		}
		for b, c := range q.ScaleCodes {
			if q.ScaleFormat.IsNaN(c) {
				return fmt.Errorf("%w: scale code %d of block %d is NaN", ErrNonFinite, c, b)
			}
		}
		if q.Granularity.HasTensorScale() && (!(q.TensorScale > 0) || math.IsInf(float64(q.TensorScale), 0)) {
			return fmt.Errorf("%w: NVFP4 tensor scale %g", ErrValue, q.TensorScale)
		}
		return nil
	}
	for b, s := range q.Scales {
		if !(s > 0) || math.IsInf(float64(s), 0) {
			return fmt.Errorf("%w: scale %d is %g (must be positive and finite)", ErrValue, b, s)
		}
	}
	return nil
}

// BlockDecodeScale returns the factor that turns the decoded codes of block
// b back into input units: 1/Scales[b] for float32 scales (Dequantize
// divides by Scales[b]), 2^k for MX, E4M3FN⁻¹(code)·TensorScale for NVFP4.
// It returns 0 for an NVFP4 block whose scale rounded to zero, and NaN for
// a block index out of range.
func (q *Quantized) BlockDecodeScale(b int) float64 {
	if q == nil || b < 0 || b >= len(q.Scales) {
		return math.NaN()
	}
	switch q.Granularity.Scales() {
	case ScaleE8M0:
		if b < len(q.ScaleCodes) {
			k, err := fp8.E8M0Exponent(q.ScaleCodes[b])
			if err == nil {
				return math.Ldexp(1, k)
			}
		}
		return math.NaN()
	case ScaleE4M3:
		if b < len(q.ScaleCodes) {
			return float64(fp8.E4M3FN.Decode32(q.ScaleCodes[b]) * q.TensorScale)
		}
		return math.NaN()
	}
	return 1 / float64(q.Scales[b])
}
