package dither

import (
	"fmt"
	"math"
	"slices"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/rng"
)

// MaxFrames bounds the number of frames averaged in one call.
const MaxFrames = 1 << 16

// Options configures the quantization of an image: onto k uniform levels
// or onto the grid of an FP format, by one Method, averaging one or more
// frames. Exactly one of Levels and Format must be set.
type Options struct {
	// Method is how pixels are rounded: Nearest (the zero value), Stochastic,
	// Bayer2/4/8 or FloydSteinberg.
	Method Method

	// Levels k (2..MaxLevels) quantizes onto the uniform levels
	// 0, 1/(k-1), 2/(k-1), ..., 1.
	Levels int

	// Format quantizes onto a minifloat's grid instead: pixel v in [0, 1] is
	// mapped to v·Scale (in float32), encoded, decoded, and divided by Scale,
	// so the levels are {x/Scale : x a non-negative value of Format}. Near
	// black the levels are dense and near white sparse: the format's
	// logarithmic spacing made visible. Formats without zero (E8M0) are refused.
	Format *fp8.Format
	// Scale is the factor of the Format mapping; 0 means Format.Max(), which
	// maps white to the largest finite value. It must be positive and finite.
	Scale float64

	// Frames is the number of frames averaged by Dither (0 means 1). Frames
	// of the Stochastic method differ (frame f draws its bits from stream f);
	// the other methods give the same frame every time.
	Frames int
	// Seed keys the random bits of the Stochastic method: pixel (x, y) of
	// frame f uses rng.Bits(Seed, f, y·width + x).
	Seed uint64
	// RandomBits r (1..32) of each word are used; 0 means rng.DefaultRandomBits.
	RandomBits int
}

// Quantizer is a validated Options with its precomputed levels. It is
// immutable and safe for concurrent use; make one with NewQuantizer and use
// it for many frames.
type Quantizer struct {
	opts     Options
	levels   []float32    // the output values, ascending
	uniform  bool         // levels are i/(k-1)
	km1      float64      // k - 1 for uniform levels
	scale    float32      // Format mapping factor
	decode   [256]float32 // code -> level, for Format
	bucket   []uint8      // Format grid: bucket[bits(v)>>bucketShift] = a level index <= v's
	gapInv   []float32    // Format grid: 1/(levels[i+1] - levels[i]); 0 for the last level
	thresh   []float64    // Bayer thresholds (M + 1/2)/n², n×n, or nil
	threshUp []float32    // 1 - thresh: a pixel goes up when its position reaches it
	bayerN   int
}

// NewQuantizer validates opts, fills in the defaults (Frames 1, RandomBits
// rng.DefaultRandomBits, Scale Format.Max()) and precomputes the levels.
func NewQuantizer(opts Options) (*Quantizer, error) {
	if !opts.Method.Valid() {
		return nil, fmt.Errorf("%w: %v", ErrUnknownMethod, opts.Method)
	}
	if opts.Frames == 0 {
		opts.Frames = 1
	}
	if opts.Frames < 1 || opts.Frames > MaxFrames {
		return nil, fmt.Errorf("%w: frames must be in 1..%d, got %d", ErrInvalidArgument, MaxFrames, opts.Frames)
	}
	if opts.RandomBits == 0 {
		opts.RandomBits = rng.DefaultRandomBits
	}
	if err := checkRandomBits(opts.RandomBits); err != nil {
		return nil, err
	}
	q := &Quantizer{}
	switch {
	case opts.Format != nil && opts.Levels != 0:
		return nil, fmt.Errorf("%w: set either Levels or Format, not both", ErrInvalidArgument)
	case opts.Format != nil:
		if err := q.initFormat(&opts); err != nil {
			return nil, err
		}
	case opts.Levels != 0:
		if err := checkLevels(opts.Levels); err != nil {
			return nil, err
		}
		q.uniform = true
		q.km1 = float64(opts.Levels - 1)
		q.levels = make([]float32, opts.Levels)
		for i := range q.levels {
			q.levels[i] = float32(float64(i) / q.km1)
		}
	default:
		return nil, fmt.Errorf("%w: set Levels (2..%d) or Format", ErrInvalidArgument, MaxLevels)
	}
	if n := opts.Method.bayerSize(); n > 0 {
		m, err := BayerMatrix(n)
		if err != nil {
			return nil, err
		}
		q.bayerN = n
		q.thresh = make([]float64, len(m))
		q.threshUp = make([]float32, len(m))
		for i, v := range m {
			q.thresh[i] = (float64(v) + 0.5) / float64(n*n)
			q.threshUp[i] = float32(1 - q.thresh[i])
		}
	}
	q.opts = opts
	return q, nil
}

