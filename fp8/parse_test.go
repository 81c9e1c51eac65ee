package fp8

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseNumber(t *testing.T) {
	for s, want := range map[string]float64{
		"1.5": 1.5, " -2e-3 ": -2e-3, ".5": 0.5, "0x1.8p-3": 0.1875, "inf": math.Inf(1),
		"-Infinity": math.Inf(-1), "+INF": math.Inf(1), "1e-400": 0,
	} {
		v, err := ParseNumber(s, 64)
		require.NoError(t, err, s)
		assert.Equal(t, want, v, s)
	}
	v, err := ParseNumber("-nan", 64)
	require.NoError(t, err)
	assert.True(t, math.IsNaN(v) && math.Signbit(v), "-nan keeps its sign")
	v, err = ParseNumber("NaN", 32)
	require.NoError(t, err)
	assert.True(t, math.IsNaN(v) && !math.Signbit(v))
	// One rounding, to the requested width.
	v, err = ParseNumber("1.00000005960464477539062500000001", 32)
	require.NoError(t, err)
	assert.Equal(t, float64(float32(1.0000001)), v)
	for _, s := range []string{"", "1_000", "1_0", "0x1_0p0", "abc", "1.5x", "--1", "nan(1)", "1 2"} {
		_, err := ParseNumber(s, 64)
		assert.ErrorIs(t, err, strconv.ErrSyntax, "%q", s)
	}
	v, err = ParseNumber("1e39", 32)
	assert.ErrorIs(t, err, strconv.ErrRange)
	assert.True(t, math.IsInf(v, 1))
	_, err = ParseNumber("1e400", 64)
	assert.ErrorIs(t, err, strconv.ErrRange)
	_, err = ParseNumber("1", 16)
	assert.Error(t, err)
}

// TestOneGrammar checks that the float parser (ParseNumber) and the exact one
// (ParseText) accept exactly the same texts.
func TestOneGrammar(t *testing.T) {
	texts := []string{
		"1", "-1", "+1", "1.", ".5", "-.5", "1e3", "1E-3", "1e+3", "0x1p-3", "0X1.8P3", "-0x.8p1",
		"nan", "-NaN", "+nan", "inf", "-Infinity", "INF", " 2.5 ", "1e400", "1e-400", "0", "-0",
		"", " ", ".", "e3", "1e", "1e+", "0x1", "0x", "0xp3", "1_000", "1_0", "0x1_0p0", "1.2.3",
		"2^-9", "-2**10", "2^", "2^1.5", "3^2", "--1", "+-1", "1e3.5", "nan1", "infinit", "1 2", "0b101", "0o7", "١", "1e٣",
	}
	for _, s := range texts {
		_, errText := ParseText(s)
		_, errNum := ParseNumber(s, 64)
		if errors.Is(errNum, strconv.ErrRange) {
			errNum = nil // out of float64's range is a number all the same
		}
		if (errText == nil) != (errNum == nil) {
			t.Errorf("%q: ParseText error %v, ParseNumber error %v", s, errText, errNum)
		}
	}
}

// TestParsePowerOfTwo checks "2^k" and "2**k" against exact rationals, in
// both parsers and at both widths, and that malformed powers are refused.
func TestParsePowerOfTwo(t *testing.T) {
	pow := func(k int) *big.Rat { // 2^k as an exact rational
		r := new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(max(k, -k))))
		if k < 0 {
			r.Inv(r)
		}
		return r
	}
	for k := -1074; k <= 1023; k++ {
		want, exact := pow(k).Float64()
		require.True(t, exact, k)
		want32, _ := pow(k).Float32()
		for _, s := range []string{"2^" + strconv.Itoa(k), "2**" + strconv.Itoa(k), " -2^" + strconv.Itoa(k)} {
			sign := 1.0
			if s[1] == '-' {
				sign = -1
			}
			v, err := ParseNumber(s, 64)
			require.NoError(t, err, s)
			require.Equal(t, sign*want, v, s)
			v, err = ParseText(s)
			require.NoError(t, err, s)
			require.Equal(t, sign*want, v, s)
			v, err = ParseNumber(s, 32)
			if k > 127 {
				require.ErrorIs(t, err, strconv.ErrRange, s)
				continue
			}
			require.NoError(t, err, s)
			require.Equal(t, sign*float64(want32), v, s)
		}
	}
	v, err := ParseNumber("2^+3", 64)
	require.NoError(t, err)
	assert.Equal(t, 8.0, v)
	_, err = ParseNumber("2^1024", 64)
	assert.ErrorIs(t, err, strconv.ErrRange)
	v, err = ParseText("2^1024")
	require.NoError(t, err)
	assert.Equal(t, math.MaxFloat64, v, "beyond float64 ParseText gives MaxFloat64, which overflows every format as 2^1024 does")
	for _, s := range []string{"2^", "2^-", "2^1.5", "2^0x3", "2^^3", "2***3", "2^1_0", "3^2", "2 ^3", "2^3e1"} {
		_, err := ParseNumber(s, 64)
		assert.ErrorIs(t, err, strconv.ErrSyntax, "%q", s)
		_, err = ParseText(s)
		assert.ErrorIs(t, err, ErrSyntax, "%q", s)
	}
	// 2^-9 is E4M3FN's smallest subnormal, typed as students write it.
	v, err = ParseNumber("2^-9", 64)
	require.NoError(t, err)
	assert.Equal(t, E4M3FN.Info().MinSubnormal, v)
}
