// Package wasmbuild builds the playground's WebAssembly modules with the
// local Go toolchain and caches them by a hash of their sources, so that
// `fp8lab serve` rebuilds only when the code it would run has changed.
//
// The cache lives in os.UserCacheDir()/fp8lab/wasm (or $FP8LAB_CACHE/wasm),
// one folder per source hash holding the modules and the matching
// wasm_exec.js. The hash covers the Go version, go.mod and go.sum, and every
// file of the module's own packages that the modules import for GOOS=js
// GOARCH=wasm (Go files, assembly and embedded files), found by reading
// import lists, not by running the go command.
package wasmbuild

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"go/build"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fp8lab/fp8lab/internal/infile"
)

// ModulePath is the module whose source the builder needs.
const ModulePath = "github.com/fp8lab/fp8lab"

// recipe changes whenever the way the modules are built changes, so that old
// cache entries are not reused.
const recipe = "fp8lab-wasm-v1 -trimpath -ldflags=-s -w"

// ErrNoCheckout is wrapped by FindModuleRoot's error when no fp8lab checkout
// contains the folder.
var ErrNoCheckout = errors.New("not inside an fp8lab checkout")

// FindModuleRoot walks up from dir to the folder whose go.mod declares
// ModulePath.
func FindModuleRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		if mod, err := modulePath(filepath.Join(d, "go.mod")); err == nil && mod == ModulePath {
			return d, nil
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return "", fmt.Errorf("%w: no go.mod of module %s in %s or above it", ErrNoCheckout, ModulePath, abs)
}

// modulePath reads the module line of a go.mod file.
func modulePath(gomod string) (string, error) {
	f, _, err := infile.Open(gomod, infile.SourceFile)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(rest), `"`), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("%s has no module line", gomod)
}

// jsContext is go/build's view of GOOS=js GOARCH=wasm without cgo.
func jsContext() build.Context {
	ctx := build.Default
	ctx.GOOS = "js"
	ctx.GOARCH = "wasm"
	ctx.CgoEnabled = false
	ctx.Dir = ""
	return ctx
}

// LocalDeps returns the module-relative folders ("fp8", "wasm", ...) of the
// module's own packages that the packages pkgs (module-relative folders such
// as "wasm") import, directly or not, for GOOS=js GOARCH=wasm, sorted.
func LocalDeps(root string, pkgs ...string) ([]string, error) {
	ctx := jsContext()
	seen := map[string]bool{}
	var visit func(rel string) error
	visit = func(rel string) error {
		if seen[rel] {
			return nil
		}
		seen[rel] = true
		p, err := ctx.ImportDir(filepath.Join(root, filepath.FromSlash(rel)), 0)
		if err != nil {
			return fmt.Errorf("reading package %s: %w", rel, err)
		}
		for _, imp := range p.Imports {
			if imp == ModulePath {
				if err := visit("."); err != nil {
					return err
				}
			} else if sub, ok := strings.CutPrefix(imp, ModulePath+"/"); ok {
				if err := visit(sub); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, p := range pkgs {
		if err := visit(path.Clean(strings.TrimPrefix(p, "./"))); err != nil {
			return nil, err
		}
	}
	out := make([]string, 0, len(seen))
	for rel := range seen {
		out = append(out, rel)
	}
	sort.Strings(out)
	return out, nil
}

// SourceFiles returns the module-relative names of the files that decide the
// content of the modules built from pkgs: go.mod, go.sum, and the Go,
// assembly and embedded files of every local package they depend on.
func SourceFiles(root string, pkgs ...string) ([]string, error) {
	deps, err := LocalDeps(root, pkgs...)
	if err != nil {
		return nil, err
	}
	ctx := jsContext()
	set := map[string]bool{"go.mod": true}
	if _, err := os.Stat(filepath.Join(root, "go.sum")); err == nil {
		set["go.sum"] = true
	}
	for _, rel := range deps {
		dir := filepath.Join(root, filepath.FromSlash(rel))
		p, err := ctx.ImportDir(dir, 0)
		if err != nil {
			return nil, err
		}
		var names []string
		names = append(names, p.GoFiles...)
		names = append(names, p.SFiles...)
		for _, n := range names {
			set[path.Join(rel, n)] = true
		}
		embedded, err := embedFiles(dir, p.EmbedPatterns)
		if err != nil {
			return nil, fmt.Errorf("package %s: %w", rel, err)
		}
		for _, n := range embedded {
			set[path.Join(rel, n)] = true
		}
	}
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out, nil
}

// embedFiles expands //go:embed patterns (relative to dir) to file names,
// descending into matched folders.
func embedFiles(dir string, patterns []string) ([]string, error) {
	var out []string
	fsys := os.DirFS(dir)
	for _, pat := range patterns {
		all := strings.HasPrefix(pat, "all:")
		matches, err := fs.Glob(fsys, strings.TrimPrefix(pat, "all:"))
		if err != nil {
			return nil, err
		}
		for _, m := range matches {
			err := fs.WalkDir(fsys, m, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				hidden := p != m && (strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_"))
				if hidden && !all {
					if d.IsDir() {
						return fs.SkipDir
					}
					return nil
				}
				if d.Type().IsRegular() {
					out = append(out, p)
				}
				return nil
			})
			if err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// SourceHash hashes the recipe, the Go version, the targets and the content
// of SourceFiles; it is the cache key of a build.
func SourceHash(root, goVersion string, targets []Target) (string, error) {
	pkgs := make([]string, len(targets))
	for i, t := range targets {
		pkgs[i] = t.Package
	}
	files, err := SourceFiles(root, pkgs...)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n", recipe, goVersion)
	for _, t := range targets {
		fmt.Fprintf(h, "target %s %s\n", t.Package, t.File)
	}
	for _, name := range files {
		f, _, err := infile.Open(filepath.Join(root, filepath.FromSlash(name)), infile.SourceFile)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "file %s\n", name)
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", err
		}
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:24], nil
}
