package fp8

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestProperties checks each property against the format's decoded codes
// and its encoder, not against the Spec fields the properties read.
func TestProperties(t *testing.T) {
	seen := map[string]map[bool]bool{}
	note := func(name string, v bool) {
		if seen[name] == nil {
			seen[name] = map[bool]bool{}
		}
		seen[name][v] = true
	}
	for _, f := range Presets() {
		var zero, negZero, negative, nonPow2 bool
		sp := f.Spec()
		var belowNormal bool // a code with a zero exponent field and a non-zero mantissa is a non-zero number
		for _, c := range f.Codes() {
			exp := int(c>>sp.ManBits) & (1<<sp.ExpBits - 1)
			man := int(c) & (1<<sp.ManBits - 1)
			if v := f.Decode(c); exp == 0 && man != 0 && v != 0 && !math.IsNaN(v) {
				belowNormal = true
			}
			v := f.Decode(c)
			switch {
			case v == 0 && math.Signbit(v):
				negZero, zero = true, true
			case v == 0:
				zero = true
			case math.IsNaN(v) || math.IsInf(v, 0):
			default:
				negative = negative || v < 0
				if frac, _ := math.Frexp(math.Abs(v)); frac != 0.5 {
					nonPow2 = true
				}
			}
		}
		beyond := f.Max() * 4
		c, err := f.Encode(beyond, Mode{Overflow: NoSaturate})
		saturates := err == nil && c == f.MaxCode()
		name := f.Name()
		assert.Equal(t, zero, f.HasZero(), name)
		assert.Equal(t, negZero, f.HasNegativeZero(), name)
		assert.Equal(t, negative, f.Signed(), name)
		assert.Equal(t, belowNormal, f.HasSubnormals(), name)
		assert.Equal(t, saturates, f.AlwaysSaturates(), name)
		assert.Equal(t, !nonPow2, f.PowersOfTwo(), name)
		for k, v := range map[string]bool{"zero": zero, "negzero": negZero, "sub": belowNormal, "sat": saturates, "pow2": !nonPow2} {
			note(k, v)
		}
	}
	for k, v := range seen {
		assert.True(t, v[true] && v[false], "the presets show %s both ways", k)
	}
}
