package parity

import (
	"testing"

	"github.com/fp8lab/fp8lab/internal/apitest"
)

// TestAPIOnZeroValues: every exported function and method, called with
// nil, zero, one-element and out-of-range arguments (and on nil and zero
// receivers), returns instead of panicking (see internal/apitest).
func TestAPIOnZeroValues(t *testing.T) {
	apitest.Check(t, apitest.API{
		Types: []any{(*DumpManifest)(nil), InputKind(0), (*Report)(nil)},
		Funcs: []any{Dump, MakeInput, Run},
	})
}
