package fp8

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Number is a float64 that marshals to JSON as a number, or as the strings
// "NaN", "+Inf" and "-Inf", which JSON cannot express as numbers.
type Number float64

// MarshalJSON implements json.Marshaler.
func (n Number) MarshalJSON() ([]byte, error) {
	return []byte(n.jsonText()), nil
}

func (n Number) jsonText() string {
	v := float64(n)
	switch {
	case math.IsNaN(v):
		return `"NaN"`
	case math.IsInf(v, 1):
		return `"+Inf"`
	case math.IsInf(v, -1):
		return `"-Inf"`
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// String formats the number with the shortest text that reads back exactly
// ("NaN", "+Inf" and "-Inf" for the specials).
func (n Number) String() string {
	if math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
		t := n.jsonText()
		return t[1 : len(t)-1]
	}
	return n.jsonText()
}

// ErrSyntax is returned by ParseText for text that is not a number.
var ErrSyntax = errors.New("fp8: invalid number")

// Bounds of the exact path of ParseText. Significant digits beyond
// maxTextDigits are folded into a sticky digit: a float64 boundary has at
// most about 1,100 significant decimal digits (a few hundred hex ones), so
// it can never fall strictly between the kept digits and the next value of
// the last kept digit, and the folding changes no rounding.
const (
	maxTextDigits = 2000
	maxTextExp    = 1_000_000_000 // larger written exponents saturate here
)

// ParseText reads a number written as text: a decimal ("1.0625", "-3e-7"),
// a hexadecimal float with a binary exponent ("0x1.8p-3"), a power of two
// "2^k" or "2**k" ("2^-9", "-2**10", exactly 0x1pk), or nan, inf and
// infinity with an optional sign, in any case. Surrounding spaces are
// ignored; underscores and empty text are errors wrapping ErrSyntax.
//
// The result rounds like the text itself, exactly once, into every Format
// and Wide of this package in every Mode, stochastic rounding with up to 32
// random bits included. It is the float64 nearest to the text whenever that
// float64 cannot lie on a rounding boundary of any of them (it has at least
// 45 significant bits) or is the text's exact value. Otherwise it is the
// text's value truncated to 53 bits with the last bit set when anything was
// dropped (round to odd): like the text, it lies strictly between two
// boundaries, so "1.06250000000000000001" rounds up to 0x39 in E4M3FN while
// strconv.ParseFloat gives 1.0625, a tie that goes to 0x38. Such a result
// can differ from strconv.ParseFloat's by one unit in the last place.
//
// Beyond float64's range the result is ±math.MaxFloat64, which overflows
// every format as the text does ("1e400" saturates, or gives Inf or NaN under
// NoSaturate, like any other large value); a nonzero value below 2^-1000
// that is not a float64 gives ±2^-1074, which rounds like it (to zero, or to
// the smallest value when rounding away from zero). NaN keeps the sign written: "-nan" has its
// sign bit set.
func ParseText(s string) (float64, error) {
	t := strings.TrimSpace(s)
	body, neg := t, false
	if body != "" && (body[0] == '+' || body[0] == '-') {
		body, neg = body[1:], body[0] == '-'
	}
	sgn := 1.0
	if neg {
		sgn = -1
	}
	switch strings.ToLower(body) {
	case "nan":
		return math.Copysign(math.NaN(), sgn), nil
	case "inf", "infinity":
		return math.Inf(int(sgn)), nil
	}
	n, err := scanText(body)
	if err != nil {
		return 0, fmt.Errorf("%w %q", ErrSyntax, s)
	}
	// Fast path: a float64 with 45 or more significant bits is no boundary.
	if x, err := strconv.ParseFloat(t, 64); err == nil {
		if a := math.Abs(x); a >= 0x1p-1022 && a <= math.MaxFloat64 && math.Float64bits(x)&0x1FF != 0 {
			return x, nil
		}
	}
	return math.Copysign(n.roundOdd(), sgn), nil
}

// textNumber is the magnitude of a number read from text: digits (decimal or
// hex, no leading or trailing zeros) times base^exp, where base is 10 or 16,
// times 2^exp2 for hex floats.
type textNumber struct {
	digits string
	hex    bool
	exp    int // power of 10 (decimal) or of 16 (hex) applied to the digits
	exp2   int // binary exponent of hex floats
}

// scanText parses an unsigned decimal or hex float.
func scanText(s string) (textNumber, error) {
	var n textNumber
	if e, ok, err := scanPow2(s); ok {
		// 2^k is the hex float 0x1pk: exact for every k.
		return textNumber{digits: "1", hex: true, exp2: e}, err
	}
	isDigit := func(c byte) bool { return '0' <= c && c <= '9' }
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		n.hex, s = true, s[2:]
		isDigit = func(c byte) bool {
			return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f'
		}
	}
	var digits []byte
	seen, dot := false, false
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case isDigit(c):
			seen = true
			digits = append(digits, c)
			if dot {
				n.exp--
			}
		case c == '.' && !dot:
			dot = true
		default:
			goto exponent
		}
	}
