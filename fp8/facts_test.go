package fp8

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDesignTable checks the format facts of OCP OFP8 v1.0 and OCP MX v1.0
// (cross-checked with ml_dtypes finfo), as listed in the design notes.
func TestDesignTable(t *testing.T) {
	tests := []struct {
		f                      *Format
		bias                   int
		max, minNorm, minSub   float64
		positiveFinite, nanCnt int
		infCnt                 int
	}{
		{E4M3FN, 7, 448, 0x1p-6, 0x1p-9, 126, 2, 0},
		{E5M2, 15, 57344, 0x1p-14, 0x1p-16, 123, 6, 2},
		{E4M3FNUZ, 8, 240, 0x1p-7, 0x1p-10, 127, 1, 0},
		{E5M2FNUZ, 16, 57344, 0x1p-15, 0x1p-17, 127, 1, 0},
		{E4M3, 7, 240, 0x1p-6, 0x1p-9, 119, 14, 2},
		{E3M4, 3, 15.5, 0x1p-2, 0x1p-6, 111, 30, 2},
		// ml_dtypes' finfo of float8_e4m3b11fnuz: smallest normal 0x1p-10, smallest
		// subnormal 0x1p-13; max is code 0x7F, 2^(15-11)·1.875.
		{E4M3B11FNUZ, 11, 30, 0x1p-10, 0x1p-13, 127, 1, 0},
		{E8M0, 127, 0x1p127, 0x1p-127, 0, 255, 1, 0},
		{E2M3, 1, 7.5, 1, 0.125, 31, 0, 0},
		{E3M2, 3, 28, 0.25, 0.0625, 31, 0, 0},
		{E2M1, 1, 6, 1, 0.5, 7, 0, 0},
	}
	covered := map[*Format]bool{}
	for _, tc := range tests {
		covered[tc.f] = true
		in := tc.f.Info()
		assert.Equal(t, tc.bias, in.Bias, tc.f.Name())
		assert.Equal(t, tc.max, in.Max, tc.f.Name())
		assert.Equal(t, tc.minNorm, in.MinNormal, tc.f.Name())
		assert.Equal(t, tc.minSub, in.MinSubnormal, tc.f.Name())
		assert.Equal(t, tc.positiveFinite, in.PositiveFinite, tc.f.Name())
		assert.Equal(t, tc.nanCnt, in.NaNCount, tc.f.Name())
		assert.Equal(t, tc.infCnt, in.InfCount, tc.f.Name())
	}
	for _, p := range Presets() {
		assert.True(t, covered[p], "%s has no row here (%s)", p.Name(), testenv.Step("Add a format", 2))
	}
	assert.Equal(t, []float64{0.5, 1, 1.5, 2, 3, 4, 6}, E2M1.PositiveFinite())
	assert.Equal(t, []int{0x7F, 0xFF}, E4M3FN.Info().NaNCodes)
	assert.Equal(t, []int{0x7C, 0xFC}, E5M2.Info().InfCodes)
	assert.Equal(t, []int{0x80}, E4M3FNUZ.Info().NaNCodes)
	assert.Equal(t, []int{0xFF}, E8M0.Info().NaNCodes)
	assert.False(t, E4M3FNUZ.Info().NegZero)
	assert.True(t, E4M3FN.Info().NegZero)
}

func TestWideInfo(t *testing.T) {
	fp16 := FP16.Info()
	assert.Equal(t, 65504.0, fp16.Max)
	assert.Equal(t, 0x1p-14, fp16.MinNormal)
	assert.Equal(t, 0x1p-24, fp16.MinSubnormal)
	assert.Equal(t, 2046, fp16.NaNCount)
	bf16 := BF16.Info()
	assert.Equal(t, float64(math.Float32frombits(0x7F7F0000)), bf16.Max)
	assert.Equal(t, 0x1p-126, bf16.MinNormal)
	assert.Equal(t, 0x1p-133, bf16.MinSubnormal)
	assert.Equal(t, 1<<15-1-(1<<7)+1-1, bf16.PositiveFinite)
}

