package archdoc

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// core are the library packages that must stay free of rendering, GPU and
// browser code; they build for GOOS=js without cgo.
var core = []string{"fp8", "rng", "scaling", "dither", "stochastic", "tensorio", "train", "scan"}

// forbiddenInCore are import-path prefixes no core package may depend on,
// directly or through another package.
var forbiddenInCore = []string{
	module + "/viz", module + "/native", module + "/wasm", module + "/site",
	module + "/cmd", module + "/internal/jsapi", module + "/internal/webserve",
	"github.com/hajimehoshi/ebiten", "gorgonia.org/cu",
}

// existing returns the entries of names that are directories of the module.
func existing(root string, names []string) []string {
	var out []string
	for _, n := range names {
		if st, err := os.Stat(root + "/" + n); err == nil && st.IsDir() {
			out = append(out, n)
		}
	}
	return out
}

func isStdlib(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

func TestFP8DependsOnStdlibAndFloat16Only(t *testing.T) {
	root := repoRoot(t)
	for _, b := range builds[:2] {
		p := list(t, root, b, "./fp8")[module+"/fp8"]
		for _, d := range p.Deps {
			switch {
			case isStdlib(d), strings.HasPrefix(d, "github.com/x448/float16"):
			case d == module+"/internal/parallel":
			default:
				t.Errorf("fp8 (%v) depends on %s: it may use only the standard library, x448/float16 and internal/parallel", b, d)
			}
		}
	}
}

func TestCoreImportsNoRenderingGPUOrBrowser(t *testing.T) {
	root := repoRoot(t)
	pkgs := existing(root, core)
	require.Contains(t, pkgs, "fp8")
	for _, b := range builds[:2] {
		patterns := make([]string, len(pkgs))
		for i, p := range pkgs {
			patterns[i] = "./" + p + "/..."
		}
		for path, p := range list(t, root, b, patterns...) {
			for _, imp := range p.Imports {
				if imp == "syscall/js" {
					t.Errorf("%s imports syscall/js: the browser bridge lives in internal/jsapi", short(path))
				}
			}
			for _, d := range p.Deps {
				for _, bad := range forbiddenInCore {
					if strings.HasPrefix(d, bad) {
						t.Errorf("%s (%v) depends on %s", short(path), b, d)
					}
				}
			}
		}
	}
}

func TestCoreBuildsForTheBrowserWithoutCgo(t *testing.T) {
	root := repoRoot(t)
	args := []string{"build", "-o", os.DevNull}
	for _, p := range existing(root, core) {
		args = append(args, "./"+p+"/...")
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "GOOS=js go build of the core: %s", out)
}

func TestCLILinksNeitherEbitenNorCUDA(t *testing.T) {
	root := repoRoot(t)
	p := list(t, root, []string{"CGO_ENABLED=0"}, "./cmd/fp8lab")[module+"/cmd/fp8lab"]
	require.NotEmpty(t, p.Deps)
	for _, d := range p.Deps {
		if strings.HasPrefix(d, "github.com/hajimehoshi/ebiten") || strings.HasPrefix(d, "gorgonia.org/cu") {
			t.Errorf("cmd/fp8lab depends on %s; it must build with CGO_ENABLED=0 and run without a display or GPU", d)
		}
	}
}

// TestOnlyShellsImportTheEbitenApp keeps ebiten out of the renderers: viz and
// its plotting package are pure functions to image.RGBA, and only the desktop
// program and the browser build import ebiten and the interactive shell viz/app.
func TestOnlyShellsImportTheEbitenApp(t *testing.T) {
	root := repoRoot(t)
	for _, b := range builds[:2] {
		for path, p := range list(t, root, b, "./...") {
			name := short(path)
			shell := strings.HasPrefix(name, "viz/app") || name == "cmd/fp8lab-desktop" || strings.HasPrefix(name, "wasm")
			for _, imp := range p.Imports {
				if strings.HasPrefix(imp, "github.com/hajimehoshi/ebiten") && !shell {
					t.Errorf("%s imports %s: only viz/app, cmd/fp8lab-desktop and wasm/ may", name, imp)
				}
				if strings.HasPrefix(imp, module+"/viz/app") && !shell {
					t.Errorf("%s imports %s: only cmd/fp8lab-desktop and wasm/ may", name, imp)
				}
			}
		}
	}
}

// TestTestSupportOnlyInTests keeps the module's test-support packages
// (named like net/http/httptest: apitest, plottest) out of what it builds:
// only test files import them, so no program or library links them.
func TestTestSupportOnlyInTests(t *testing.T) {
	root := repoRoot(t)
	support, bad := map[string]bool{}, map[string]bool{}
	for _, b := range builds {
		for path, p := range list(t, root, b, "./...") {
			if strings.HasSuffix(path, "test") {
				support[short(path)] = true
			}
			for _, imp := range p.Imports {
				if strings.HasPrefix(imp, module+"/") && strings.HasSuffix(imp, "test") {
					bad[short(path)+" imports "+short(imp)] = true
				}
			}
		}
	}
	require.Contains(t, support, "viz/plot/plottest", "the check would check nothing")
	for b := range bad {
		t.Errorf("%s: test support is for test files only", b)
	}
}
