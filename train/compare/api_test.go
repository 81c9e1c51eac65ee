package compare

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
		Types: []any{BoundVerdict{}, Difference{}, Metric(0), Outcome(0), (*Plan)(nil), (*Row)(nil), (*Set)(nil), Spike{}, (*Summary)(nil), Verdict{}},
		Funcs: []any{Compare, DefaultBaseline, FinalTrain, Gap, Judge, JudgeBound, Header, OperandTotals, Run, RunCheckpoint, Summarize},
	})
}
