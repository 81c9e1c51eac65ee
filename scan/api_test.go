package scan

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
		Types: []any{Histogram{}, Layout(0), Progress{}, (*Result)(nil), View{}},
		Funcs: []any{DefaultRecipes, Describe, Measure, ParseFormats, ParseLayout, ParseRecipes, Recipes, Run, SmallestPositive, TensorWindow},
	})
}
