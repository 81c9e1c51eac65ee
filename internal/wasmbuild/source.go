package wasmbuild

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"

	"golang.org/x/mod/module"
)

// Source is the module tree the playground's WebAssembly is built from.
type Source struct {
	// Root is the folder holding the module's go.mod.
	Root string
	// Version is the module version when Root is the read-only copy that
	// go install (or go run module@version) left in the module cache; it is
	// empty for a checkout.
	Version string
}

// String names the source in progress lines.
func (s Source) String() string {
	if s.Version == "" {
		return "the checkout in " + s.Root
	}
	return ModulePath + "@" + s.Version + " in the module cache"
}

// InstalledVersion returns the version of ModulePath a binary was built
// from when it was built from a module download (go install or go run of
// module@version), whose copy in the module cache is the binary's own
// source. It returns false for a build from a checkout: version "(devel)",
// a version with VCS stamps (Go stamps them only in a checkout, and derives
// the version from its tags) or a "+dirty" one, and for another main module.
func InstalledVersion(bi *debug.BuildInfo) (string, bool) {
	if bi == nil || bi.Main.Path != ModulePath {
		return "", false
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" || !strings.HasPrefix(v, "v") || strings.Contains(v, "+") {
		return "", false
	}
	for _, s := range bi.Settings {
		if strings.HasPrefix(s.Key, "vcs") {
			return "", false
		}
	}
	return v, true
}

// FindSource returns the source to build the playground from: the binary's
// own module version in the module cache when it was installed from a
// module (see InstalledVersion), so that the WebAssembly matches the pages
// the binary embeds; otherwise the checkout around dir. goCmd is the go
// command ("" means "go").
func FindSource(ctx context.Context, goCmd, dir string, bi *debug.BuildInfo) (Source, error) {
	if v, ok := InstalledVersion(bi); ok {
		return ModuleSource(ctx, goCmd, v)
	}
	root, err := FindModuleRoot(dir)
	if err != nil {
		return Source{}, fmt.Errorf("%w. This fp8lab was built from source (version %s), not installed from a module version, "+
			"so it builds the playground from a checkout: run it inside one (git clone the repository, cd into it, go run ./cmd/fp8lab), "+
			"or install it with go install %s/cmd/fp8lab@latest, which serves from any folder, "+
			"or serve an exported site with fp8lab serve --dir DIR", err, mainVersion(bi), ModulePath)
	}
	return Source{Root: root}, nil
}

// mainVersion is the main module's version in bi, or "unknown".
func mainVersion(bi *debug.BuildInfo) string {
	if bi == nil || bi.Main.Version == "" {
		return "unknown"
	}
	return bi.Main.Version
}

// ModuleSource returns the module cache's copy of ModulePath at version.
// A copy already there is found without the network (see cachedModule);
// otherwise the go command downloads it (go mod download -json), from
// GOPROXY, wherever GOMODCACHE puts the cache. The go command runs in the
// system's temporary folder, outside any module or workspace, so that it
// never edits one.
func ModuleSource(ctx context.Context, goCmd, version string) (Source, error) {
	path, err := lookGo(goCmd)
	if err != nil {
		return Source{}, err
	}
	if dir, ok := cachedModule(ctx, path, version); ok {
		return Source{Root: dir, Version: version}, nil
	}
	cmd := outsideModules(ctx, path, "mod", "download", "-json", ModulePath+"@"+version)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	// go mod download -json reports a failure in the JSON's Error field,
	// and exits non-zero.
	var m struct{ Dir, Error string }
	if err := json.Unmarshal(out, &m); err != nil && runErr == nil {
		return Source{}, fmt.Errorf("go mod download printed %q: %w", out, err)
	}
	if runErr != nil || m.Error != "" || m.Dir == "" {
		why := strings.TrimSpace(m.Error)
		if why == "" {
			why = strings.TrimSpace(stderr.String())
		}
		if why == "" && runErr != nil {
			why = runErr.Error()
		}
		return Source{}, fmt.Errorf("this fp8lab was installed as %s@%s and builds its playground from that module's source, "+
			"which the go command could not find or download: %s (check GOPROXY and the network, "+
			"or serve an exported site with fp8lab serve --dir DIR)", ModulePath, version, why)
	}
	if _, err := os.Stat(m.Dir); err != nil {
		return Source{}, fmt.Errorf("go mod download named %s: %w", m.Dir, err)
	}
	return Source{Root: m.Dir, Version: version}, nil
}

// cachedModule returns the folder of ModulePath@version in the module
// cache when the go command would take it as complete: the folder exists,
// no .partial file says its extraction is under way, and its .ziphash is
// there (cmd/go's modfetch.DownloadDir). go mod download is not asked:
// outside any module it has no go.sum, checks the copy against the checksum
// database again and fails when GOPROXY cannot be reached, and a later
// start of an installed fp8lab must not need the network.
func cachedModule(ctx context.Context, goPath, version string) (string, bool) {
	out, err := outsideModules(ctx, goPath, "env", "GOMODCACHE").Output()
	cache := strings.TrimSpace(string(out))
	if err != nil || cache == "" {
		return "", false
	}
	encPath, err := module.EscapePath(ModulePath)
	if err != nil {
		return "", false
	}
	encVersion, err := module.EscapeVersion(version)
	if err != nil {
		return "", false
	}
	dir := filepath.Join(cache, filepath.FromSlash(encPath)+"@"+encVersion)
	meta := filepath.Join(cache, "cache", "download", filepath.FromSlash(encPath), "@v", encVersion)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", false
	}
	if _, err := os.Stat(meta + ".partial"); !errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	if _, err := os.Stat(meta + ".ziphash"); err != nil {
		return "", false
	}
	return dir, true
}

// outsideModules is the go command goPath with args, run in the system's
// temporary folder with GOWORK=off: outside any module or workspace.
func outsideModules(ctx context.Context, goPath string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, goPath, args...)
	cmd.Dir = os.TempDir()
	cmd.Env = append(os.Environ(), "GOWORK=off")
	return cmd
}

// ErrNoGo is wrapped by the one-line error that says the go command is
// missing and what to do.
var ErrNoGo = errors.New("the playground's WebAssembly is built with the Go toolchain")

// lookGo finds the go command on PATH, or says in one line what to do.
func lookGo(goCmd string) (string, error) {
	if goCmd == "" {
		goCmd = "go"
	}
	path, err := exec.LookPath(goCmd)
	if err != nil {
		return "", fmt.Errorf("%w, but %q is not on PATH: install Go from https://go.dev/dl/ "+
			"(or serve an exported site with fp8lab serve --dir DIR)", ErrNoGo, goCmd)
	}
	return path, nil
}
