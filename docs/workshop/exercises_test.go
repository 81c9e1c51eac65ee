// Package workshop holds the workshop's checks: the exercises must start red
// for students and pass with the instructor's solutions (build tag solutions).
package workshop

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exercises is the folder of the exercise packages. Its leading underscore
// keeps them out of ./... patterns, so the repository's suite does not run
// the red student copies directly; this test runs them by explicit path.
const exercises = "_exercises"

// goTest runs go test on the exercises with extra arguments and returns
// the combined output and whether it succeeded.
func goTest(t *testing.T, args ...string) (string, bool) {
	t.Helper()
	dirs := exerciseDirs(t)
	cmd := exec.Command("go", append(append([]string{"test", "-count=1", "-short"}, args...), dirs...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, "go test did not run: %s", out)
	}
	return string(out), err == nil
}

// exerciseDirs returns ./_exercises/NAME for every exercise folder.
func exerciseDirs(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(exercises)
	require.NoError(t, err)
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, "./"+exercises+"/"+e.Name())
		}
	}
	require.GreaterOrEqual(t, len(dirs), 6, "6–8 exercises")
	require.LessOrEqual(t, len(dirs), 8, "6–8 exercises")
	return dirs
}

// exercisePackages returns the import paths of the exercises.
func exercisePackages(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, exerciseDirs(t)...)...).Output()
	require.NoError(t, err)
	return strings.Fields(string(out))
}

func TestSolutionsPass(t *testing.T) {
	out, ok := goTest(t, "-tags", "solutions")
	assert.True(t, ok, "with -tags solutions every exercise must pass:\n%s", out)
	for _, p := range exercisePackages(t) {
		assert.Regexp(t, regexp.MustCompile(`(?m)^ok\s+`+regexp.QuoteMeta(p)+`\s`), out)
	}
}

func TestExercisesStartRed(t *testing.T) {
	out, ok := goTest(t)
	assert.False(t, ok, "without solutions the exercises must fail")
	for _, p := range exercisePackages(t) {
		// Each package must fail its tests (not its build: the student's
		// copy compiles and the message tells what to do).
		assert.Regexp(t, regexp.MustCompile(`(?m)^FAIL\s+`+regexp.QuoteMeta(p)+`\s`), out, "package %s must fail", p)
		assert.NotContains(t, out, p+" [build failed]")
	}
	assert.Contains(t, out, "exercise: write this function — see README.md")
}
