package wasmbuild

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeTree creates files (slash-separated names) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
}

// fakeModule is a tiny module with the fp8lab path: a js-only main that
// imports lib (and, only on js, jsonly), an unrelated package, tests and an
// embedded folder.
func fakeModule(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"go.mod":                  "module " + ModulePath + "\n\ngo 1.24\n",
		"app/main.go":             "package main\n\nimport (\n\t\"fmt\"\n\n\t\"" + ModulePath + "/lib\"\n)\n\nfunc main() { fmt.Println(lib.X) }\n",
		"app/extra_js.go":         "package main\n\nimport _ \"" + ModulePath + "/jsonly\"\n",
		"app/extra_linux.go":      "package main\n\nimport _ \"" + ModulePath + "/linuxonly\"\n",
		"app/main_test.go":        "package main\n",
		"lib/lib.go":              "package lib\n\nimport _ \"embed\"\n\n//go:embed data\nvar data string\n\n// X is exported.\nvar X = 1\n",
		"lib/data/a.txt":          "a",
		"lib/data/.hidden":        "h",
		"lib/lib_test.go":         "package lib\n",
		"jsonly/j.go":             "package jsonly\n",
		"linuxonly/l.go":          "package linuxonly\n",
		"unrelated/u.go":          "package unrelated\n",
		"app/sub/ignored_note.md": "not Go",
	})
	return root
}

func TestFindModuleRoot(t *testing.T) {
	root := fakeModule(t)
	got, err := FindModuleRoot(filepath.Join(root, "lib", "data"))
	require.NoError(t, err)
	assert.Equal(t, root, got)

	// A nested module with another path is skipped on the way up.
	writeTree(t, root, map[string]string{"nested/go.mod": "module example.com/other\n", "nested/x/y.txt": ""})
	got, err = FindModuleRoot(filepath.Join(root, "nested", "x"))
	require.NoError(t, err)
	assert.Equal(t, root, got)

	elsewhere := t.TempDir()
	writeTree(t, elsewhere, map[string]string{"go.mod": "module example.com/other\n"})
	_, err = FindModuleRoot(elsewhere)
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrNoCheckout))
	assert.Contains(t, err.Error(), elsewhere)
}

func TestFindModuleRootOfThisRepository(t *testing.T) {
	root, err := FindModuleRoot(".")
	require.NoError(t, err)
	assert.FileExists(t, filepath.Join(root, "go.mod"))
	assert.DirExists(t, filepath.Join(root, "fp8"))
}

func TestLocalDepsFollowJSBuildConstraints(t *testing.T) {
	root := fakeModule(t)
	deps, err := LocalDeps(root, "./app")
	require.NoError(t, err)
	assert.Equal(t, []string{"app", "jsonly", "lib"}, deps)

	files, err := SourceFiles(root, "./app")
	require.NoError(t, err)
	assert.Equal(t, []string{"app/extra_js.go", "app/main.go", "go.mod", "jsonly/j.go", "lib/data/a.txt", "lib/lib.go"}, files)
}

func TestLocalDepsOfThePlayground(t *testing.T) {
	root, err := FindModuleRoot(".")
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(root, "wasm", "core")); err != nil {
		t.Skip("wasm/core does not exist in this checkout")
	}
	deps, err := LocalDeps(root, Core.Package)
	require.NoError(t, err)
	assert.Contains(t, deps, "fp8")
	assert.Contains(t, deps, "wasm/core")
	assert.NotContains(t, deps, "cmd/fp8lab", "the CLI is not part of the wasm")
	assert.NotContains(t, deps, "native")
}

func TestSourceHash(t *testing.T) {
	root := fakeModule(t)
	targets := []Target{{Package: "./app", File: "app.wasm"}}
	h1, err := SourceHash(root, "go1.26", targets)
	require.NoError(t, err)
	assert.Len(t, h1, 24)

	same := func(what string, edit func()) {
		t.Helper()
		edit()
		h, err := SourceHash(root, "go1.26", targets)
		require.NoError(t, err)
		assert.Equal(t, h1, h, what)
	}
	changed := func(what string, edit func()) {
		t.Helper()
		edit()
		h, err := SourceHash(root, "go1.26", targets)
		require.NoError(t, err)
		assert.NotEqual(t, h1, h, what)
		h1 = h
	}
	same("a test file", func() { writeTree(t, root, map[string]string{"lib/lib_test.go": "package lib\n// x\n"}) })
	same("an unrelated package", func() { writeTree(t, root, map[string]string{"unrelated/u.go": "package unrelated\n// x\n"}) })
	same("a file only linux builds use", func() { writeTree(t, root, map[string]string{"linuxonly/l.go": "package linuxonly\n// x\n"}) })
	same("a hidden file in an embedded folder", func() { writeTree(t, root, map[string]string{"lib/data/.hidden": "x"}) })
	changed("a dependency", func() {
		writeTree(t, root, map[string]string{"lib/lib.go": "package lib\n\nimport _ \"embed\"\n\n//go:embed data\nvar data string\n\n// X is exported.\nvar X = 2\n"})
	})
	changed("a js-only dependency", func() { writeTree(t, root, map[string]string{"jsonly/j.go": "package jsonly\n// x\n"}) })
	changed("an embedded file", func() { writeTree(t, root, map[string]string{"lib/data/a.txt": "b"}) })
	changed("go.mod", func() { writeTree(t, root, map[string]string{"go.mod": "module " + ModulePath + "\n\ngo 1.25\n"}) })
	changed("go.sum appears", func() { writeTree(t, root, map[string]string{"go.sum": ""}) })

	other, err := SourceHash(root, "go1.27", targets)
	require.NoError(t, err)
	assert.NotEqual(t, h1, other, "another Go version")
	other, err = SourceHash(root, "go1.26", []Target{{Package: "./app", File: "other.wasm"}})
	require.NoError(t, err)
	assert.NotEqual(t, h1, other, "another output name")

	_, err = SourceHash(root, "go1.26", []Target{{Package: "./missing", File: "x.wasm"}})
	assert.Error(t, err)
}