func TestConversionPitfalls(t *testing.T) {
	enc := func(f *Format, x float64, m Mode) uint8 {
		t.Helper()
		c, err := f.Encode(x, m)
		require.NoError(t, err)
		return c
	}
	noSat := Mode{Overflow: NoSaturate}
	// Round first, then check overflow: 464 is a tie between 448 and the
	// would-be 480 and goes to the even code.
	assert.Equal(t, uint8(0x7E), enc(E4M3FN, 464, Mode{}))
	assert.Equal(t, uint8(0x7E), enc(E4M3FN, 464, noSat))
	assert.Equal(t, uint8(0x7F), enc(E4M3FN, 465, noSat), "465 overflows to NaN (ml_dtypes surprise)")
	assert.Equal(t, uint8(0x7E), enc(E4M3FN, 465, Mode{}), "saturating: 448")
	assert.Equal(t, uint8(0x7B), enc(E5M2, 61439.99, noSat))
	assert.Equal(t, uint8(0x7C), enc(E5M2, 61440, noSat), "E5M2 overflows from 61440")
	// No double rounding through float32 (ml_dtypes bug).
	assert.Equal(t, -416.0, E4M3FN.Decode(enc(E4M3FN, -431.99999999999994, Mode{})))
	assert.Equal(t, -448.0, E4M3FN.Decode(enc(E4M3FN, float64(float32(-431.99999999999994)), Mode{})))
	// 4.25 is a tie between 4 and 4.5: even wins.
	assert.Equal(t, 4.0, E4M3FN.Decode(enc(E4M3FN, 4.25, Mode{})))
	assert.Equal(t, 5.0, E4M3FN.Decode(enc(E4M3FN, 4.75, Mode{})))
	// FNUZ: no negative zero.
	assert.Equal(t, uint8(0x00), enc(E4M3FNUZ, math.Copysign(0, -1), Mode{}))
	assert.Equal(t, uint8(0x00), enc(E4M3FNUZ, -1e-9, Mode{}))
	assert.Equal(t, uint8(0x80), enc(E4M3FN, math.Copysign(0, -1), Mode{}))
	// FNUZ: Inf is NaN (0x80) when not saturating, ±240 when saturating (ONNX).
	assert.Equal(t, uint8(0x80), enc(E4M3FNUZ, math.Inf(-1), noSat))
	assert.Equal(t, uint8(0xFF), enc(E4M3FNUZ, math.Inf(-1), Mode{}))
	assert.Equal(t, -240.0, E4M3FNUZ.Decode(0xFF))
	// Inf in each policy.
	assert.Equal(t, uint8(0x7E), enc(E4M3FN, math.Inf(1), Mode{}))
	assert.Equal(t, uint8(0x7F), enc(E4M3FN, math.Inf(1), Mode{Overflow: SaturateKeepInf}))
	assert.Equal(t, uint8(0x7C), enc(E5M2, math.Inf(1), Mode{Overflow: SaturateKeepInf}))
	assert.Equal(t, uint8(0xFB), enc(E5M2, math.Inf(-1), Mode{}))
	// MX element types always saturate.
	assert.Equal(t, uint8(0x7), enc(E2M1, 1e9, noSat))
	assert.Equal(t, uint8(0xF), enc(E2M1, math.Inf(-1), noSat))
	// Toward zero never makes an infinity (IEEE 754 directed rounding).
	assert.Equal(t, uint8(0x7B), enc(E5M2, 1e9, Mode{Round: TowardZero, Overflow: NoSaturate}))
	// Truncating subnormal Go packages drop: 2^-9 survives in E4M3FN.
	assert.Equal(t, uint8(0x01), enc(E4M3FN, 0x1p-9, Mode{}))
	assert.Equal(t, uint8(0x01), enc(E4M3FN, 0x1.8p-10, Mode{}), "0.75 ULP rounds up to the smallest subnormal")
	assert.Equal(t, uint8(0x00), enc(E4M3FN, 0x1p-10, Mode{}), "half the smallest subnormal ties to zero")
}

