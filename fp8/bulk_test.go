package fp8

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/stretchr/testify/require"
)

// edgeFloat64s returns values where encoders go wrong: every code's value,
// the midpoints between neighbours and their float64 and float32
// neighbours, both zeros, the subnormal boundaries, ±Inf, NaN, values
// past Max and the double-rounding case of DESIGN.md §3.
func edgeFloat64s(f *Format) []float64 {
	xs := []float64{0, math.Inf(1), math.NaN(), math.MaxFloat64, math.SmallestNonzeroFloat64,
		math.MaxFloat32, math.SmallestNonzeroFloat32, 0x1p-126, 0x1p-127, -431.99999999999994, 431.99999999999994}
	mags := f.magnitudes()
	for i, v := range mags {
		xs = append(xs, v, math.Nextafter(v, 0), math.Nextafter(v, math.Inf(1)), v*4, v/4)
		if i+1 < len(mags) {
			mid := (v + mags[i+1]) / 2
			xs = append(xs, mid, math.Nextafter(mid, 0), math.Nextafter(mid, math.Inf(1)),
				float64(math.Nextafter32(float32(mid), 0)), float64(math.Nextafter32(float32(mid), float32(math.Inf(1)))))
		}
	}
	top := mags[len(mags)-1]
	for _, k := range []float64{1.03125, 1.0625, 1.1, 1.125, 1.126, 1.2, 2, 1e3, 1e30} {
		xs = append(xs, top*k)
	}
	for _, x := range append([]float64(nil), xs...) {
		xs = append(xs, -x)
	}
	return xs
}

// fastFormats are the presets the kernels serve.
func fastFormats() []*Format {
	var fs []*Format
	for _, f := range Presets() {
		if f.fast.ok {
			fs = append(fs, f)
		}
	}
	return fs
}

var bulkModes = func() []Mode {
	var ms []Mode
	for _, o := range []Overflow{Saturate, SaturateKeepInf, NoSaturate} {
		for _, r := range []Rounding{NearestEven, TowardZero, AwayFromZero} {
			ms = append(ms, Mode{Round: r, Overflow: o})
		}
		for _, bits := range []int{1, 3, 8, 16, 20, 21, 24, 32} {
			ms = append(ms, Mode{Round: Stochastic, Overflow: o, RandomBits: bits})
		}
		ms = append(ms, Mode{Round: Stochastic, Overflow: o, RandomBits: 8, SRRule: StochasticNearest})
	}
	return ms
}()

// checkAgainstCore encodes xs (float64) and, where exact, their float32
// conversions with the slice encoders in mode m and compares every code with
// the core's; when the slice encoder fails, the core must fail on the
// element it names.
func checkAgainstCore(t *testing.T, f *Format, m Mode, xs []float64, random []uint32) {
	t.Helper()
	x32 := make([]float32, len(xs))
	for i, x := range xs {
		x32[i] = float32(x)
	}
	dst := make([]uint8, len(xs))
	check := func(kind string, err error, input func(i int) float64) {
		t.Helper()
		if err != nil {
			ok := false
			for i := range xs {
				if _, _, e := f.encode(input(i), m, random[i]); e != nil {
					ok = true
					break
				}
			}
			require.True(t, ok, "%s %s %+v: slice encoder failed (%v) but the core does not", f, kind, m, err)
			return
		}
		for i := range xs {
			want, _, e := f.encode(input(i), m, random[i])
			require.NoError(t, e)
			if want != dst[i] {
				require.Failf(t, "mismatch", "%s %s %+v: x=%v (%#x) rnd=%#x gave %#x, core %#x",
					f, kind, m, input(i), math.Float64bits(input(i)), random[i], dst[i], want)
			}
		}
	}
	if m.Round == Stochastic {
		check("float32", f.EncodeSliceStochastic32(dst, x32, random, m), func(i int) float64 { return float64(x32[i]) })
		return
	}
	check("float32", f.EncodeSlice32(dst, x32, m), func(i int) float64 { return float64(x32[i]) })
	check("float64", f.EncodeSlice(dst, xs, m), func(i int) float64 { return xs[i] })
}