func TestEnsureBuildsOnceAndRebuildsWhenStale(t *testing.T) {
	// It compiles a small wasm: a few seconds with a warm build cache.
	root := fakeModule(t)
	cache := t.TempDir()
	var progress bytes.Buffer
	opts := Options{Root: root, CacheDir: cache, Targets: []Target{{Package: "./app", File: "app.wasm"}},
		Progress: &progress, Heartbeat: 50 * time.Millisecond}
	ctx := context.Background()

	res, err := Ensure(ctx, opts)
	require.NoError(t, err, progress.String())
	assert.True(t, res.Built)
	assert.Contains(t, progress.String(), "building the playground's WebAssembly")
	assert.Contains(t, progress.String(), "built the playground in")
	assert.Regexp(t, `(?m)^  building app\.wasm… \d+ s$`, progress.String(), "a heartbeat names what is built and the time so far")
	assert.Regexp(t, `(?m)^  built app\.wasm in \d+ s$`, progress.String())
	wasm, err := os.ReadFile(res.Files["app.wasm"])
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(wasm, []byte("\x00asm")), "a WebAssembly module")
	js, err := os.ReadFile(res.Files[WasmExec])
	require.NoError(t, err)
	assert.True(t, strings.Contains(string(js), "globalThis.Go = class"), "wasm_exec.js defines Go")
	assert.Equal(t, filepath.Join(cache, res.Hash), res.Dir)

	progress.Reset()
	again, err := Ensure(ctx, opts)
	require.NoError(t, err)
	assert.False(t, again.Built)
	assert.Equal(t, res.Dir, again.Dir)
	assert.Empty(t, progress.String(), "a cache hit builds and prints nothing")

	writeTree(t, root, map[string]string{"lib/data/a.txt": "changed"})
	third, err := Ensure(ctx, opts)
	require.NoError(t, err)
	assert.True(t, third.Built)
	assert.NotEqual(t, res.Hash, third.Hash)

	entries, err := os.ReadDir(cache)
	require.NoError(t, err)
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	assert.ElementsMatch(t, []string{res.Hash, third.Hash}, dirs, "no temporary build folders left")
}

func TestEnsureReportsCompileErrors(t *testing.T) {
	root := fakeModule(t)
	writeTree(t, root, map[string]string{"lib/lib.go": "package lib\n\nvar X = undefinedName\n"})
	_, err := Ensure(context.Background(), Options{Root: root, CacheDir: t.TempDir(),
		Targets: []Target{{Package: "./app", File: "app.wasm"}}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "undefinedName")
	assert.Contains(t, err.Error(), "GOOS=js GOARCH=wasm go build ./app failed")
}

func TestEnsureWithoutGo(t *testing.T) {
	_, err := Ensure(context.Background(), Options{Root: fakeModule(t), CacheDir: t.TempDir(), Go: "no-such-go-command"})
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrNoGo))
	assert.Contains(t, err.Error(), "not on PATH")
}

func TestPruneKeepsRecent(t *testing.T) {
	cache := t.TempDir()
	now := time.Now()
	for i, name := range []string{"a", "b", "c", "d", "current"} {
		require.NoError(t, os.MkdirAll(filepath.Join(cache, name), 0o755))
		mod := now.Add(time.Duration(i) * time.Minute)
		require.NoError(t, os.Chtimes(filepath.Join(cache, name), mod, mod))
	}
	prune(cache, "current", 2)
	entries, err := os.ReadDir(cache)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{"c", "current", "d"}, names)
}

func TestDefaultCacheDir(t *testing.T) {
	t.Setenv("FP8LAB_CACHE", "/somewhere")
	assert.Equal(t, filepath.Join("/somewhere", "wasm"), DefaultCacheDir())
	t.Setenv("FP8LAB_CACHE", "")
	assert.True(t, strings.HasSuffix(DefaultCacheDir(), filepath.Join("fp8lab", "wasm")))
}
