package fp8

import (
	"fmt"
	"math"
	"testing"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/stretchr/testify/require"
)

// compareE2M1Kernels runs nearestE2M1 and nearestAny32 over src block by
// block, as runKernel32 does, and returns a description of the first
// difference in a code or in a block's special flag, or "".
func compareE2M1Kernels(src []float32) string {
	fc := &E2M1.fast
	got, want := make([]uint8, bulkBlock), make([]uint8, bulkBlock)
	for lo := 0; lo < len(src); lo += bulkBlock {
		s := src[lo:min(lo+bulkBlock, len(src))]
		g, w := got[:len(s)], want[:len(s)]
		sg := nearestE2M1(fc, g, s, fc.maxMag)
		sw := nearestAny32(fc, w, s, fc.maxMag)
		if sg>>31 != sw>>31 {
			return fmt.Sprintf("block at %#x: special flag %d, generic %d", math.Float32bits(s[0]), sg>>31, sw>>31)
		}
		for i := range s {
			if g[i] != w[i] {
				return fmt.Sprintf("%v (%#x): %#x, generic kernel %#x", s[i], math.Float32bits(s[i]), g[i], w[i])
			}
		}
	}
	return ""
}

// e2m1EdgeInputs returns the float32s within 64 ulps of every E2M1
// magnitude and of every midpoint between neighbours, of both signs.
func e2m1EdgeInputs() []float32 {
	mags := E2M1.magnitudes()
	points := append([]float64(nil), mags...)
	for i := 1; i < len(mags); i++ {
		points = append(points, (mags[i-1]+mags[i])/2)
	}
	var xs []float32
	for _, p := range points {
		for _, sign := range []uint32{0, 1 << 31} {
			u := math.Float32bits(float32(p)) | sign
			for d := uint32(0); d <= 64; d++ {
				xs = append(xs, math.Float32frombits(u+d))
				if u&0x7FFFFFFF >= d {
					xs = append(xs, math.Float32frombits(u-d))
				}
			}
		}
	}
	return xs
}

func TestE2M1KernelSelected(t *testing.T) {
	require.Equal(t, uint8(kindE2M1), E2M1.fast.kind)
	twin, err := NewFormat(Spec{Name: "fp4", Signed: true, ExpBits: 2, ManBits: 1, Bias: 1, Specials: FiniteOnly})
	require.NoError(t, err)
	require.Equal(t, uint8(kindE2M1), twin.fast.kind, "a format with E2M1's fields shares its kernel")
	for _, f := range Presets() {
		if f != E2M1 {
			require.NotEqual(t, uint8(kindE2M1), f.fast.kind, "%s", f)
		}
	}
	// nearestE2M1 ignores ovf: every overflow policy must saturate.
	for _, o := range []Overflow{Saturate, SaturateKeepInf, NoSaturate} {
		ovf, ok := E2M1.fast.overflowMag(Mode{Overflow: o})
		require.True(t, ok)
		require.Equal(t, E2M1.fast.maxMag, ovf, "overflow %s", o)
	}
}

// TestE2M1Kernel compares the E2M1 table kernel with the generic kernel on
// float32 bit patterns with a stride and on every pattern near a magnitude
// or a midpoint, and the encoder's codes there with the core's.
func TestE2M1Kernel(t *testing.T) {
	edges := e2m1EdgeInputs()
	require.Empty(t, compareE2M1Kernels(edges))
	require.Empty(t, compareE2M1Kernels(float32Inputs(4099, 10000)))
	for _, o := range []Overflow{Saturate, SaturateKeepInf, NoSaturate} {
		m := Mode{Overflow: o}
		dst := make([]uint8, len(edges))
		i, err := E2M1.encodeNearest32(dst, edges, m)
		require.NoError(t, err)
		require.Equal(t, -1, i)
		for i, x := range edges {
			want, _, err := E2M1.encode(float64(x), m, 0)
			require.NoError(t, err)
			require.Equal(t, want, dst[i], "%v (%#x) overflow %s", x, math.Float32bits(x), o)
		}
	}
	// Inf is redone by the core; NaN fails in a block with other values.
	src := []float32{1, float32(math.Inf(1)), -2.5, float32(math.Inf(-1))}
	dst := make([]uint8, len(src))
	i, err := E2M1.encodeNearest32(dst, src, Mode{Overflow: NoSaturate})
	require.NoError(t, err)
	require.Equal(t, -1, i)
	require.Equal(t, []uint8{0x2, 0x7, 0xC, 0xF}, dst)
	src[2] = float32(math.NaN())
	i, err = E2M1.encodeNearest32(dst, src, Mode{})
	require.ErrorIs(t, err, ErrNaN)
	require.Equal(t, 2, i)
}

