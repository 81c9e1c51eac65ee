package wasmbuild

import (
	"context"
	"errors"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInstalledVersion(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"}}
	for _, c := range []struct {
		name     string
		bi       *debug.BuildInfo
		want     string
		fromMods bool
	}{
		{"go install of a tag", &debug.BuildInfo{Main: debug.Module{Path: ModulePath, Version: "v1.2.3"}}, "v1.2.3", true},
		{"go install of a commit", &debug.BuildInfo{Main: debug.Module{Path: ModulePath, Version: "v0.0.0-20251127004512-0123456789ab"}},
			"v0.0.0-20251127004512-0123456789ab", true},
		{"go run ./cmd/fp8lab", &debug.BuildInfo{Main: debug.Module{Path: ModulePath, Version: "(devel)"}}, "", false},
		{"go build in a clean checkout: Go derives the version from the tags and stamps the VCS",
			&debug.BuildInfo{Main: debug.Module{Path: ModulePath, Version: "v1.2.3"}, Settings: vcs}, "", false},
		{"go build in a modified checkout", &debug.BuildInfo{Main: debug.Module{Path: ModulePath, Version: "v1.2.4-0.20251127004512-0123456789ab+dirty"}}, "", false},
		{"another main module", &debug.BuildInfo{Main: debug.Module{Path: "example.com/other", Version: "v1.2.3"}}, "", false},
		{"no version", &debug.BuildInfo{Main: debug.Module{Path: ModulePath}}, "", false},
		{"no build information", nil, "", false},
	} {
		got, ok := InstalledVersion(c.bi)
		assert.Equal(t, c.fromMods, ok, c.name)
		assert.Equal(t, c.want, got, c.name)
	}
}

func TestFindSourceOfACheckoutBuild(t *testing.T) {
	root := fakeModule(t)
	devel := &debug.BuildInfo{Main: debug.Module{Path: ModulePath, Version: "(devel)"}}
	src, err := FindSource(context.Background(), "", filepath.Join(root, "lib"), devel)
	require.NoError(t, err)
	assert.Equal(t, Source{Root: root}, src)
	assert.Equal(t, "the checkout in "+root, src.String())

	_, err = FindSource(context.Background(), "", t.TempDir(), devel)
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrNoCheckout))
	for _, want := range []string{"(devel)", "go run ./cmd/fp8lab", "go install " + ModulePath + "/cmd/fp8lab@latest", "--dir"} {
		assert.Contains(t, err.Error(), want, "the error says what to do")
	}
}

func TestFindSourceOfAnInstalledBuild(t *testing.T) {
	installed := &debug.BuildInfo{Main: debug.Module{Path: ModulePath, Version: "v9.9.9"}}

	// No go command: one line that says what to do.
	_, err := FindSource(context.Background(), "no-such-go-command", t.TempDir(), installed)
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrNoGo))
	assert.NotContains(t, err.Error(), "\n")
	assert.Contains(t, err.Error(), "https://go.dev/dl/")

	// A version the module cache lacks and cannot download: the go
	// command's reason, with the version it looked for. A checkout around
	// the folder is not a fallback, since its pages may not match.
	t.Setenv("GOMODCACHE", t.TempDir())
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-modcacherw")
	_, err = FindSource(context.Background(), "", fakeModule(t), installed)
	require.Error(t, err)
	assert.Contains(t, err.Error(), ModulePath+"@v9.9.9")
	assert.Contains(t, err.Error(), "GOPROXY=off")
	assert.False(t, strings.Contains(err.Error(), "{"), "the reason, not the JSON: %v", err)
}

func TestModuleSourceFindsTheCacheOffline(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("GOMODCACHE", cache)
	t.Setenv("GOPROXY", "off") // any question to a proxy fails
	t.Setenv("GOFLAGS", "-modcacherw")
	const version = "v1.2.3-RC.1" // upper case is escaped as !r!c
	dir := filepath.Join(cache, "github.com", "fp8lab", "fp8lab@v1.2.3-!r!c.1")
	meta := filepath.Join(cache, "cache", "download", "github.com", "fp8lab", "fp8lab", "@v", "v1.2.3-!r!c.1")
	writeTree(t, dir, map[string]string{"go.mod": "module " + ModulePath + "\n"})
	writeTree(t, filepath.Dir(meta), map[string]string{filepath.Base(meta) + ".ziphash": "h1:x\n"})

	src, err := ModuleSource(context.Background(), "", version)
	require.NoError(t, err)
	assert.Equal(t, Source{Root: dir, Version: version}, src)
	assert.Equal(t, ModulePath+"@"+version+" in the module cache", src.String())

	// An extraction under way is not a copy to build from: the go command
	// is asked, and here it may not download.
	writeTree(t, filepath.Dir(meta), map[string]string{filepath.Base(meta) + ".partial": ""})
	_, err = ModuleSource(context.Background(), "", version)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "GOPROXY=off")
}
