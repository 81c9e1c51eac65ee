package viz

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// outcomeWords are words that predict what a control will do to the
// result ("rescues FP4", "saturates some values", "too few bias it"):
// claims that hold in some settings and not in others. A help text says
// what the control does; the explanation, built from claims, says what
// came of it (issue 23).
var outcomeWords = regexp.MustCompile(`(?i)\b(rescues?|helps?|hurts?|no longer|too few|too many|at once|saturates|never saturates|clips|flushes|biase?d?|better|worse|improves?|always)\b`)

func TestHelpSaysWhatAControlDoes(t *testing.T) {
	for _, name := range Names() {
		s, err := New(name)
		require.NoError(t, err)
		for _, p := range s.Params() {
			assert.NotRegexp(t, outcomeWords, p.Help, "%s.%s: a help text predicts an outcome", name, p.Name)
		}
	}
}
