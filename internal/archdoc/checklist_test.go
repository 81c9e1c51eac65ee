package archdoc

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checklists reads the numbered steps of each checklist of
// docs/architecture.md ("### Add a format" and so on): checklist name ->
// step number -> the step's text.
func checklists(t *testing.T) map[string]map[int]string {
	b, err := os.ReadFile("../../docs/architecture.md")
	require.NoError(t, err)
	_, text, ok := strings.Cut(string(b), "\n## Checklists\n")
	require.True(t, ok, "docs/architecture.md has no Checklists section")
	out := map[string]map[int]string{}
	step := regexp.MustCompile(`^(\d+)\. `)
	var list string
	last := 0
	for _, line := range strings.Split(text, "\n") {
		if name, ok := strings.CutPrefix(line, "### "); ok {
			list, last = name, 0
			out[list] = map[int]string{}
			continue
		}
		if list == "" {
			continue
		}
		if m := step.FindStringSubmatch(line); m != nil {
			last, _ = strconv.Atoi(m[1])
			out[list][last] = line
		} else if last > 0 && strings.HasPrefix(line, "   ") {
			out[list][last] += " " + strings.TrimSpace(line)
		} else {
			last = 0
		}
	}
	return out
}

// untested are the steps no test can miss: the step is the thing added, or
// a test that cannot be named before it is written.
var untested = map[string]string{
	"Add a format/1":      "the preset itself (and the other libraries' spellings, which only the sources know): without it there is nothing to check",
	"Add a granularity/1": "the Kind constant itself",
	"Add a granularity/5": "a test against an independent computation: whether it is one is a reviewer's judgement",
	"Add a scene/2":       "the catalog line itself",
}

// TestChecklistsAreTests checks that every step a test names with
// testenv.Step exists in docs/architecture.md, and that every step of every
// checklist is named by a test or listed in untested with the reason.
func TestChecklistsAreTests(t *testing.T) {
	lists := checklists(t)
	require.Contains(t, lists, "Add a format")
	require.Contains(t, lists, "Add a granularity")
	require.Contains(t, lists, "Add a scene")
	for name, steps := range lists {
		for n := 1; n <= len(steps); n++ {
			assert.Contains(t, steps, n, "%s: steps are numbered 1..%d", name, len(steps))
		}
	}
	cite := regexp.MustCompile(`testenv\.Step\("([^"]+)", (\d+)\)`)
	cited := map[string]bool{}
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "tools" || strings.HasPrefix(d.Name(), ".")) && path != "../.." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range cite.FindAllStringSubmatch(string(b), -1) {
			n, _ := strconv.Atoi(m[2])
			_, ok := lists[m[1]][n]
			assert.True(t, ok, "%s names %s, step %d, which docs/architecture.md does not have", path, m[1], n)
			cited[m[1]+"/"+m[2]] = true
		}
		return nil
	})
	require.NoError(t, err)
	for name, steps := range lists {
		for n := range steps {
			key := name + "/" + strconv.Itoa(n)
			_, exempt := untested[key]
			assert.True(t, cited[key] != exempt, "%s, step %d: named by a test %v, listed as untested %v (exactly one must hold)", name, n, cited[key], exempt)
		}
	}
}

// TestDocsNameEveryGranularity checks the documents the granularity
// checklist sends a new kind to.
func TestDocsNameEveryGranularity(t *testing.T) {
	read := func(path string) string {
		b, err := os.ReadFile(filepath.Join("../..", path))
		require.NoError(t, err)
		return strings.Join(strings.Fields(string(b)), " ")
	}
	named := func(text, name string) bool {
		return regexp.MustCompile(`[^\w-]` + regexp.QuoteMeta(name) + `[^\w-]`).MatchString(text)
	}
	doc := read("scaling/doc.go")
	readme := read("README.md")
	wasm := read("wasm/README.md")
	_, limits, _ := strings.Cut(read("native/README.md"), "## Limits of the GPU backend")
	for _, g := range scaling.Granularities() {
		s := g.String()
		assert.True(t, named(doc, s), "scaling/doc.go does not name %s (%s)", s, testenv.Step("Add a granularity", 3))
		assert.True(t, named(readme, s), "README.md does not name %s (%s)", s, testenv.Step("Add a granularity", 6))
		assert.True(t, named(wasm, s), "wasm/README.md does not name %s (%s)", s, testenv.Step("Add a granularity", 6))
		if !g.GPUQuantizes() {
			assert.True(t, named(limits, s), "native/README.md's limits of the GPU do not name %s (%s)", s, testenv.Step("Add a granularity", 7))
		}
	}
}
