package launch

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
		Types: []any{Config{}, (*Kernels)(nil), Layout{}, LinearOut{}, LinearShape{}, (*Program)(nil)},
		Funcs: []any{Bool, Bytes[float32], CheckLinear, F32, F64, FormatID, FusedLanes, I32, I64, NewLayout, Null, Ptr, ReadLinear, U64,
			Upload[float32]},
	})
}
