package fp8

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tableModes are the modes a table can serve: every rounding but
// Stochastic, with every overflow policy.
func tableModes() []Mode {
	var ms []Mode
	for _, r := range []Rounding{NearestEven, TowardZero, AwayFromZero} {
		for _, o := range []Overflow{Saturate, SaturateKeepInf, NoSaturate} {
			ms = append(ms, Mode{Round: r, Overflow: o})
		}
	}
	return ms
}

// TestExhaustiveTable32 encodes float32 bit patterns with the lookup table
// of every preset and mode that has one, and compares each code with the
// encoder the slice functions use without a table (the arithmetic kernels,
// themselves checked against an independent search in
// TestExhaustiveFloat32, or the core), in chunks of 2^20 consecutive
// patterns. Long mode (FP8LAB_LONG=1): all 2^32 patterns for E4M3FN and
// E5M2 in the modes the arithmetic kernels serve, with the nearest-even
// digests of TestExhaustiveFloat32 required unchanged; every 5th chunk for
// the other presets and every 17th where the reference is the core (~20
// ns a value). Otherwise every 1021st chunk, every 4093rd against the core.
func TestExhaustiveTable32(t *testing.T) {
	const chunkBits = 20
	const chunks = 1 << (32 - chunkBits)
	long := testenv.Long()
	for _, f := range Presets() {
		for _, m := range tableModes() {
			tab := f.table32For(m, tableMinLen)
			if tab == nil {
				continue
			}
			kernel := f.fast.ok && m.Round != AwayFromZero
			step := 1021
			switch {
			case long && kernel && (f == E4M3FN || f == E5M2):
				step = 1
			case long && kernel:
				step = 5
			case long:
				step = 17
			case !kernel:
				step = 4093
			}
			sums := make([][32]byte, chunks)
			var mu sync.Mutex
			var failure string
			var wg sync.WaitGroup
			next := make(chan int)
			for range runtime.GOMAXPROCS(0) {
				wg.Add(1)
				go func() {
					defer wg.Done()
					src := make([]float32, 1<<chunkBits)
					got := make([]uint8, len(src))
					want := make([]uint8, len(src))
					for c := range next {
						base := uint32(c) << chunkBits
						for i := range src {
							src[i] = math.Float32frombits(base + uint32(i))
						}
						encodeTable32(tab, got, src)
						_, err := f.encodeSlice32Serial(want, src, m)
						for i := range src {
							if err != nil || got[i] != want[i] {
								mu.Lock()
								failure = fmt.Sprintf("%s %+v: %#x gave %#x, want %#x (%v)",
									f, m, math.Float32bits(src[i]), got[i], want[i], err)
								mu.Unlock()
								break
							}
						}
						sums[c] = sha256.Sum256(got)
					}
				}()
			}
			for c := 0; c < chunks; c += step {
				next <- c
			}
			close(next)
			wg.Wait()
			require.Empty(t, failure)
			if want := exhaustiveDigests[f.Name()]; step == 1 && m == (Mode{}) && want != "" {
				h := sha256.New()
				for _, s := range sums {
					h.Write(s[:])
				}
				require.Equal(t, want, hex.EncodeToString(h.Sum(nil)), "%s table digest", f)
				t.Logf("%s: the table gives the recorded digest on all 2^32 float32 inputs", f)
			}
		}
	}
}

// TestTable32Columns checks the structure the lookup relies on: for finite
// inputs the two columns differ only where the key's own value is a rounding
// boundary that the low bits move off, so never in toward-zero (a code's
// value keeps its code just above it) and, in nearest-even, only at exact
// half-way points between two neighbours.
func TestTable32Columns(t *testing.T) {
	for _, f := range []*Format{E4M3FN, E5M2, E3M4, E2M1} {
		for _, m := range []Mode{{}, {Round: TowardZero}} {
			tab := f.table32For(m, tableMinLen)
			if f.spec.Specials == FiniteOnly {
				require.Nil(t, tab, "%s: NaN has no code", f)
				continue
			}
			require.NotNil(t, tab, "%s %+v", f, m)
			ties := 0
			for k := range tab {
				v := math.Abs(float64(math.Float32frombits(uint32(k) << 16)))
				if math.IsInf(v, 0) || math.IsNaN(v) || tab[k][0] == tab[k][1] {
					continue
				}
				require.Equal(t, NearestEven, m.Round, "%s %+v: key %#x has two codes", f, m, k)
				lo := math.Abs(f.values[tab[k][0]])
				e := f.grid.emin
				if lo >= math.Ldexp(1, e) {
					_, e = math.Frexp(lo)
					e--
				}
				step := math.Ldexp(1, e-f.spec.ManBits)
				require.Equal(t, lo+step/2, v, "%s: key %#x has two codes but is no tie", f, k)
				ties++
			}
			if m.Round == NearestEven {
				assert.Positive(t, ties, "%s: ties between codes", f)
			}
		}
	}
}

