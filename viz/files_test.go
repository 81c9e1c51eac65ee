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
