// Package testenv holds what fp8lab's tests share about their environment:
// the one switch for long tests (Long, SkipUnlessLong: FP8LAB_LONG=1), and
// what the Node and browser tests need (node, chromium, the built
// WebAssembly modules), skipping a test cleanly when something is missing on
// a developer's machine. Under CI (the environment variable CI=true) a
// missing tool fails the test instead: CI installs them with
// scripts/install-deps.sh.
package testenv

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"

	"github.com/fp8lab/fp8lab/internal/wasmbuild"
)

// InCI reports whether the tests run under CI (CI=true or CI=1).
func InCI() bool {
	v := os.Getenv("CI")
	return v == "true" || v == "1"
}

// Missing skips tb with the reason, or fails it under CI.
func Missing(tb testing.TB, format string, args ...any) {
	tb.Helper()
	msg := fmt.Sprintf(format, args...)
	if InCI() {
		tb.Fatalf("%s (CI=true: the test environment must provide it; run scripts/install-deps.sh)", msg)
	}
	tb.Skipf("%s; skipping (install it with scripts/install-deps.sh; under CI=true this fails)", msg)
}

// Node returns the path of node, or skips (fails under CI).
func Node(tb testing.TB) string {
	tb.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		Missing(tb, "node is not on PATH")
	}
	return p
}

// Chromium returns the path of a Chromium binary ($FP8LAB_CHROMIUM,
// /usr/bin/chromium, or chromium, chromium-browser, google-chrome on PATH),
// or skips (fails under CI).
func Chromium(tb testing.TB) string {
	tb.Helper()
	if p := ChromiumPath(); p != "" {
		return p
	}
	Missing(tb, "chromium is not installed (looked for $FP8LAB_CHROMIUM, /usr/bin/chromium and chromium on PATH)")
	return ""
}

// ChromiumPath returns the Chromium binary Chromium would use, or "".
// FP8LAB_CHROMIUM names another binary; set to a path that does not exist
// (e.g. "none") it simulates a machine without Chromium.
func ChromiumPath() string {
	if p := os.Getenv("FP8LAB_CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return ""
		}
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

var (
	wasmOnce sync.Once
	wasmRes  *wasmbuild.Result
	wasmErr  error
)

// Wasm builds (or finds in the cache) the playground's modules once per test
// binary, exactly as fp8lab serve does, and fails tb if that fails.
func Wasm(tb testing.TB) *wasmbuild.Result {
	tb.Helper()
	res, err := BuildWasm()
	if err != nil {
		tb.Fatalf("building the WebAssembly modules: %v", err)
	}
	return res
}

// BuildWasm is Wasm for TestMain: it returns the error instead of failing.
func BuildWasm() (*wasmbuild.Result, error) {
	wasmOnce.Do(func() {
		root, err := wasmbuild.FindModuleRoot(".")
		if err != nil {
			wasmErr = err
			return
		}
		wasmRes, wasmErr = wasmbuild.Ensure(context.Background(), wasmbuild.Options{Root: root, Progress: os.Stderr})
	})
	return wasmRes, wasmErr
}

// NumPy returns the path of a Python 3 that imports numpy (Debian's
// python3-numpy under /usr/bin/python3), for tests whose reference is
// numpy, or skips (fails under CI).
func NumPy(tb testing.TB) string {
	tb.Helper()
	const py = "/usr/bin/python3"
	if out, err := exec.Command(py, "-c", "import numpy").CombinedOutput(); err != nil {
		Missing(tb, "%s cannot import numpy (%v: %s): apt-get install python3-numpy", py, err, out)
	}
	return py
}