// TestEncodeSlice32Table checks that EncodeSlice32 on slices long enough to
// use a table gives every preset's Encode codes, and that a format without
// one for its inputs (NaN in a format that has none) still names the first
// failing element.
func TestEncodeSlice32Table(t *testing.T) {
	src := benchInput(tableMinLen + 17)
	src[5] = float32(math.Inf(-1))
	src[6] = float32(math.NaN())
	src[7] = float32(math.Copysign(0, -1))
	src[8] = 464
	dst := make([]uint8, len(src))
	for _, f := range Presets() {
		for _, m := range tableModes() {
			in := src
			if !f.spec.Signed || f.spec.Specials == FiniteOnly {
				in = append([]float32(nil), src[9:]...) // no NaN, nor negatives for unsigned formats
				for i := range in {
					in[i] = float32(math.Abs(float64(in[i]))) + 1
				}
			}
			d := dst[:len(in)]
			require.NoError(t, f.EncodeSlice32(d, in, m), "%s %+v", f, m)
			for i, x := range in {
				want, err := f.Encode(float64(x), m)
				require.NoError(t, err)
				if d[i] != want {
					require.Failf(t, "code", "%s %+v: %v gave %#x, want %#x", f, m, x, d[i], want)
				}
			}
		}
	}
	require.Nil(t, E2M1.table32For(Mode{}, tableMinLen), "E2M1 has no NaN, so no table covers every input")
	err := E2M1.EncodeSlice32(dst, src, Mode{})
	require.ErrorIs(t, err, ErrNaN)
	require.ErrorContains(t, err, "element 6")
}

// TestTable64 compares the float64 table of every preset and mode that has
// one with the encoder the slice functions use without a table, on every
// key (top 16 bits) with low 48 bits of zero, one, all ones, half and
// either side of it, and random, and checks the double-rounding trap: -431.99999999999994
// is below the tie between 416 and 448 and must give -416 in E4M3FN.
func TestTable64(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	lows := []uint64{0, 1, 1<<47 - 1, 1 << 47, 1<<47 + 1, 1<<48 - 1}
	for range 4 {
		lows = append(lows, rng.Uint64()>>16)
	}
	src := make([]float64, 1<<16*len(lows))
	for k := range 1 << 16 {
		for j, low := range lows {
			src[k*len(lows)+j] = math.Float64frombits(uint64(k)<<48 | low)
		}
	}
	got, want := make([]uint8, len(src)), make([]uint8, len(src))
	tables := 0
	for _, f := range Presets() {
		for _, m := range tableModes() {
			tab := f.table64For(m, tableMinLen)
			if tab == nil {
				require.True(t, f.spec.ManBits > 3 || f.table32For(m, tableMinLen) == nil, "%s %+v: no float64 table", f, m)
				continue
			}
			tables++
			encodeTable64(tab, got, src)
			_, err := f.encodeSlice64Serial(want, src, m)
			require.NoError(t, err)
			for i := range src {
				if got[i] != want[i] {
					require.Failf(t, "code", "%s %+v: %#x gave %#x, want %#x", f, m, math.Float64bits(src[i]), got[i], want[i])
				}
			}
		}
	}
	require.Positive(t, tables)
	x := make([]float64, tableMinLen)
	for i := range x {
		x[i] = -431.99999999999994
	}
	codes := make([]uint8, len(x))
	require.NoError(t, E4M3FN.EncodeSlice(codes, x, Mode{}))
	require.NotNil(t, E4M3FN.table64For(Mode{}, len(x)))
	assert.Equal(t, -416.0, E4M3FN.Decode(codes[len(x)-1]))
}

// PrepareEncode builds the table a long slice would, and ignores what it
// cannot use: a nil or zero format, an invalid or stochastic mode, a
// negative or absurd count.
func TestPrepareEncode(t *testing.T) {
	var nilFormat *Format
	require.NotPanics(t, func() {
		nilFormat.PrepareEncode(Mode{}, 1<<20)
		(&Format{}).PrepareEncode(Mode{}, 1<<20)
		E4M3FN.PrepareEncode(Mode{Round: 99}, 1<<20)
		E4M3FN.PrepareEncode(Mode{Round: Stochastic, RandomBits: 8}, 1<<40)
		E4M3FN.PrepareEncode(Mode{}, -5)
	})
	// A format of its own, so that no other test has built its tables.
	f, err := NewFormat(E4M3FN.Spec())
	require.NoError(t, err)
	m := Mode{Round: AwayFromZero, Overflow: SaturateKeepInf}
	f.PrepareEncode(m, tableMinLen-1)
	require.Nil(t, f.table32For(m, 0), "a count below tableMinLen builds nothing")
	f.PrepareEncode(m, tableMinLen)
	require.NotNil(t, f.table32For(m, 0), "a count of tableMinLen builds the table")
}
