package train

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
		Types: []any{Config{}, (*NonFiniteError)(nil), OptimConfig{}, (*Recipe)(nil), (*Result)(nil), (*Trainer)(nil)},
		Funcs: []any{Classroom, ClassroomCorpus, ConfigByName, ConfigNames, GoSourceCorpus, LongK, NewTrainer, ParseConfig, ParseRecipe, ReadTextCorpus,
			RecipeByName, RecipeNames, Reference, Run, TextCorpus, Tiny},
	})
}
