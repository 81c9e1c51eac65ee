package viz

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCatalogComplete checks, for every scene of the catalog, each step of
// the scene checklist that a file or a table shows (1, 3 to 9), and names
// the step that was left out.
func TestCatalogComplete(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	list, _, _ := strings.Cut(string(readme[strings.Index(string(readme), "The visualizations ("):]), ")")
	list = strings.Join(strings.Fields(list), " ")
	for _, in := range Scenes() {
		name := in.Name
		exists := func(path string) bool {
			_, err := os.Stat(path)
			return err == nil
		}
		assert.True(t, exists(name+".go"), "%s: viz/%s.go holds the scene (%s)", name, name, testenv.Step("Add a scene", 1))
		assert.True(t, exists(name+"_explain.go"), "%s: viz/%s_explain.go holds Explain (%s)", name, name, testenv.Step("Add a scene", 3))
		_, ok := sweeps[name]
		assert.True(t, ok, "%s: no sweep registered in sweeps (viz/sweep_%s_test.go, %s)", name, name, testenv.Step("Add a scene", 4))
		assert.True(t, exists(name+"_test.go"), "%s: viz/%s_test.go tests what the sweep cannot see (%s)", name, name, testenv.Step("Add a scene", 5))
		assert.True(t, exists(filepath.Join("testdata", name+".png")), "%s: no golden picture (%s)", name, testenv.Step("Add a scene", 6))
		_, ok = sliders[name]
		assert.True(t, ok, "%s: BenchmarkRenderChanging has no slider for it (viz/bench_test.go, %s)", name, testenv.Step("Add a scene", 7))
		assert.True(t, exists(filepath.Join("..", "docs", "figures", name+".png")), "%s: no docs/figures/%s.png (go tool task figures, %s)", name, name, testenv.Step("Add a scene", 8))
		assert.Contains(t, strings.ToLower(list), strings.ToLower(in.Label), "%s: README.md's list of visualizations does not name %q (%s)", name, in.Label, testenv.Step("Add a scene", 9))
	}
}

// TestFilesFollowTheNamingRule checks the file-naming rule of the package
// doc (doc.go): every source file belongs to a scene of the catalog by its
// name (NAME.go, NAME_PART.go) or is one of the shared files the doc lists,
// and every file the doc lists exists.
func TestFilesFollowTheNamingRule(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	require.NoError(t, err)
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^//\t([a-z_]+\.go) +\S`).FindAllStringSubmatch(string(doc), -1) {
		listed[m[1]] = true
	}
	require.NotEmpty(t, listed, "doc.go lists no shared files")

	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var stray []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "doc.go" {
			continue
		}
		if listed[f] {
			delete(listed, f)
			continue
		}
		if sceneOf(strings.TrimSuffix(f, ".go")) == "" {
			stray = append(stray, f)
		}
	}
	assert.Empty(t, stray, "files neither named after a scene of the catalog (NAME.go, NAME_PART.go) nor listed in doc.go's shared files (%s)", testenv.Step("Add a scene", 1))
	missing := make([]string, 0, len(listed))
	for f := range listed {
		missing = append(missing, f)
	}
	sort.Strings(missing)
	assert.Empty(t, missing, "doc.go lists files that do not exist")
}

// sceneOf returns the catalog scene a file's base name belongs to by the
// naming rule, or "".
func sceneOf(base string) string {
	for _, in := range Scenes() {
		if base == in.Name || strings.HasPrefix(base, in.Name+"_") {
			return in.Name
		}
	}
	return ""
}
