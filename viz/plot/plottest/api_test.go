package plottest

import (
	"testing"

	"github.com/fp8lab/fp8lab/internal/apitest"
)

// TestAPIOnZeroValues: every exported function and method, called with
// nil, zero, one-element and out-of-range arguments (and on nil and zero
// receivers), returns instead of panicking (see internal/apitest).
func TestAPIOnZeroValues(t *testing.T) {
	apitest.Check(t, apitest.API{
		Types: []any{(*Axes)(nil), LegendPlacement{}, TextBox{}},
		Funcs: []any{ObserveAxes, ObserveLegends, ProbeText, RecordText, TextOverlaps},
	})
}
