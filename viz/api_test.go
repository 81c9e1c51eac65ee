package viz

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
		Types: []any{(*TrainingRunner)(nil)},
		Funcs: []any{ClickFor, Names, New, NewTrainingRunner, Problems, Render, RenderFor, RenderScene, Scenes, SetAll, SmallestText, TensorScenes, WritePNG},
	})
}
