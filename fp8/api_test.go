package fp8

import (
	"testing"

	"github.com/fp8lab/fp8lab/internal/apitest"
)

// TestAPIOnZeroValues: every exported function and method, called with
// nil, zero, one-element and out-of-range arguments (and on nil and zero
// receivers), returns instead of panicking (issue 26 item 8; see
// internal/apitest).
func TestAPIOnZeroValues(t *testing.T) {
	apitest.Check(t, apitest.API{
		Types: []any{Class(0), (*Format)(nil), Number(0), Overflow(0), Rounding(0), ScaleRounding(0), Spec{}, Specials(0),
			StochasticRule(0), (*Wide)(nil)},
		Funcs: []any{E8M0Exponent, E8M0FromExponent, EncodeE8M0, Lookup, LookupAny, MXScale, NewFormat, ParseNumber, ParseOverflow,
			ParseRounding, ParseScaleRounding, ParseStochasticRule, ParseText, Presets},
	})
}
