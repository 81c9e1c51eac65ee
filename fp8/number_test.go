package fp8

import (
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/internal/testenv"
)

func TestParseTextVectors(t *testing.T) {
	enc := func(f *Format, s string, m Mode) uint8 {
		t.Helper()
		c, err := f.EncodeString(s, m)
		require.NoError(t, err, s)
		return c
	}
	// Issue 12 item 14: the decimal is just above the tie 1.0625, so it rounds
	// up; through float64 it becomes the tie, which goes to even (0x38).
	assert.Equal(t, uint8(0x39), enc(E4M3FN, "1.06250000000000000001", Mode{}))
	assert.Equal(t, uint8(0x38), enc(E4M3FN, "1.0625", Mode{}))
	assert.Equal(t, uint8(0xB9), enc(E4M3FN, "-1.06250000000000000001", Mode{}))
	assert.Equal(t, uint8(0x38), enc(E4M3FN, "1.06249999999999999999", Mode{}))
	assert.Equal(t, uint8(0x39), enc(E4M3FN, "0x1.1000000000000001p0", Mode{}), "hex floats round once too")
	assert.Equal(t, uint8(0x7E), enc(E4M3FN, "464.000000000000000000001", Mode{Overflow: SaturateKeepInf}))
	assert.Equal(t, uint8(0x7F), enc(E4M3FN, "464.000000000000000000001", Mode{Overflow: NoSaturate}))
	assert.Equal(t, uint8(0x7E), enc(E4M3FN, "464", Mode{Overflow: NoSaturate}))

	// "1e400" overflows like any other large value; "1e-400" underflows.
	for _, m := range []Mode{{}, {Overflow: SaturateKeepInf}} {
		assert.Equal(t, uint8(0x7E), enc(E4M3FN, "1e400", m))
		assert.Equal(t, uint8(0xFE), enc(E4M3FN, "-1e400", m))
		assert.Equal(t, uint8(0x7B), enc(E5M2, "1e400", m))
	}
	assert.Equal(t, uint8(0x7F), enc(E4M3FN, "1e400", Mode{Overflow: NoSaturate}))
	assert.Equal(t, uint8(0x7C), enc(E5M2, "1e400", Mode{Overflow: NoSaturate}))
	assert.Equal(t, uint8(0xFC), enc(E5M2, "-1e99999999999999999999", Mode{Overflow: NoSaturate}))
	assert.Equal(t, uint8(0x7E), enc(E4M3FN, "1e400", Mode{Round: TowardZero, Overflow: NoSaturate}))
	assert.Equal(t, uint8(0x00), enc(E4M3FN, "1e-400", Mode{}))
	assert.Equal(t, uint8(0x80), enc(E4M3FN, "-1e-400", Mode{}))
	assert.Equal(t, uint8(0x00), enc(E4M3FNUZ, "-1e-400", Mode{}), "FNUZ has no -0")
	assert.Equal(t, uint8(0x01), enc(E4M3FN, "1e-400", Mode{Round: AwayFromZero}))
	assert.Equal(t, uint8(0x00), enc(E8M0, "1e-400", Mode{}), "E8M0 raises tiny scales to 2^-127")
	assert.Equal(t, uint8(0xFE), enc(E8M0, "1e400", Mode{}))
	assert.Equal(t, uint8(0x00), enc(E4M3FN, "0."+strings.Repeat("0", 5000)+"1", Mode{}))
	assert.Equal(t, uint8(0x01), enc(E4M3FN, "0."+strings.Repeat("0", 5000)+"1", Mode{Round: AwayFromZero}))
	long := "1.0625" + strings.Repeat("0", 3000) + "1" // past maxTextDigits
	assert.Equal(t, uint8(0x39), enc(E4M3FN, long, Mode{}))
	assert.Equal(t, uint8(0x38), enc(E4M3FN, "1.0625"+strings.Repeat("0", 3000), Mode{}))

	// Issue 12 item 13: the sign of NaN is kept.
	x, err := ParseText("-nan")
	require.NoError(t, err)
	assert.True(t, math.IsNaN(x) && math.Signbit(x))
	assert.Equal(t, uint8(0xFF), enc(E4M3FN, "-NaN", Mode{}))
	assert.Equal(t, uint8(0x7F), enc(E4M3FN, "+nan", Mode{}))
	x, err = ParseText(" -Infinity ")
	require.NoError(t, err)
	assert.True(t, math.IsInf(x, -1))
	x, err = ParseText("-0")
	require.NoError(t, err)
	assert.True(t, x == 0 && math.Signbit(x))

	for _, bad := range []string{"", " ", "-", "1_000", "0x1.8", "0x1p", "1e", "1e+", "e5", ".", "1..2", "0x", "nan1", "1e5x", "++1", "١"} {
		_, err := ParseText(bad)
		assert.ErrorIs(t, err, ErrSyntax, "%q", bad)
	}
	_, err = (*Format)(nil).EncodeString("1", Mode{})
	assert.ErrorIs(t, err, ErrInvalidFormat)
}