// TestBulkKernelsMatchCore compares every kernel (nearest, toward zero,
// stochastic, float32 and float64 inputs) with the core encoder, for every
// preset and overflow policy, on edge values and random bit patterns.
func TestBulkKernelsMatchCore(t *testing.T) {
	n := 200000
	if testing.Short() {
		n = 20000
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for _, f := range fastFormats() {
		xs := edgeFloat64s(f)
		for i := 0; i < n; i++ {
			switch i % 3 {
			case 0: // any float64
				xs = append(xs, math.Float64frombits(rng.Uint64()))
			case 1: // any float32, widened
				xs = append(xs, float64(math.Float32frombits(rng.Uint32())))
			default: // near the format's range, with float64 precision
				xs = append(xs, math.Ldexp(rng.Float64()+0.5, rng.IntN(40)-24)*float64(1-2*rng.IntN(2)))
			}
		}
		random := make([]uint32, len(xs))
		for i := range random {
			random[i] = rng.Uint32()
			if i%7 == 0 {
				random[i] = ^uint32(0) >> rng.IntN(32) // all-ones tails round up when anything does
			}
		}
		for _, m := range bulkModes {
			t.Run(fmt.Sprintf("%s/%s/%s/%d/%d", f, m.Round, m.Overflow, m.RandomBits, m.SRRule), func(t *testing.T) {
				checkAgainstCore(t, f, m, xs, random)
			})
		}
	}
}

// TestExhaustiveBulkModes runs the toward-zero, non-saturating and
// stochastic kernels over float32 bit patterns for E4M3FN and E5M2 against
// the core, in chunks of 2^20 consecutive patterns: every 3rd chunk in long
// mode (FP8LAB_LONG=1; an odd stride, so every value of the bits above the
// chunk is met, and the core costs ~20 ns a value), every 257th otherwise.
// TestExhaustiveFloat32 covers nearest-even on all 2^32.
func TestExhaustiveBulkModes(t *testing.T) {
	step := 257
	if testenv.Long() {
		step = 3
	}
	modes := []Mode{{Round: TowardZero}, {Round: NearestEven, Overflow: NoSaturate},
		{Round: Stochastic, RandomBits: 32}, {Round: Stochastic, RandomBits: 8, Overflow: NoSaturate}}
	for _, f := range []*Format{E4M3FN, E5M2} {
		for _, m := range modes {
			failure := eachFloat32Chunk(step, func() func(int, []float32) string {
				random := make([]uint32, 1<<chunkBits)
				dst := make([]uint8, 1<<chunkBits)
				return func(_ int, src []float32) string {
					for i, x := range src {
						random[i] = math.Float32bits(x) * 0x9E3779B9
					}
					var err error
					if m.Round == Stochastic {
						_, err = f.encodeStochastic32(dst, src, random, m)
					} else {
						_, err = f.encodeFast32(dst, src, m)
					}
					for i, x := range src {
						want, _, e := f.encode(float64(x), m, random[i])
						if e != nil || err != nil || want != dst[i] {
							return fmt.Sprintf("%s %+v: x=%v (%#x) rnd=%#x gave %#x, core %#x (%v, %v)",
								f, m, x, math.Float32bits(x), random[i], dst[i], want, err, e)
						}
					}
					return ""
				}
			})
			require.Empty(t, failure)
		}
	}
}

// TestPresetKernelConstants checks the constants compiled into the E4M3FN
// and E5M2 kernels against those newFast32 derives from the specs.
func TestPresetKernelConstants(t *testing.T) {
	for _, c := range []struct {
		f                                        *Format
		kind                                     uint8
		drop, bias, minNormal, magicBits, maxMag uint32
		subK                                     uint32
		magic, subScale                          float32
	}{
		{E4M3FN, kindE4M3FN, dropE4M3FN, biasE4M3FN, minNormalE4M3FN, magicBitsE4M3FN, maxMagE4M3FN, subKE4M3FN, magicE4M3FN, subScaleE4M3FN},
		{E5M2, kindE5M2, dropE5M2, biasE5M2, minNormalE5M2, magicBitsE5M2, maxMagE5M2, subKE5M2, magicE5M2, subScaleE5M2},
	} {
		fc := c.f.fast
		require.Equal(t, c.kind, fc.kind, "%s", c.f)
		require.Equal(t, []uint32{fc.drop, fc.bias, fc.minNormal, fc.magicBits, fc.maxMag, fc.subK},
			[]uint32{c.drop, c.bias, c.minNormal, c.magicBits, c.maxMag, c.subK}, "%s", c.f)
		require.Equal(t, []float32{fc.magic, fc.subScale}, []float32{c.magic, c.subScale}, "%s", c.f)
		ovf, ok := fc.overflowMag(Mode{Overflow: NoSaturate})
		require.True(t, ok)
		require.Equal(t, fc.maxMag+1, ovf, "%s: the kernels clamp with min(mag, ovf)", c.f)
	}
}

// fp8's own AVX2 check agrees with golang.org/x/sys/cpu's (which scaling
// uses; fp8 itself may import only the standard library).
func TestHasAVX2MatchesSysCPU(t *testing.T) {
	require.Equal(t, sysCPUHasAVX2, haveAVX2)
}

// The vector multiply gives the Go loop's float32 products bit for bit:
// subnormal inputs and products (no flush to zero), overflow to ±Inf, NaN
// inputs, every block length that is a multiple of 8 up to 64.
func TestMulBlocksVec(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2: mulBlocksVec is mulBlocksGo")
	}
	rng := rand.New(rand.NewPCG(14, 8))
	src := make([]float32, 4096)
	for i := range src {
		src[i] = math.Float32frombits(rng.Uint32())
	}
	for _, bc := range []int{8, 16, 24, 32, 64} {
		scales := make([]float32, len(src)/bc)
		for b := range scales {
			scales[b] = []float32{1, 0x1p-100, 0x1p100, 3, 1e-30, 7.5e5, -2}[b%7]
		}
		src := src[:len(scales)*bc]
		want, got := make([]float32, len(src)), make([]float32, len(src))
		mulBlocksGo(want, src, scales, bc)
		mulBlocksVec(got, src, scales, bc)
		for i := range want {
			w, g := math.Float32bits(want[i]), math.Float32bits(got[i])
			if want[i] != want[i] { // NaN: any payload encodes to the format's NaN
				require.True(t, got[i] != got[i], "bc=%d i=%d: %#x·%g", bc, i, math.Float32bits(src[i]), scales[i/bc])
				continue
			}
			require.Equal(t, w, g, "bc=%d i=%d: %#x·%g", bc, i, math.Float32bits(src[i]), scales[i/bc])
		}
	}
}