func TestEncodeErrors(t *testing.T) {
	_, err := E2M1.Encode(math.NaN(), Mode{})
	assert.ErrorIs(t, err, ErrNaN)
	_, err = E8M0.Encode(-1, Mode{})
	assert.ErrorIs(t, err, ErrNegative)
	_, err = E8M0.Encode(0, Mode{})
	assert.ErrorIs(t, err, ErrZero)
	_, err = E4M3FN.Encode(1, Mode{Round: Stochastic, RandomBits: 8})
	assert.ErrorIs(t, err, ErrInvalidMode)
	_, err = E4M3FN.EncodeStochastic(1, 0, Mode{Round: Stochastic})
	assert.ErrorIs(t, err, ErrInvalidMode, "zero random bits")
	_, err = E4M3FN.EncodeStochastic(1, 0, Mode{Round: Stochastic, RandomBits: 33})
	assert.ErrorIs(t, err, ErrInvalidMode)
	_, err = E4M3FN.Encode(1, Mode{Round: 9})
	assert.ErrorIs(t, err, ErrInvalidMode)
	_, err = E4M3FN.Encode(1, Mode{Overflow: 9})
	assert.ErrorIs(t, err, ErrInvalidMode)
	err = E4M3FN.EncodeSlice32(make([]uint8, 2), make([]float32, 3), Mode{})
	assert.ErrorIs(t, err, ErrLength)
	err = E2M1.EncodeSlice32(make([]uint8, 3), []float32{1, 2, float32(math.NaN())}, Mode{})
	assert.ErrorIs(t, err, ErrNaN)
	assert.Contains(t, err.Error(), "element 2")
	_, err = Lookup("E9M9")
	assert.ErrorIs(t, err, ErrUnknownFormat)
	assert.Contains(t, err.Error(), "E4M3FN")
}

func TestNewFormatValidation(t *testing.T) {
	bad := []Spec{
		{Name: "too wide", Signed: true, ExpBits: 5, ManBits: 3, Bias: 15},
		{Name: "no exponent", Signed: true, ExpBits: 0, ManBits: 3},
		{Name: "negative mantissa", Signed: true, ExpBits: 4, ManBits: -1},
		{Name: "unsigned fnuz", ExpBits: 4, ManBits: 3, Bias: 8, Specials: FNUZ},
		{Name: "signed e8m0", Signed: true, ExpBits: 7, ManBits: 0, Bias: 63, Specials: ExponentOnly},
		{Name: "ieee e1", Signed: true, ExpBits: 1, ManBits: 3, Specials: IEEE},
		{Name: "bad specials", Signed: true, ExpBits: 4, ManBits: 3, Bias: 7, Specials: 42},
		{Name: "past float32", Signed: true, ExpBits: 8, ManBits: 0, Bias: -10, Specials: FiniteOnly},
	}
	for _, s := range bad {
		_, err := NewFormat(s)
		assert.ErrorIs(t, err, ErrInvalidFormat, s.Name)
	}
	f, err := NewFormat(Spec{Name: "E3M3", Signed: true, ExpBits: 3, ManBits: 3, Bias: 3, Specials: FiniteOnly})
	require.NoError(t, err)
	assert.Equal(t, 7, f.Bits())
	assert.Equal(t, 30.0, f.Max(), "1.875 * 2^(7-3)")
}

func TestLookupAliases(t *testing.T) {
	for name, want := range map[string]*Format{"e4m3fn": E4M3FN, "float8_e5m2": E5M2, "UE8M0": E8M0, " fp4 ": E2M1, "float8_e4m3fnuz": E4M3FNUZ} {
		f, err := Lookup(name)
		require.NoError(t, err, name)
		assert.Same(t, want, f, name)
	}
}

// TestPackageDocNamesEveryPreset checks that the package comment names
// every preset.
func TestPackageDocNamesEveryPreset(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	require.NoError(t, err)
	text := strings.Join(strings.Fields(string(doc)), " ")
	for _, p := range Presets() {
		named := regexp.MustCompile(`\b` + p.Name() + `\b`).MatchString(text)
		assert.True(t, named, "doc.go does not name %s (%s)", p.Name(), testenv.Step("Add a format", 3))
	}
}

