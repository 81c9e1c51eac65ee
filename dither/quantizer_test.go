package dither

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/rng"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomGray returns a w×h image of uniform random pixels in [0, 1].
func randomGray(t *testing.T, w, h int, seed uint64) *Gray {
	prng := rand.New(rand.NewPCG(seed, 1))
	pix := make([]float32, w*h)
	for i := range pix {
		pix[i] = prng.Float32()
	}
	pix[0], pix[1] = 0, 1
	g, err := GrayFromPixels(w, h, pix)
	require.NoError(t, err)
	return g
}

func TestNewQuantizerValidates(t *testing.T) {
	bad := []Options{
		{},                                 // neither levels nor format
		{Levels: 1},                        // too few levels
		{Levels: MaxLevels + 1},            // too many
		{Levels: 4, Format: fp8.E4M3FN},    // both
		{Levels: 4, Frames: -1},            // frames
		{Levels: 4, Frames: MaxFrames + 1}, // frames
		{Levels: 4, RandomBits: 33},        // bits
		{Levels: 4, RandomBits: -1},        // bits
		{Levels: 4, Method: Method(42)},    // method
		{Format: fp8.E8M0},                 // no zero
		{Format: fp8.E4M3FN, Scale: -1},    // scale
		{Format: fp8.E4M3FN, Scale: math.NaN()},
		{Format: fp8.E4M3FN, Scale: math.Inf(1)},
		{Format: fp8.E4M3FN, Scale: 1e300},  // overflows float32
		{Format: fp8.E4M3FN, Scale: 1e-300}, // underflows float32
	}
	for _, o := range bad {
		_, err := NewQuantizer(o)
		assert.Error(t, err, "%+v", o)
		_, err = Dither(randomGray(t, 2, 2, 1), o)
		assert.Error(t, err, "%+v", o)
	}
	q, err := NewQuantizer(Options{Format: fp8.E2M1})
	require.NoError(t, err)
	o := q.Options()
	assert.Equal(t, 1, o.Frames)
	assert.Equal(t, rng.DefaultRandomBits, o.RandomBits)
	assert.Equal(t, 6.0, o.Scale)
	assert.Equal(t, []float32{0, 1.0 / 12, 1.0 / 6, 0.25, 1.0 / 3, 0.5, 2.0 / 3, 1}, q.Levels())

	q, err = NewQuantizer(Options{Levels: 5})
	require.NoError(t, err)
	assert.Equal(t, []float32{0, 0.25, 0.5, 0.75, 1}, q.Levels())

	// Scale 1 puts [0, 1] inside E4M3FN's range: the levels stop at 1.
	q, err = NewQuantizer(Options{Format: fp8.E4M3FN, Scale: 1})
	require.NoError(t, err)
	lv := q.Levels()
	assert.Equal(t, float32(1), lv[len(lv)-1])
	assert.Equal(t, float32(0x1p-9), lv[1])
	assert.Len(t, lv, 57, "zero, 7 subnormals, 6 binades of 8 values and 1")
}

func TestDitherRejectsBadImages(t *testing.T) {
	_, err := Dither(nil, Options{Levels: 2})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	g := randomGray(t, 3, 3, 1)
	g.Pix()[4] = float32(math.NaN())
	_, err = Dither(g, Options{Levels: 2})
	assert.ErrorIs(t, err, ErrNaN)
	g.Pix()[4] = float32(math.Inf(-1))
	_, err = Dither(g, Options{Levels: 2})
	assert.ErrorIs(t, err, ErrNaN)

	q, err := NewQuantizer(Options{Levels: 2})
	require.NoError(t, err)
	src := randomGray(t, 3, 3, 1)
	assert.ErrorIs(t, q.Frame(nil, src, 0), ErrInvalidArgument)
	small, _ := NewGray(2, 3)
	assert.ErrorIs(t, q.Frame(small, src, 0), ErrInvalidArgument)
	assert.ErrorIs(t, q.Frame(src.Clone(), nil, 0), ErrInvalidArgument)
}

func TestNearestPicksClosestLevel(t *testing.T) {
	img := randomGray(t, 37, 23, 2)
	for _, o := range []Options{{Levels: 2}, {Levels: 7}, {Levels: 256}, {Format: fp8.E2M1}, {Format: fp8.E4M3FN}, {Format: fp8.E5M2, Scale: 3}} {
		q, err := NewQuantizer(o)
		require.NoError(t, err)
		out, err := q.Dither(img)
		require.NoError(t, err)
		levels := q.Levels()
		for i, v := range img.Pix() {
			got := out.Pix()[i]
			require.True(t, slices.Contains(levels, got), "%+v: %g is not a level", o, got)
			best := float32(math.Inf(1))
			for _, l := range levels {
				best = min(best, float32(math.Abs(float64(l-v))))
			}
			require.InDelta(t, best, math.Abs(float64(got-v)), 1e-6, "%+v pixel %g -> %g", o, v, got)
		}
	}
}

