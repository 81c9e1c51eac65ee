package accum

import (
	"testing"

	"github.com/fp8lab/fp8lab/internal/apitest"
)

// TestAPIOnZeroValues: every exported function, called with nil, zero,
// one-element and out-of-range arguments, returns instead of panicking
// (see internal/apitest).
func TestAPIOnZeroValues(t *testing.T) {
	apitest.Check(t, apitest.API{
		Funcs: []any{Operands, Study},
	})
}