// TestParseTextExactFloat64 checks that the exact decimal expansion of a
// float64 reads back as that float64, and that ParseText agrees with
// strconv.ParseFloat wherever the latter's result has 45 significant bits.
func TestParseTextExactFloat64(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	n := 3000
	if !testenv.Long() {
		n = 500
	}
	for i := 0; i < n; i++ {
		x := math.Float64frombits(rng.Uint64())
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		if i%2 == 0 { // few significant bits: the slow path
			x = math.Ldexp(float64(rng.Int63n(1<<12)), rng.Intn(200)-100)
		}
		exact := new(big.Float).SetFloat64(x).Text('g', 1200)
		got, err := ParseText(exact)
		require.NoError(t, err, exact)
		require.Equal(t, math.Float64bits(x), math.Float64bits(got), exact)
		short := strconv.FormatFloat(x, 'g', -1, 64)
		got, err = ParseText(short)
		require.NoError(t, err)
		if math.Float64bits(x)&0x1FF != 0 && math.Abs(x) >= 0x1p-1022 {
			require.Equal(t, x, got, short)
		}
		hex := strconv.FormatFloat(x, 'x', -1, 64)
		got, err = ParseText(hex)
		require.NoError(t, err)
		require.Equal(t, math.Float64bits(x), math.Float64bits(got), hex)
	}
}

// TestEncodeStringRoundsOnce writes numbers just off every rounding boundary
// of several formats (ties, grid points, stochastic thresholds) as long
// decimals and compares EncodeString with the exact-rational reference.
func TestEncodeStringRoundsOnce(t *testing.T) {
	modes := []Mode{{}, {Round: TowardZero}, {Round: AwayFromZero}, {Overflow: NoSaturate}}
	for _, f := range []*Format{E4M3FN, E5M2, E3M4, E2M1, E4M3FNUZ, E8M0} {
		ref := newRef(f.Spec())
		vals := ref.vals
		step := 1
		if !testenv.Long() {
			step = 3
		}
		for i := 0; i+1 < len(vals); i += step {
			lo, hi := vals[i].v, vals[i+1].v
			width := new(big.Rat).Sub(hi, lo)
			for _, frac := range []*big.Rat{big.NewRat(0, 1), big.NewRat(1, 2), big.NewRat(3, 8), big.NewRat(5, 8)} {
				b := new(big.Rat).Add(lo, new(big.Rat).Mul(width, frac))
				for _, d := range []int64{-1, 0, 1} {
					a := new(big.Rat).Add(b, new(big.Rat).Mul(b, big.NewRat(d, 1_000_000_000_000_000_000)))
					if a.Sign() <= 0 {
						continue
					}
					text := ratDecimal(a)
					for _, neg := range []bool{false, true} {
						if neg && !f.Signed() {
							continue
						}
						s := text
						if neg {
							s = "-" + text
						}
						for _, m := range modes {
							got, err := f.EncodeString(s, m)
							require.NoError(t, err, s)
							want := ref.encodeRat(a, neg, m, 0)
							require.Equal(t, want, int(got), "%s %s %+v", f, s, m)
						}
						for rnd := uint32(0); rnd < 8; rnd++ {
							m := Mode{Round: Stochastic, RandomBits: 3}
							x, err := ParseText(s)
							require.NoError(t, err)
							got, err := f.EncodeStochastic(x, rnd, m)
							require.NoError(t, err)
							require.Equal(t, ref.encodeRat(a, neg, m, rnd), int(got), "%s %s %+v rnd %d", f, s, m, rnd)
						}
					}
				}
			}
		}
	}
}

// ratDecimal writes a (a dyadic rational times a power of ten here) as an
// exact decimal, or with 60 digits when it has no finite expansion.
func ratDecimal(a *big.Rat) string {
	for prec := 0; prec <= 400; prec += 20 {
		s := a.FloatString(prec)
		if back, _ := new(big.Rat).SetString(s); back.Cmp(a) == 0 {
			return s
		}
	}
	panic(fmt.Sprintf("no finite decimal for %v", a))
}