func TestFormatNearestIsTheCodec(t *testing.T) {
	img := randomGray(t, 50, 10, 3)
	f := fp8.E4M3FN
	out, err := Dither(img, Options{Format: f, Method: Nearest})
	require.NoError(t, err)
	for i, v := range img.Pix() {
		c, err := f.Encode(float64(v*float32(f.Max())), fp8.Mode{})
		require.NoError(t, err)
		require.Equal(t, float32(f.Decode(c)/f.Max()), out.Pix()[i])
	}
}

// TestStochasticFrameLayout checks the documented random-bit layout: pixel
// (x, y) of frame f uses Bits(Seed, f, y·width + x), on uniform levels
// (index floor(v·(k-1) + u·2^-r)) and through the codec on a Format.
func TestStochasticFrameLayout(t *testing.T) {
	const w, h = 13, 7
	img := randomGray(t, w, h, 4)
	const seed, r = 99, 10
	q, err := NewQuantizer(Options{Method: Stochastic, Levels: 5, Seed: seed, RandomBits: r})
	require.NoError(t, err)
	fq, err := NewQuantizer(Options{Method: Stochastic, Format: fp8.E5M2, Seed: seed, RandomBits: r})
	require.NoError(t, err)
	out, _ := NewGray(w, h)
	fout, _ := NewGray(w, h)
	mode := fp8.Mode{Round: fp8.Stochastic, RandomBits: r}
	for _, frame := range []uint64{0, 1, 1000} {
		require.NoError(t, q.Frame(out, img, frame))
		require.NoError(t, fq.Frame(fout, img, frame))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				v := img.At(x, y)
				bits := rng.Bits(seed, frame, uint64(y*w+x))
				u := float64(bits&(1<<r-1)) / (1 << r)
				idx := min(int(math.Floor(float64(v)*4+u)), 4)
				require.Equal(t, float32(float64(idx)/4), out.At(x, y), "frame %d (%d, %d)", frame, x, y)
				c, err := fp8.E5M2.EncodeStochastic(float64(v*57344), bits, mode)
				require.NoError(t, err)
				require.Equal(t, float32(fp8.E5M2.Decode(c)/57344), fout.At(x, y))
			}
		}
	}
}

func TestDitherFramesAverage(t *testing.T) {
	img := randomGray(t, 20, 20, 5)
	opts := Options{Method: Stochastic, Levels: 3, Frames: 6, Seed: 8}
	avg, err := Dither(img, opts)
	require.NoError(t, err)
	q, err := NewQuantizer(opts)
	require.NoError(t, err)
	sum := make([]float64, 400)
	frame, _ := NewGray(20, 20)
	for f := uint64(0); f < 6; f++ {
		require.NoError(t, q.Frame(frame, img, f))
		for i, v := range frame.Pix() {
			sum[i] += float64(v)
		}
	}
	for i, s := range sum {
		require.Equal(t, float32(s/6), avg.Pix()[i])
	}
	// Deterministic methods: frames are equal, so the average is one frame.
	one, err := Dither(img, Options{Method: Bayer4, Levels: 3})
	require.NoError(t, err)
	many, err := Dither(img, Options{Method: Bayer4, Levels: 3, Frames: 9})
	require.NoError(t, err)
	assert.Equal(t, one.Pix(), many.Pix())
}

func TestBayerTileCounts(t *testing.T) {
	// On a flat image, each n×n tile turns on exactly the pixels whose
	// threshold (M+1/2)/n² is at least 1 - v.
	for _, c := range []struct {
		m    Method
		n    int
		v    float32
		want int
	}{{Bayer2, 2, 0.3, 1}, {Bayer4, 4, 0.3, 5}, {Bayer8, 8, 0.3, 19}, {Bayer8, 8, 0.5, 32}, {Bayer4, 4, 0, 0}, {Bayer4, 4, 1, 16}} {
		pix := make([]float32, 16*16)
		for i := range pix {
			pix[i] = c.v
		}
		img, err := GrayFromPixels(16, 16, pix)
		require.NoError(t, err)
		for _, o := range []Options{{Method: c.m, Levels: 2}, {Method: c.m, Format: fp8.E2M1, Scale: 1}} {
			out, err := Dither(img, o)
			require.NoError(t, err)
			for ty := 0; ty < 16; ty += c.n {
				for tx := 0; tx < 16; tx += c.n {
					on := 0
					for y := ty; y < ty+c.n; y++ {
						for x := tx; x < tx+c.n; x++ {
							if out.At(x, y) > 0.75 {
								on++
							}
						}
					}
					if o.Format != nil { // E2M1/1 levels around 0.3: 0 and 0.5; 0.3 is 0.6 of the way
						continue
					}
					require.Equal(t, c.want, on, "%v v=%g tile (%d, %d)", c.m, c.v, tx, ty)
				}
			}
		}
	}
}

// blockMeans returns the mean of every b×b block of g.
func blockMeans(g *Gray, b int) []float64 {
	var out []float64
	for by := 0; by+b <= g.Height(); by += b {
		for bx := 0; bx+b <= g.Width(); bx += b {
			var s float64
			for y := by; y < by+b; y++ {
				for x := bx; x < bx+b; x++ {
					s += float64(g.At(x, y))
				}
			}
			out = append(out, s/float64(b*b))
		}
	}
	return out
}