// TestLookupAny checks the one name lookup of the minifloats and the 16-bit
// formats: every preset and wide format by its own name, the libraries'
// spellings of FP16 and BF16, and an error listing every name.
func TestLookupAny(t *testing.T) {
	for _, p := range Presets() {
		f, w, err := LookupAny(strings.ToLower(p.Name()))
		require.NoError(t, err)
		assert.Same(t, p, f)
		assert.Nil(t, w)
	}
	for name, want := range map[string]*Wide{"FP16": FP16, "float16": FP16, " half ": FP16, "binary16": FP16, "bf16": BF16, "bfloat16": BF16} {
		f, w, err := LookupAny(name)
		require.NoError(t, err, name)
		assert.Nil(t, f, name)
		assert.Same(t, want, w, name)
	}
	_, _, err := LookupAny("fp32")
	require.ErrorIs(t, err, ErrUnknownFormat)
	for _, n := range []string{"E4M3FN", "E2M1", "FP16", "BF16"} {
		assert.Contains(t, err.Error(), n)
	}
	_, err = Lookup("bf16")
	assert.ErrorIs(t, err, ErrUnknownFormat, "Lookup finds minifloats only")
}

func TestE8M0ScaleRules(t *testing.T) {
	enc := func(x float64, r ScaleRounding) float64 {
		c, err := EncodeE8M0(x, r)
		require.NoError(t, err)
		return E8M0.Decode(c)
	}
	assert.Equal(t, 4.0, enc(5, ScaleFloor))
	assert.Equal(t, 8.0, enc(5, ScaleCeil))
	assert.Equal(t, 4.0, enc(5, ScaleNearestEven))
	assert.Equal(t, 8.0, enc(7, ScaleNearestEven))
	// 1.5·2^k is a tie; the even exponent code wins: 6 = 1.5·4 -> 8 (code 130), 3 = 1.5·2 -> 4 (code 129 odd? no: 2 is 128).
	assert.Equal(t, 8.0, enc(6, ScaleNearestEven), "code 130 is even")
	assert.Equal(t, 2.0, enc(3, ScaleNearestEven), "code 128 is even")
	assert.Equal(t, 4.0, enc(4, ScaleCeil), "exact powers stay")
	assert.Equal(t, 0x1p127, enc(1e300, ScaleCeil), "saturates")
	assert.Equal(t, 0x1p-127, enc(1e-300, ScaleFloor), "raised to the smallest scale")
	c, err := EncodeE8M0(math.NaN(), ScaleFloor)
	require.NoError(t, err)
	assert.Equal(t, uint8(0xFF), c)
	_, err = EncodeE8M0(0, ScaleFloor)
	assert.ErrorIs(t, err, ErrZero)
	_, err = E8M0Exponent(0xFF)
	assert.ErrorIs(t, err, ErrCode)
	k, err := E8M0Exponent(E8M0FromExponent(-200))
	require.NoError(t, err)
	assert.Equal(t, -127, k)
	r, err := ParseScaleRounding("ceil")
	require.NoError(t, err)
	assert.Equal(t, ScaleCeil, r)
	_, err = ParseScaleRounding("up")
	assert.Error(t, err)
}

