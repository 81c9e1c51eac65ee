package wasmbuild

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Target is one WebAssembly module: the package to build and the file name
// it is served as.
type Target struct {
	Package string // module-relative folder, e.g. "./wasm"
	File    string // output name, e.g. "fp8lab.wasm"
}

// The two modules of the playground. Playground holds the ebiten scenes and
// the JavaScript API and runs inside canvas.html; Core holds the API without
// ebiten (a quarter of the size) for the pages' own scripts.
var (
	Playground = Target{Package: "./wasm", File: "fp8lab.wasm"}
	Core       = Target{Package: "./wasm/core", File: "fp8core.wasm"}
)

// Targets returns both modules.
func Targets() []Target { return []Target{Playground, Core} }

// WasmExec is the name of Go's JavaScript support file in a build folder.
const WasmExec = "wasm_exec.js"

// stamp marks a complete cache folder; it is written last.
const stamp = "complete"

// Options configures Ensure.
type Options struct {
	// Root is the module root (see FindSource). Required.
	Root string
	// ModuleVersion is Source.Version: the module version when Root is a copy in
	// the module cache, which is then built outside any workspace
	// (GOWORK=off): the copy keeps the repository's go.work, whose other
	// modules a module zip leaves out.
	ModuleVersion string
	// CacheDir holds one folder per source hash; empty means DefaultCacheDir().
	CacheDir string
	// Targets to build; nil means Targets().
	Targets []Target
	// Go is the go command; empty means "go" from PATH.
	Go string
	// Progress receives one line per step and a heartbeat while building;
	// nil discards them.
	Progress io.Writer
	// Heartbeat is the interval of "still building" lines; 0 means 10s.
	Heartbeat time.Duration
	// Keep is how many other cache folders to keep after a build; 0 means 2.
	Keep int
}

// Result describes a ready build folder.
type Result struct {
	Dir   string            // folder holding the modules and wasm_exec.js
	Hash  string            // source hash, the folder's name
	Built bool              // false when the cache was already up to date
	Files map[string]string // served name -> absolute path
	Took  time.Duration     // build time when Built
}

// DefaultCacheDir returns $FP8LAB_CACHE/wasm, or fp8lab/wasm in the user's
// cache folder, or in the system temporary folder when there is none.
func DefaultCacheDir() string {
	if d := os.Getenv("FP8LAB_CACHE"); d != "" {
		return filepath.Join(d, "wasm")
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "fp8lab", "wasm")
	}
	return filepath.Join(os.TempDir(), "fp8lab-cache", "wasm")
}

// goEnv asks the go command for its version and GOROOT where o builds, so
// that the answer comes from the toolchain that builds there (the go line
// of o.Root's go.mod may select another one).
func goEnv(ctx context.Context, o Options) (version, goroot string, err error) {
	path, err := lookGo(o.Go)
	if err != nil {
		return "", "", err
	}
	out, err := o.command(ctx, path, "env", "GOVERSION", "GOROOT").Output()
	if err != nil {
		return "", "", fmt.Errorf("go env: %w", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		return "", "", fmt.Errorf("go env printed %q", out)
	}
	return strings.TrimSpace(lines[0]), strings.TrimSpace(lines[1]), nil
}

// command is the go command goPath with args, run in o.Root; a module
// cache copy is built outside any workspace (see Options.ModuleVersion).
func (o Options) command(ctx context.Context, goPath string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, goPath, args...)
	cmd.Dir = o.Root
	cmd.Env = os.Environ()
	if o.ModuleVersion != "" {
		cmd.Env = append(cmd.Env, "GOWORK=off")
	}
	return cmd
}

// WasmExecPath finds wasm_exec.js in a GOROOT: lib/wasm since Go 1.24,
// misc/wasm before.
func WasmExecPath(goroot string) (string, error) {
	for _, p := range []string{filepath.Join(goroot, "lib", "wasm", WasmExec), filepath.Join(goroot, "misc", "wasm", WasmExec)} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no %s in %s/lib/wasm or %s/misc/wasm", WasmExec, goroot, goroot)
}