// TestDitheringPreservesRegionMeans checks, on the mystery image at 2
// levels, that every 16×16 block keeps its mean brightness under the
// dithering methods while nearest rounding does not.
//
// Tolerances: stochastic rounding of pixel v gives 1 with probability v, so
// a block mean has standard deviation sqrt(Σ v(1-v))/256 and the check is 5
// of those. Ordered dithering with an n×n matrix can only show n²+1 tile
// densities, so a tile's mean is off by up to 1/(2n²), plus 0.03 for the
// variation of the image inside a tile. Error diffusion carries about a
// level of error across a block border, 2/16 of a block's mean at worst in
// theory and far less in practice: 0.06.
func TestDitheringPreservesRegionMeans(t *testing.T) {
	img, err := Mystery(128, 128)
	require.NoError(t, err)
	orig := blockMeans(img, 16)
	var varSum []float64
	for by := 0; by < 128; by += 16 {
		for bx := 0; bx < 128; bx += 16 {
			var s float64
			for y := by; y < by+16; y++ {
				for x := bx; x < bx+16; x++ {
					v := float64(img.At(x, y))
					s += v * (1 - v)
				}
			}
			varSum = append(varSum, s)
		}
	}
	for _, m := range Methods() {
		out, err := Dither(img, Options{Method: m, Levels: 2, Seed: 12})
		require.NoError(t, err)
		got := blockMeans(out, 16)
		worst := 0.0
		for i := range got {
			tol := 0.06
			switch n := m.bayerSize(); {
			case m == Stochastic:
				tol = 5 * math.Sqrt(varSum[i]) / 256
			case n > 0:
				tol = 0.5/float64(n*n) + 0.03
			}
			d := math.Abs(got[i] - orig[i])
			worst = max(worst, d)
			if m != Nearest {
				assert.LessOrEqual(t, d, tol, "%v block %d: mean %.3f, original %.3f", m, i, got[i], orig[i])
			}
		}
		if m == Nearest {
			assert.Greater(t, worst, 0.3, "nearest rounding loses the regions' brightness")
		}
	}
}

func TestFloydKeepsFlatMean(t *testing.T) {
	for _, v := range []float32{0.1, 0.37, 0.5, 0.93} {
		pix := make([]float32, 64*64)
		for i := range pix {
			pix[i] = v
		}
		img, err := GrayFromPixels(64, 64, pix)
		require.NoError(t, err)
		for _, o := range []Options{{Method: FloydSteinberg, Levels: 2}, {Method: FloydSteinberg, Format: fp8.E2M1}, {Method: FloydSteinberg, Format: fp8.E2M1, Scale: 5}} {
			out, err := Dither(img, o)
			require.NoError(t, err)
			var s float64
			for _, p := range out.Pix() {
				s += float64(p)
			}
			// The error left over at the bottom row is at most a level per column.
			assert.InDelta(t, v, s/4096, 64.0/4096, "%+v v=%g", o, v)
		}
	}
}

// TestBracketAgreesWithSearch compares the bucket-table bracket with a
// plain search over the levels, for many values and several grids.
func TestBracketAgreesWithSearch(t *testing.T) {
	prng := rand.New(rand.NewPCG(3, 4))
	for _, o := range []Options{{Levels: 2}, {Levels: 3}, {Levels: 255}, {Levels: 1000}, {Format: fp8.E4M3FN}, {Format: fp8.E5M2}, {Format: fp8.E3M4, Scale: 1}, {Format: fp8.E2M1, Scale: 5}, {Format: fp8.E5M2, Scale: 1e-3}} {
		q, err := NewQuantizer(o)
		require.NoError(t, err)
		levels := q.Levels()
		top := levels[len(levels)-1]
		values := append([]float32{}, levels...)
		for i := 0; i < 20000; i++ {
			values = append(values, prng.Float32()*top, float32(math.Exp2(-30*prng.Float64()))*top)
		}
		for _, v := range values {
			lo, hi := q.bracket(v)
			i := sort.Search(len(levels), func(i int) bool { return levels[i] > v }) - 1
			wantLo, wantHi := levels[i], levels[i]
			if levels[i] != v && i+1 < len(levels) {
				wantHi = levels[i+1]
			}
			require.Equal(t, [2]float32{wantLo, wantHi}, [2]float32{lo, hi}, "%+v v=%g", o, v)
			n := q.nearestLevel(v)
			require.True(t, n == lo || n == hi)
			require.LessOrEqual(t, math.Abs(float64(n-v)), math.Abs(float64(hi-lo))/2+1e-7)
		}
	}
}

func TestPixelsOutsideRangeAreClamped(t *testing.T) {
	img, err := GrayFromPixels(4, 1, []float32{-0.5, 1.5, -3, 7})
	require.NoError(t, err)
	for _, m := range Methods() {
		for _, o := range []Options{{Method: m, Levels: 4}, {Method: m, Format: fp8.E4M3FN}} {
			out, err := Dither(img, o)
			require.NoError(t, err)
			assert.Equal(t, []float32{0, 1, 0, 1}, out.Pix(), "%v %+v", m, o)
		}
	}
}
