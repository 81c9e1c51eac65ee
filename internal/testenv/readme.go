package testenv

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// ReadmeOutput checks that README.md in the test's directory (an
// example's) shows out, what `go run` of the example printed, as one of its
// fenced blocks, exactly. On a difference it reports the first line that
// differs from the closest block and the command that prints the output to
// paste (cmd, such as "go run ./examples/formats").
func ReadmeOutput(tb testing.TB, cmd, out string) {
	tb.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		tb.Fatalf("README.md: %v", err)
	}
	readme := strings.ReplaceAll(string(b), "\r\n", "\n")
	if strings.Contains(readme, "```\n"+out+"```\n") {
		return
	}
	want := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	best, bestLine, bestGot := -1, "", ""
	for i, block := range strings.Split(readme, "```")[1:] {
		if i%2 == 1 {
			continue // text between blocks
		}
		got := strings.Split(strings.Trim(block, "\n"), "\n")
		same := 0
		for same < len(got) && same < len(want) && got[same] == want[same] {
			same++
		}
		if same > best {
			best, bestLine, bestGot = same, "", ""
			if same < len(want) {
				bestLine = want[same]
			}
			if same < len(got) {
				bestGot = got[same]
			}
		}
	}
	tb.Errorf("README.md does not show the output of %s: line %d prints\n\t%q\nbut the README has\n\t%q\n(paste the whole output of %s)", cmd, best+1, bestLine, bestGot, cmd)
}

// Step names step n of a checklist of docs/architecture.md ("Add a
// format", "Add a granularity", "Add a scene") in the message of the test
// that fails when the step is left out; internal/archdoc checks that every
// step named so exists, and that every step is named by some test.
func Step(checklist string, n int) string {
	return fmt.Sprintf("docs/architecture.md, %s, step %d", checklist, n)
}
