package fp8

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseNumber reads a number written as text in fp8lab's one grammar, which
// the command line (fp8lab encode), the tensor readers (CSV) and ParseText
// share: a
// decimal or hexadecimal floating-point literal as strconv.ParseFloat reads
// it ("1.5", "-2e-3", ".5", "0x1.8p-3") but without underscores, a power of
// two "2^k" or "2**k" ("2^-9" is 0x1p-9), or nan, inf
// or infinity with an optional sign, in any case. Spaces around the text are
// ignored. The literal is rounded once, to float32 when bitSize is 32 and to
// float64 when it is 64. "-nan" gives a NaN with its sign bit set.
//
// A finite literal beyond the range of bitSize gives ±Inf and an error
// wrapping strconv.ErrRange, as strconv.ParseFloat does; one that underflows
// gives zero or a subnormal without error. Any other text gives an error
// wrapping both ErrSyntax and strconv.ErrSyntax.
func ParseNumber(s string, bitSize int) (float64, error) {
	t := strings.TrimSpace(s)
	if bitSize != 32 && bitSize != 64 {
		return 0, fmt.Errorf("fp8: ParseNumber: bit size %d: %w", bitSize, strconv.ErrSyntax)
	}
	switch strings.ToLower(t) {
	case "nan", "+nan":
		return math.NaN(), nil
	case "-nan":
		return math.Copysign(math.NaN(), -1), nil
	case "inf", "+inf", "infinity", "+infinity":
		return math.Inf(1), nil
	case "-inf", "-infinity":
		return math.Inf(-1), nil
	case "":
		return 0, fmt.Errorf("empty value: %w", strconv.ErrSyntax)
	}
	// The syntax is ParseText's, checked by the same scanner, so the exact
	// and the float parsers accept the same texts.
	body := t
	if body[0] == '+' || body[0] == '-' {
		body = body[1:]
	}
	if _, err := scanText(body); err != nil {
		return 0, fmt.Errorf("invalid number %q: %w: %w", s, ErrSyntax, strconv.ErrSyntax)
	}
	if k, ok, _ := scanPow2(body); ok {
		// strconv reads hex floats: 2^k is 0x1pk, one exact rounding.
		t = t[:len(t)-len(body)] + "0x1p" + strconv.Itoa(k)
	}
	v, err := strconv.ParseFloat(t, bitSize)
	if err == nil {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			// strconv spells these in ways the cases above already took
			// ("NaN", "Inf"); anything else is not in the grammar.
			return 0, fmt.Errorf("invalid number %q: %w", s, strconv.ErrSyntax)
		}
		return v, nil
	}
	if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		if !math.IsInf(v, 0) {
			return v, nil // underflow to zero or a subnormal is still a number
		}
		return v, fmt.Errorf("%q is beyond float%d's range: %w", s, bitSize, strconv.ErrRange)
	}
	return 0, fmt.Errorf("invalid number %q: %w", s, strconv.ErrSyntax)
}