// Ensure returns a folder with up-to-date modules, building them (and
// copying wasm_exec.js) when the cache has no folder for the current source
// hash. Concurrent calls, also from other processes, build once.
func Ensure(ctx context.Context, o Options) (*Result, error) {
	if o.Root == "" {
		return nil, errors.New("wasmbuild: no module root")
	}
	if o.CacheDir == "" {
		o.CacheDir = DefaultCacheDir()
	}
	if o.Targets == nil {
		o.Targets = Targets()
	}
	if o.Go == "" {
		o.Go = "go"
	}
	var progress io.Writer = io.Discard
	if o.Progress != nil {
		progress = &syncWriter{w: o.Progress}
	}
	version, goroot, err := goEnv(ctx, o)
	if err != nil {
		return nil, err
	}
	hash, err := SourceHash(o.Root, version, o.Targets)
	if err != nil {
		return nil, fmt.Errorf("hashing the playground's sources: %w", err)
	}
	res := &Result{Dir: filepath.Join(o.CacheDir, hash), Hash: hash, Files: map[string]string{}}
	for _, t := range o.Targets {
		res.Files[t.File] = filepath.Join(res.Dir, t.File)
	}
	res.Files[WasmExec] = filepath.Join(res.Dir, WasmExec)
	if complete(res.Dir) {
		return res, nil
	}
	if err := os.MkdirAll(o.CacheDir, 0o755); err != nil {
		return nil, fmt.Errorf("creating the wasm cache: %w", err)
	}
	unlock, err := lock(ctx, filepath.Join(o.CacheDir, ".lock"))
	if err != nil {
		return nil, err
	}
	defer unlock()
	if complete(res.Dir) { // another process built it while we waited
		return res, nil
	}
	start := time.Now()
	if err := buildInto(ctx, o, version, goroot, res.Dir, progress); err != nil {
		return nil, err
	}
	res.Built, res.Took = true, time.Since(start)
	var sizes []string
	for _, t := range o.Targets {
		if st, err := os.Stat(res.Files[t.File]); err == nil {
			sizes = append(sizes, fmt.Sprintf("%s %.1f MB", t.File, float64(st.Size())/1e6))
		}
	}
	fmt.Fprintf(progress, "built the playground in %s (%s)\n", seconds(res.Took), strings.Join(sizes, ", "))
	prune(o.CacheDir, hash, o.Keep)
	return res, nil
}

// syncWriter serializes writes from the build and its heartbeat.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// Write implements io.Writer.
func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// complete reports whether a cache folder holds a finished build.
func complete(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, stamp))
	return err == nil
}

// buildInto compiles the targets into a temporary folder next to dir and renames
// it into place.
func buildInto(ctx context.Context, o Options, version, goroot, dir string, progress io.Writer) error {
	wasmExec, err := WasmExecPath(goroot)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".build-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	src := Source{Root: o.Root, Version: o.ModuleVersion}
	fmt.Fprintf(progress, "building the playground's WebAssembly from %s with %s (done once; later starts use the cache in %s)\n",
		src, version, filepath.Dir(dir))
	for _, t := range o.Targets {
		args := []string{"build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(tmp, t.File), t.Package}
		cmd := o.command(ctx, o.Go, args...)
		cmd.Env = append(cmd.Env, "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		fmt.Fprintf(progress, "  GOOS=js GOARCH=wasm go build %s -> %s\n", t.Package, t.File)
		start := time.Now()
		stop := heartbeat(progress, o.Heartbeat, "building "+t.File)
		err := cmd.Run()
		stop()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("GOOS=js GOARCH=wasm go build %s failed: %v\n%s", t.Package, err, strings.TrimSpace(out.String()))
		}
		fmt.Fprintf(progress, "  built %s in %s\n", t.File, seconds(time.Since(start)))
	}
	data, err := os.ReadFile(wasmExec)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, WasmExec), data, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, stamp), []byte(version+"\n"), 0o644); err != nil {
		return err
	}
	_ = os.RemoveAll(dir) // an incomplete leftover
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("installing the build: %w", err)
	}
	return nil
}

// heartbeat prints what is being built and the time since it started every
// interval ("  building fp8lab.wasm… 40 s"), so that a first start on a slow
// machine never sits silent, until the returned function is called (which
// is safe to call twice).
func heartbeat(w io.Writer, every time.Duration, what string) func() {
	if every <= 0 {
		every = 10 * time.Second
	}
	done := make(chan struct{})
	stopped := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(stopped)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				fmt.Fprintf(w, "  %s… %s\n", what, seconds(time.Since(start)))
			}
		}
	}()
	var once bool
	return func() {
		if !once {
			once = true
			close(done)
			<-stopped
		}
	}
}

// seconds writes a duration as whole seconds: "41 s".
func seconds(d time.Duration) string {
	return fmt.Sprintf("%d s", int(d.Round(time.Second)/time.Second))
}

// prune removes all but the keep most recent other cache folders.
func prune(cacheDir, current string, keep int) {
	if keep <= 0 {
		keep = 2
	}
	entries, err := os.ReadDir(cacheDir)
	if err != nil {
		return
	}
	type old struct {
		name string
		mod  time.Time
	}
	var olds []old
	for _, e := range entries {
		if !e.IsDir() || e.Name() == current || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		olds = append(olds, old{e.Name(), info.ModTime()})
	}
	sort.Slice(olds, func(i, j int) bool { return olds[i].mod.After(olds[j].mod) })
	for i := keep; i < len(olds); i++ {
		_ = os.RemoveAll(filepath.Join(cacheDir, olds[i].name))
	}
}