func TestExplain(t *testing.T) {
	ci, err := E4M3FN.Describe(0x7E)
	require.NoError(t, err)
	assert.Equal(t, Number(448), ci.Value)
	assert.Equal(t, ClassMax, ci.Class)
	assert.Equal(t, "0.1111.110", ci.Bits)
	assert.Equal(t, 8, ci.Power)
	assert.Equal(t, Number(32), ci.ULP)
	_, err = E2M1.Describe(0x10)
	assert.ErrorIs(t, err, ErrCode)

	ex, err := E4M3FN.Explain(0.3952, Mode{})
	require.NoError(t, err)
	assert.Equal(t, Number(0.40625), ex.Result.Value)
	assert.Equal(t, Number(0.375), ex.Lower)
	assert.Equal(t, Number(0.40625), ex.Upper)
	assert.InDelta(t, (0.3952-0.375)/0.03125, ex.UpProbability, 1e-12)
	assert.InDelta(t, 0.40625-0.3952, float64(ex.AbsError), 1e-15)
	assert.False(t, ex.Overflow)

	ex, err = E4M3FN.Explain(500, Mode{})
	require.NoError(t, err)
	assert.True(t, ex.Overflow)
	assert.Equal(t, Number(448), ex.Lower)
	assert.True(t, math.IsInf(float64(ex.Upper), 1))

	ex, err = E4M3FN.Explain(1e-4, Mode{})
	require.NoError(t, err)
	assert.True(t, ex.Underflow)
	assert.Equal(t, ClassZero, ex.Result.Class)

	ex, err = E5M2.Explain(math.Inf(-1), Mode{Overflow: NoSaturate})
	require.NoError(t, err)
	assert.Equal(t, ClassInf, ex.Result.Class)
	b, err := json.Marshal(ex)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"value":"-Inf"`)
	assert.Contains(t, string(b), `"class":"inf"`)

	_, err = E4M3FN.Explain(1, Mode{Round: Stochastic, RandomBits: 3})
	assert.True(t, errors.Is(err, ErrInvalidMode))
}

func TestClassesOfE4M3FN(t *testing.T) {
	count := map[Class]int{}
	for c := 0; c < 256; c++ {
		ci, err := E4M3FN.Describe(uint8(c))
		require.NoError(t, err)
		count[ci.Class]++
	}
	assert.Equal(t, map[Class]int{ClassZero: 2, ClassSubnormal: 14, ClassNormal: 236, ClassMax: 2, ClassNaN: 2}, count)
}

func TestOverflows(t *testing.T) {
	ne := Mode{}
	assert.False(t, E4M3FN.Overflows(448, ne))
	assert.False(t, E4M3FN.Overflows(464, ne), "a tie that rounds to 448")
	assert.False(t, E4M3FN.Overflows(448.00003, ne), "rounds to 448: no clipping")
	assert.True(t, E4M3FN.Overflows(464.00001, ne))
	assert.True(t, E4M3FN.Overflows(-465, ne))
	assert.False(t, E5M2.Overflows(61439.99, ne))
	assert.True(t, E5M2.Overflows(61440, ne), "the tie goes to the even would-be 65536")
	assert.False(t, E4M3FN.Overflows(479, Mode{Round: TowardZero}))
	assert.True(t, E4M3FN.Overflows(480, Mode{Round: TowardZero}))
	assert.True(t, E4M3FN.Overflows(448.5, Mode{Round: AwayFromZero}))
	sr := Mode{Round: Stochastic, RandomBits: 8}
	assert.True(t, E4M3FN.Overflows(449, sr), "can round up past 448")
	assert.False(t, E4M3FN.Overflows(447, sr))
	assert.False(t, E4M3FN.Overflows(math.Inf(1), ne))
	assert.False(t, E4M3FN.Overflows(math.NaN(), ne))
	// Agrees with Explain's flag on every interesting input.
	for _, x := range interestingInputs(newRef(E4M3FN.Spec())) {
		ex, err := E4M3FN.Explain(x, ne)
		require.NoError(t, err)
		if !math.IsInf(x, 0) && !math.IsNaN(x) {
			assert.Equal(t, ex.Overflow, E4M3FN.Overflows(x, ne), "%v", x)
		}
	}
}

func TestDecodeSlicesMatchDecode(t *testing.T) {
	for _, n := range []int{0, 1, 3, 4, 5, 257, 1<<16 + 3} {
		src := make([]uint8, n)
		for i := range src {
			src[i] = uint8(i*37 + 11)
		}
		d32, d64 := make([]float32, n), make([]float64, n)
		require.NoError(t, E5M2.DecodeSlice32(d32, src))
		require.NoError(t, E5M2.DecodeSlice(d64, src))
		for i, c := range src {
			want := E5M2.Decode(c)
			if math.IsNaN(want) {
				require.True(t, math.IsNaN(d64[i]) && math.IsNaN(float64(d32[i])), "n=%d i=%d", n, i)
				continue
			}
			require.Equal(t, want, d64[i], "n=%d i=%d", n, i)
			require.Equal(t, float32(want), d32[i], "n=%d i=%d", n, i)
		}
	}
	assert.ErrorIs(t, E5M2.DecodeSlice32(make([]float32, 2), make([]uint8, 3)), ErrLength)
}
