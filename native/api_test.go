package native

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
		Types: []any{(*CPU)(nil), Codec(0), (*DumpManifest)(nil), InputKind(0), Output(0), (*ParityReport)(nil), QuantizeOptions{}},
		Funcs: []any{AccumOperands, AccumStudy, CheckFWHT, CheckMatMul, Default, Dump, MakeInput, NewCPU, Parity, ParseCodec, ProductError,
			RoundOutput, SameFormat, ToBF16},
	})
}