exponent:
	if !seen {
		return n, ErrSyntax
	}
	rest := s[i:]
	marker := "eE"
	if n.hex {
		marker = "pP"
	}
	switch {
	case rest == "" && !n.hex:
	case rest != "" && strings.IndexByte(marker, rest[0]) >= 0:
		e, err := scanExponent(rest[1:])
		if err != nil {
			return n, err
		}
		if n.hex {
			n.exp2 = e
		} else {
			n.exp += e
		}
	default:
		return n, ErrSyntax // hex floats need a p exponent, as in strconv
	}
	d := strings.TrimLeft(string(digits), "0")
	trimmed := strings.TrimRight(d, "0")
	n.exp += len(d) - len(trimmed)
	n.digits = trimmed
	if len(n.digits) > maxTextDigits {
		sticky := strings.Trim(n.digits[maxTextDigits:], "0") != ""
		n.exp += len(n.digits) - maxTextDigits
		n.digits = n.digits[:maxTextDigits]
		if sticky { // a digit strictly between the kept value and the next
			n.digits += "1"
			n.exp--
		}
	}
	return n, nil
}

// scanPow2 reads a power of two written "2^k" or "2**k" (k an integer with
// an optional sign, decimal digits only); ok reports whether s has that form
// at all, err whether its exponent is malformed.
func scanPow2(s string) (k int, ok bool, err error) {
	switch {
	case strings.HasPrefix(s, "2**"):
		s = s[3:]
	case strings.HasPrefix(s, "2^"):
		s = s[2:]
	default:
		return 0, false, nil
	}
	k, err = scanExponent(s)
	return k, true, err
}

// scanExponent reads [+-]digits, saturating at ±maxTextExp.
func scanExponent(s string) (int, error) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	if s == "" {
		return 0, ErrSyntax
	}
	e := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, ErrSyntax
		}
		e = min(e*10+int(s[i]-'0'), maxTextExp)
	}
	if neg {
		e = -e
	}
	return e, nil
}

// roundOdd returns the magnitude rounded to 53 bits by truncation, with the
// last bit set when the truncation dropped anything, clamped as ParseText
// documents.
func (n textNumber) roundOdd() float64 {
	if n.digits == "" {
		return 0
	}
	base := 10
	if n.hex {
		base = 16
	}
	num, _ := new(big.Int).SetString(n.digits, base)
	// The value lies in [base^(top-1), base^top); bound it in powers of two
	// before any big power is formed.
	top := n.exp + len(n.digits)
	lg := 3.33 // log2(10), rounded so that the tests below stay conservative
	if n.hex {
		lg = 4
	}
	hi := float64(top)*lg + float64(n.exp2)       // log2 of an upper bound
	lo := float64(top-1)*lg - 1 + float64(n.exp2) // log2 of a lower bound
	switch {
	case lo >= 1030:
		return math.MaxFloat64
	case hi <= -1100: // below every float64
		return math.SmallestNonzeroFloat64
	}
	den := big.NewInt(1)
	e2 := n.exp2
	switch {
	case n.hex:
		e2 += 4 * n.exp
	case n.exp >= 0:
		num.Mul(num, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n.exp)), nil))
	default:
		den.Exp(big.NewInt(10), big.NewInt(int64(-n.exp)), nil)
	}
	// q = floor(num·2^sh / den) with at least 54 bits.
	sh := 55 - (num.BitLen() - den.BitLen())
	q, r := new(big.Int), new(big.Int)
	if sh >= 0 {
		q.QuoRem(new(big.Int).Lsh(num, uint(sh)), den, r)
	} else {
		q.QuoRem(num, new(big.Int).Lsh(den, uint(-sh)), r)
	}
	drop := uint(q.BitLen() - 53)
	sticky := r.Sign() != 0 || q.TrailingZeroBits() < drop
	m := new(big.Int).Rsh(q, drop).Uint64()
	if sticky {
		m |= 1
	}
	e := int(drop) - sh + e2 // value ≈ m·2^e, 2^52 <= m < 2^53
	switch {
	case e+52 > 1023:
		return math.MaxFloat64
	case e+52 < -1000 && (sticky || e < -1074 && m&(1<<uint(-1074-e)-1) != 0):
		// Not a float64 (every Format rounds all of (0, 2^-1000) alike).
		return math.SmallestNonzeroFloat64
	}
	return math.Ldexp(float64(m), e)
}

// EncodeString rounds the number written in s (see ParseText) to a code of f
// in mode m, once, from its exact value.
func (f *Format) EncodeString(s string, m Mode) (uint8, error) {
	if err := f.check(); err != nil {
		return 0, err
	}
	x, err := ParseText(s)
	if err != nil {
		return 0, err
	}
	return f.Encode(x, m)
}