// TestExhaustiveE2M1Kernel compares the two kernels on all 2^32 float32
// bit patterns (long mode: FP8LAB_LONG=1; otherwise every 257th chunk of
// 2^20), and the table kernel's finite codes with nearestBySearch.
func TestExhaustiveE2M1Kernel(t *testing.T) {
	step := 257
	if testenv.Long() {
		step = 1
	}
	mags := E2M1.magnitudes()
	failure := eachFloat32Chunk(step, func() func(int, []float32) string {
		dst := make([]uint8, 1<<chunkBits)
		return func(_ int, src []float32) string {
			if msg := compareE2M1Kernels(src); msg != "" {
				return msg
			}
			nearestE2M1(&E2M1.fast, dst, src, E2M1.fast.maxMag)
			for i, x := range src {
				if math.Float32bits(x)&0x7FFFFFFF >= 0x7F800000 {
					continue // NaN and Inf: the core's (TestE2M1Kernel)
				}
				if want := nearestBySearch(E2M1, mags, x); want != dst[i] {
					return fmt.Sprintf("%v (%#x): %#x, search %#x", x, math.Float32bits(x), dst[i], want)
				}
			}
			return ""
		}
	})
	require.Empty(t, failure)
}

// nvfp4Input returns n Gaussian values scaled in blocks of 16 so that each
// block's amax maps to 6, E2M1's largest value, as NVFP4 scales them: a
// quarter or so lands below 1, on E2M1's subnormal codes.
func nvfp4Input(n int) []float32 {
	xs := benchInput(n)
	for lo := 0; lo < n; lo += 16 {
		b := xs[lo:min(lo+16, n)]
		var amax float32
		for _, x := range b {
			amax = max(amax, float32(math.Abs(float64(x))))
		}
		for i := range b {
			b[i] *= 6 / amax
		}
	}
	return xs
}

// BenchmarkE2M1Kernel times E2M1's nearest-even encode of 1M values on one
// core, NVFP4-scaled blocks and benchInput's wide activations, with the
// table kernel and with the generic kernel it replaced, in the same loop
// (interleaved); generic/table is the speedup.
func BenchmarkE2M1Kernel(b *testing.B) {
	for _, in := range []struct {
		name string
		src  []float32
	}{{"nvfp4-blocks", nvfp4Input(1 << 20)}, {"activations", benchInput(1 << 20)}} {
		b.Run(in.name, func(b *testing.B) {
			src := in.src
			dst := make([]uint8, len(src))
			t := interleaved(b, 1,
				func() { memoryFloor(dst, src) },
				func() {
					_, err := E2M1.runKernel32(dst, src, Mode{}, nearestE2M1)
					must(err)
				},
				func() {
					_, err := E2M1.runKernel32(dst, src, Mode{}, nearestAny32)
					must(err)
				},
			)
			b.ReportMetric(nsPerValue(t[0], len(src)), "floor-ns/value")
			b.ReportMetric(nsPerValue(t[1], len(src)), "table-ns/value")
			b.ReportMetric(nsPerValue(t[2], len(src)), "generic-ns/value")
			b.ReportMetric(ratio(t[2], t[1]), "generic/table")
		})
	}
}