// TestEncodeScaledSlice32 compares EncodeScaledSlice32 with the slice
// encoder without a lookup table (EncodeSlice32's arithmetic kernels or the
// core) on the float32 products, for every preset, rounding other than
// stochastic and overflow policy, on edge values and random patterns, long
// enough to use the tables, with scales that push values past Max and into
// the subnormals.
func TestEncodeScaledSlice32(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, f := range Presets() {
		var xs []float32
		for _, x := range edgeFloat64s(f) {
			xs = append(xs, float32(x))
		}
		for i := 0; i < tableMinLen/2; i++ { // long enough for the lookup tables
			xs = append(xs, math.Float32frombits(rng.Uint32()), float32(rng.NormFloat64()*50))
		}
		for _, blockLen := range []int{1, 7, 8, 16, 32, 40, 128, 256, 264, 1023, 1024, 5000, len(xs)} {
			scales := make([]float32, (len(xs)+blockLen-1)/blockLen)
			for b := range scales {
				scales[b] = []float32{1, 0.5, 3, 1e-3, 7.5e5, 0x1p-20}[b%6]
			}
			prod := make([]float32, len(xs))
			for j, x := range xs {
				prod[j] = x * scales[j/blockLen]
			}
			for _, o := range []Overflow{Saturate, SaturateKeepInf, NoSaturate} {
				for _, r := range []Rounding{NearestEven, TowardZero, AwayFromZero} {
					m := Mode{Round: r, Overflow: o}
					want, got := make([]uint8, len(xs)), make([]uint8, len(xs))
					_, errWant := f.encodeSlice32Serial(want, prod, m) // no table
					errGot := f.EncodeScaledSlice32(got, xs, scales, blockLen, m)
					require.Equal(t, errWant == nil, errGot == nil, "%s %+v block %d: %v vs %v", f, m, blockLen, errWant, errGot)
					if errWant == nil {
						require.Equal(t, want, got, "%s %+v block %d", f, m, blockLen)
					}
				}
			}
		}
	}
}
