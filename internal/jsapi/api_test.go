//go:build !js

package jsapi

import (
	"testing"

	"github.com/fp8lab/fp8lab/internal/apitest"
)

// TestAPIOnZeroValues: every exported function and method of the
// package's Go side, called with nil, zero, one-element and out-of-range
// arguments (and on nil and zero receivers), returns instead of panicking
// (issue 26 item 8; see internal/apitest). The JavaScript side has its
// hostile cases in Node (hostileJSCases, scanHostileCases).
func TestAPIOnZeroValues(t *testing.T) {
	apitest.Check(t, apitest.API{
		Types: []any{(*Headless)(nil), Opts(nil)},
		Funcs: []any{ExtractNPY, NewHeadless, NewScene, ParseOverflow, Plain, ReadTensor, Render, Scan, SceneInfo, SceneList, ToUint64},
	})
}
