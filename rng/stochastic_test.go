package rng

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/parallel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mixedInput returns n float32 values covering normals, subnormals, zeros,
// both signs and values beyond E4M3FN's range.
func mixedInput(n int, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 7))
	src := make([]float32, n)
	for i := range src {
		switch i % 5 {
		case 0:
			src[i] = float32(rng.NormFloat64())
		case 1:
			src[i] = float32(rng.NormFloat64() * 1e-3) // subnormal in E4M3FN
		case 2:
			src[i] = float32(rng.NormFloat64() * 300) // near and beyond Max
		case 3:
			src[i] = float32(math.Ldexp(rng.Float64(), rng.IntN(40)-20))
		default:
			src[i] = float32(rng.NormFloat64() * 1e6)
		}
	}
	src[0], src[1] = 0, float32(math.Copysign(0, -1))
	return src
}

// TestEncodeStochasticMatchesScalar checks the bulk encoder element by
// element against fp8's scalar stochastic encoder fed with Bits(seed,
// stream, i): the mapping the package documents.
func TestEncodeStochasticMatchesScalar(t *testing.T) {
	src := mixedInput(5000, 1)
	for _, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2, fp8.E4M3FNUZ, fp8.E2M1, fp8.E3M4} {
		for _, r := range []int{1, 3, 8, 23, 32} {
			dst := make([]uint8, len(src))
			require.NoError(t, EncodeStochastic(f, dst, src, 42, 9, r))
			mode := fp8.Mode{Round: fp8.Stochastic, RandomBits: r}
			for i, x := range src {
				want, err := f.EncodeStochastic(float64(x), Bits(42, 9, uint64(i)), mode)
				require.NoError(t, err)
				require.Equal(t, want, dst[i], "%s r=%d element %d (%g)", f, r, i, x)
			}
		}
	}
}

// TestEncodeSplitsAndCoresAgree checks that encoding a tensor in parts
// with the right start indices, or on any number of cores, gives the bits
// of encoding it at once on one core.
func TestEncodeSplitsAndCoresAgree(t *testing.T) {
	const n = 3*parallel.MinWork + 123
	src := mixedInput(n, 2)
	s := NewStream(5, 6)
	prev := runtime.GOMAXPROCS(1)
	whole := make([]uint8, n)
	require.NoError(t, s.Encode(fp8.E4M3FN, whole, src, 0, 16))
	runtime.GOMAXPROCS(prev)
	for _, procs := range []int{2, 5} {
		runtime.GOMAXPROCS(procs)
		par := make([]uint8, n)
		require.NoError(t, s.Encode(fp8.E4M3FN, par, src, 0, 16))
		runtime.GOMAXPROCS(prev)
		require.Equal(t, whole, par, "GOMAXPROCS=%d", procs)
	}
	parts := make([]uint8, n)
	for _, cut := range [][2]int{{0, 1}, {1, 4099}, {4099, 70000}, {70000, n}} {
		require.NoError(t, s.Encode(fp8.E4M3FN, parts[cut[0]:cut[1]], src[cut[0]:cut[1]], uint64(cut[0]), 16))
	}
	require.Equal(t, whole, parts)
}

func TestEncodeStochasticErrors(t *testing.T) {
	src := []float32{1, 2, 3}
	dst := make([]uint8, 3)
	assert.ErrorIs(t, EncodeStochastic(nil, dst, src, 0, 0, 8), ErrInvalidArgument)
	assert.ErrorIs(t, EncodeStochastic(fp8.E4M3FN, dst[:2], src, 0, 0, 8), ErrInvalidArgument)
	assert.ErrorIs(t, EncodeStochastic(fp8.E4M3FN, dst, src, 0, 0, 0), ErrInvalidArgument)
	assert.ErrorIs(t, EncodeStochastic(fp8.E4M3FN, dst, src, 0, 0, 33), ErrInvalidArgument)
	require.NoError(t, EncodeStochastic(fp8.E4M3FN, nil, nil, 0, 0, 8))

	// NaN has no code in E2M1: the error names the element, also when the
	// NaN sits deep inside a parallel chunk.
	big := make([]float32, 2*parallel.MinWork)
	big[40000] = float32(math.NaN())
	err := EncodeStochastic(fp8.E2M1, make([]uint8, len(big)), big, 0, 0, 8)
	require.ErrorIs(t, err, fp8.ErrNaN)
	assert.Contains(t, err.Error(), "element 40000")

	// E4M3FN has a NaN code: NaN encodes without error.
	require.NoError(t, EncodeStochastic(fp8.E4M3FN, make([]uint8, len(big)), big, 0, 0, 8))
}

func TestEncodeWideMatchesScalar(t *testing.T) {
	src := mixedInput(3000, 3)
	for _, w := range []*fp8.Wide{fp8.BF16, fp8.FP16} {
		dst := make([]uint16, len(src))
		require.NoError(t, NewStream(1, 2).EncodeWide(w, dst, src, 100, 12))
		for i, x := range src {
			want, err := w.EncodeStochastic(float64(x), Bits(1, 2, 100+uint64(i)), 12)
			require.NoError(t, err)
			require.Equal(t, want, dst[i], "%s element %d", w, i)
		}
	}
	assert.ErrorIs(t, NewStream(0, 0).EncodeWide(nil, nil, nil, 0, 8), ErrInvalidArgument)
	assert.ErrorIs(t, NewStream(0, 0).EncodeWide(fp8.BF16, make([]uint16, 1), nil, 0, 8), ErrInvalidArgument)
	assert.ErrorIs(t, NewStream(0, 0).EncodeWide(fp8.BF16, nil, nil, 0, 40), ErrInvalidArgument)
}
