package fp8

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/stretchr/testify/require"
)

// float32Inputs returns float32 bit patterns covering every exponent: all
// patterns with a stride (a subset of all 2^32), plus random ones.
func float32Inputs(stride uint32, randomCount int) []float32 {
	var xs []float32
	for u := uint64(0); u < 1<<32; u += uint64(stride) {
		xs = append(xs, math.Float32frombits(uint32(u)))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < randomCount; i++ {
		xs = append(xs, math.Float32frombits(rng.Uint32()))
	}
	return xs
}

// TestFastPathMatchesCore checks the float32 slice fast paths against the
// float64 core, element by element, for every preset and overflow policy.
func TestFastPathMatchesCore(t *testing.T) {
	xs, bits := float32Inputs(4099, 100000), []int{1, 4, 11, 16, 20, 24, 32}
	if !testenv.Long() {
		xs, bits = float32Inputs(1<<16+1, 20000), []int{1, 11, 24, 32}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	random := make([]uint32, len(xs))
	for i := range random {
		random[i] = rng.Uint32()
	}
	dst := make([]uint8, len(xs))
	for _, f := range Presets() {
		for _, o := range []Overflow{Saturate, SaturateKeepInf, NoSaturate} {
			m := Mode{Overflow: o}
			err := f.EncodeSlice32(dst, xs, m)
			if f.HasNaN() && f.Signed() {
				require.NoError(t, err)
				for i, x := range xs {
					want, _, err := f.encode(float64(x), m, 0)
					require.NoError(t, err)
					require.Equal(t, want, dst[i], "%s %v x=%v (%#x)", f, m, x, math.Float32bits(x))
				}
			} else {
				require.Error(t, err, "%s has no NaN or no sign: the inputs hold NaNs or negatives", f)
			}
			for _, r := range bits {
				sm := Mode{Round: Stochastic, Overflow: o, RandomBits: r}
				if err := f.EncodeSliceStochastic32(dst, xs, random, sm); err != nil {
					require.False(t, f.HasNaN() && f.Signed())
					continue
				}
				for i, x := range xs {
					want, _, err := f.encode(float64(x), sm, random[i])
					require.NoError(t, err)
					require.Equal(t, want, dst[i], "%s %v x=%v (%#x) rnd=%#x", f, sm, x, math.Float32bits(x), random[i])
				}
			}
		}
	}
}

// nearestBySearch is a second, simple reference for float32 inputs: binary
// search in the sorted magnitudes, comparing against midpoints, which are
// exact in float64 for every preset. It saturates, as the default mode does.
func nearestBySearch(f *Format, mags []float64, x float32) uint8 {
	v := float64(x)
	if math.IsNaN(v) {
		return f.specialCode(false, math.Signbit(v))
	}
	a := math.Abs(v)
	i := sort.SearchFloat64s(mags, a)
	var mag int
	switch {
	case i == len(mags):
		mag = len(mags) - 1
	case mags[i] == a || i == 0:
		mag = i
	default:
		mid := (mags[i-1] + mags[i]) / 2
		switch {
		case a < mid:
			mag = i - 1
		case a > mid:
			mag = i
		case (i-1)%2 == 0:
			mag = i - 1
		default:
			mag = i
		}
	}
	c := uint8(mag)
	if math.Signbit(v) && (mag != 0 || f.spec.Specials != FNUZ) {
		c |= f.signBit
	}
	return c
}

// exhaustiveDigests pins the codes of all 2^32 float32 inputs (SHA-256 over
// the SHA-256 of each chunk of 2^20 consecutive bit patterns). They were
// recorded from a long run in which every code matched nearestBySearch.
var exhaustiveDigests = map[string]string{
	"E4M3FN": "86ca13a0747d3c2ff7db4a06799ea769bd9a5073bd1e4a6dcdd265ade6d16477",
	"E5M2":   "553e8a278d37392c661ab508bbc14b605adf9a121ea66b9c5e0721820e2c497e",
}

// TestExhaustiveFloat32 encodes every float32 to E4M3FN and E5M2 with the
// bulk encoder and checks each code against nearestBySearch (long mode:
// FP8LAB_LONG=1); otherwise it checks every 64th chunk.
func TestExhaustiveFloat32(t *testing.T) {
	const chunks = 1 << (32 - chunkBits)
	step := 64
	if testenv.Long() {
		step = 1
	}
	for _, f := range []*Format{E4M3FN, E5M2} {
		mags := f.magnitudes()
		sums := make([][32]byte, chunks)
		failure := eachFloat32Chunk(step, func() func(int, []float32) string {
			dst := make([]uint8, 1<<chunkBits)
			return func(c int, src []float32) string {
				if err := f.encodeNearest32Serial(dst, src); err != nil {
					return err.Error()
				}
				for i, x := range src {
					if math.IsInf(float64(x), 0) {
						continue // saturates: checked by the reference tests
					}
					if want := nearestBySearch(f, mags, x); want != dst[i] {
						return fmt.Sprintf("%s: %v (%#x) gave %#x, want %#x", f, x, math.Float32bits(x), dst[i], want)
					}
				}
				sums[c] = sha256.Sum256(dst)
				return ""
			}
		})
		require.Empty(t, failure)
		if testenv.Long() {
			h := sha256.New()
			for _, s := range sums {
				h.Write(s[:])
			}
			got := hex.EncodeToString(h.Sum(nil))
			t.Logf("%s: all 2^32 float32 inputs match the search reference; digest %s", f, got)
			if want := exhaustiveDigests[f.Name()]; want != "" {
				require.Equal(t, want, got, "%s digest", f)
			}
		}
	}
}

// encodeNearest32Serial runs the bulk fast path on one goroutine.
func (f *Format) encodeNearest32Serial(dst []uint8, src []float32) error {
	_, err := f.encodeNearest32(dst, src, Mode{})
	return err
}