// initFormat validates the Format options and builds the levels.
func (q *Quantizer) initFormat(opts *Options) error {
	f := opts.Format
	if f.Spec().Specials == fp8.ExponentOnly {
		return fmt.Errorf("%w: %s has no zero, so it cannot hold black", ErrInvalidArgument, f.Name())
	}
	if opts.Scale == 0 {
		opts.Scale = f.Max()
	}
	s32 := float32(opts.Scale)
	if !(opts.Scale > 0) || math.IsInf(float64(s32), 0) || s32 == 0 {
		return fmt.Errorf("%w: scale must be positive and fit a float32, got %g", ErrInvalidArgument, opts.Scale)
	}
	q.scale = s32
	for c := range q.decode {
		q.decode[c] = float32(float64(f.Decode32(uint8(c))) / opts.Scale)
	}
	q.levels = []float32{0}
	for _, v := range f.PositiveFinite() {
		l := float32(v / opts.Scale)
		if l > q.levels[len(q.levels)-1] {
			q.levels = append(q.levels, l)
		}
		if l >= 1 {
			break // the first level at or above white closes the grid
		}
	}
	if len(q.levels) < 2 {
		return fmt.Errorf("%w: scale %g leaves %s a single level", ErrInvalidArgument, opts.Scale, f.Name())
	}
	q.buildBuckets()
	q.gapInv = make([]float32, len(q.levels))
	for i := 0; i+1 < len(q.levels); i++ {
		q.gapInv[i] = 1 / (q.levels[i+1] - q.levels[i])
	}
	return nil
}

// bucketShift selects the float32 bits that index the bucket table: the
// exponent and the top 7 mantissa bits, so that a bucket spans at most 1/128
// of a binade and holds at most two levels of any format with up to 7
// mantissa bits (and any scale).
const bucketShift = 16

// buildBuckets fills the table that finds the level below a pixel value
// without a binary search: bucket b holds the index of the largest level
// not above the smallest float32 of the bucket, for every b up to the
// highest level (at least 1).
func (q *Quantizer) buildBuckets() {
	n := math.Float32bits(q.levels[len(q.levels)-1])>>bucketShift + 1
	q.bucket = make([]uint8, n)
	i := 0
	for b := range q.bucket {
		lowest := math.Float32frombits(uint32(b) << bucketShift)
		for i+1 < len(q.levels) && q.levels[i+1] <= lowest {
			i++
		}
		q.bucket[b] = uint8(i)
	}
}

// check reports a nil or zero-value Quantizer, which has no levels.
func (q *Quantizer) check() error {
	if q == nil || len(q.levels) == 0 {
		return fmt.Errorf("%w: Quantizer not made by NewQuantizer", ErrInvalidArgument)
	}
	return nil
}

// Options returns the options with their defaults filled in.
func (q *Quantizer) Options() Options {
	if q == nil {
		return Options{}
	}
	return q.opts
}

// Levels returns the values a pixel can take in one frame, ascending.
func (q *Quantizer) Levels() []float32 {
	if q == nil {
		return nil
	}
	return slices.Clone(q.levels)
}

// Dither quantizes img with opts; see Quantizer.Dither.
func Dither(img *Gray, opts Options) (*Gray, error) {
	q, err := NewQuantizer(opts)
	if err != nil {
		return nil, err
	}
	return q.Dither(img)
}

// Dither returns the quantized image: one frame, or with Frames = N > 1 and
// the Stochastic method the pixel-wise mean of frames 0..N-1, which
// converges to the original image as N grows. Other methods are
// deterministic: their frames are all equal, so their mean is one frame.
// Pixels are clamped to [0, 1]; a NaN or infinite pixel is an error.
func (q *Quantizer) Dither(img *Gray) (*Gray, error) {
	if err := q.check(); err != nil {
		return nil, err
	}
	if err := img.Check(); err != nil {
		return nil, err
	}
	out := &Gray{width: img.width, height: img.height, pix: make([]float32, len(img.pix))}
	frames := q.opts.Frames
	if !q.opts.Method.UsesRandomBits() || frames == 1 {
		q.frame(out.pix, img.pix, img.width, 0)
		return out, nil
	}
	sum := make([]float64, len(img.pix))
	for f := 0; f < frames; f++ {
		q.frame(out.pix, img.pix, img.width, uint64(f))
		for i, v := range out.pix {
			sum[i] += float64(v)
		}
	}
	for i, s := range sum {
		out.pix[i] = float32(s / float64(frames))
	}
	return out, nil
}

// Frame quantizes src into dst (same size) as frame number frame: for the
// Stochastic method frame f draws its bits from stream f; other methods
// ignore it. It is the per-frame step of an animation and allocates only
// row buffers. Options.Frames is not used.
func (q *Quantizer) Frame(dst, src *Gray, frame uint64) error {
	if err := q.check(); err != nil {
		return err
	}
	if err := src.Check(); err != nil {
		return err
	}
	if dst.checkShape() != nil || dst.width != src.width || dst.height != src.height {
		return fmt.Errorf("%w: dst must be a %dx%d image", ErrInvalidArgument, src.width, src.height)
	}
	q.frame(dst.pix, src.pix, src.width, frame)
	return nil
}

// clamp01 clamps v to [0, 1].
func clamp01(v float32) float32 {
	if v < 0 {
		return 0
	}
	if v > 1 {
		return 1
	}
	return v
}
