package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/fp8lab/fp8lab/internal/wasmbuild"
)

// proxyVersion is the version the install test publishes this repository
// as; it is not a release, so it reads as a test.
const proxyVersion = "v0.0.0-proxytest"

// TestInstallFromAModuleProxy does what a user does, offline: go install
// fp8lab@version from a module proxy (a file proxy serving this working
// tree), then run the installed binary from an empty folder, where it
// builds the playground's WebAssembly from the module cache and serves it.
//
// The dependencies come from a second file proxy, the machine's own module
// cache, so nothing is fetched from the network; the Go build cache is
// shared, and -trimpath makes the install's compiled packages independent
// of the temporary module cache's path, so that a second run reuses them.
func TestInstallFromAModuleProxy(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the test stops the server with an interrupt, which Windows cannot send")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		testenv.Missing(t, "the go command is not on PATH")
	}
	root, err := wasmbuild.FindModuleRoot(".")
	require.NoError(t, err)
	realModCache := goEnvValue(t, goCmd, root, "GOMODCACHE")
	// The dependencies must be in the machine's module cache: list them
	// the way the install and the WebAssembly build will need them (this
	// downloads any that are missing, from the machine's usual proxy).
	// GOWORK=off: the install resolves this module's requirements alone,
	// not the workspace's (which may select newer versions).
	goCommand(t, root, []string{"GOWORK=off"}, goCmd, "list", "-deps", "./cmd/fp8lab")
	goCommand(t, root, []string{"GOWORK=off", "GOOS=js", "GOARCH=wasm"}, goCmd, "list", "-deps", wasmbuild.Playground.Package, wasmbuild.Core.Package)

	tmp := t.TempDir()
	proxy := filepath.Join(tmp, "proxy")
	publish(t, root, proxy, proxyVersion)
	gobin, modCache, home, work := filepath.Join(tmp, "bin"), filepath.Join(tmp, "modcache"), filepath.Join(tmp, "cache"), filepath.Join(tmp, "empty")
	for _, d := range []string{gobin, modCache, home, work} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	env := []string{
		"GOBIN=" + gobin,
		"GOMODCACHE=" + modCache,
		"GOPROXY=" + fileURL(proxy) + "," + fileURL(filepath.Join(realModCache, "cache", "download")),
		// The test version is in no checksum database, and the dependencies
		// were verified when they entered the machine's module cache: asking
		// the checksum database again would be a network call.
		"GOSUMDB=off",
		"GOPRIVATE=", "GONOPROXY=", "GONOSUMDB=",
		"GOFLAGS=-trimpath",
		"GOTOOLCHAIN=local",
		"GOWORK=off",
		"FP8LAB_CACHE=" + home, // the WebAssembly is built, not found in the user's cache
	}
	// The module cache is read-only, as go install leaves it: remove it
	// with the go command before the temporary folder goes.
	t.Cleanup(func() { _ = goCmdIn(work, env, goCmd, "clean", "-modcache").Run() })

	start := time.Now()
	goCommand(t, work, env, goCmd, "install", wasmbuild.ModulePath+"/cmd/fp8lab@"+proxyVersion)
	t.Logf("go install took %s", time.Since(start).Round(time.Millisecond))
	bin := filepath.Join(gobin, "fp8lab")

	out := goCommand(t, work, env, bin, "version", "--json")
	var v versionInfo
	require.NoError(t, json.Unmarshal(out, &v), "%s", out)
	assert.Equal(t, wasmbuild.ModulePath, v.Module)
	assert.Equal(t, proxyVersion, v.Version, "the installed binary knows its module version")

	src := filepath.Join(modCache, "github.com", "fp8lab", "fp8lab@"+proxyVersion)
	before := listTree(t, src)
	require.Contains(t, before, "go.mod")
	assert.NotContains(t, before, "tools/go.mod", "a module zip leaves nested modules out")

	start = time.Now()
	u, stop, stderr := startInstalled(t, bin, work, env)
	t.Logf("the installed fp8lab served %s after %s", u, time.Since(start).Round(time.Millisecond))
	assert.Contains(t, stderr(), "building the playground's WebAssembly from "+wasmbuild.ModulePath+"@"+proxyVersion+" in the module cache")

	page := get(t, u, "text/html; charset=utf-8")
	assert.Contains(t, string(page), wasmbuild.Core.File, "the home page loads the core module")
	wasm := get(t, u+wasmbuild.Core.File, "application/wasm")
	assert.True(t, bytes.HasPrefix(wasm, []byte("\x00asm")), "a WebAssembly module")
	get(t, u+wasmbuild.WasmExec, "text/javascript; charset=utf-8")
	// The scenes' module is served like the core one (TestServeBuildsFromTheCheckout);
	// fetching it here would wait for its gzip copy, so check it was built.
	built, err := filepath.Glob(filepath.Join(home, "wasm", "*", wasmbuild.Playground.File))
	require.NoError(t, err)
	assert.Len(t, built, 1, "the scenes' module is in the user cache")
	assert.Equal(t, 0, stop(), "Ctrl+C stops the installed server cleanly: %s", stderr())
	assert.Equal(t, before, listTree(t, src), "building the playground wrote nothing into the module cache")

	// A later start needs no proxy and no checksum database, and builds
	// nothing.
	offline := append(env[:len(env):len(env)], "GOPROXY=off", "GOSUMDB=sum.golang.org")
	u, stop, stderr = startInstalled(t, bin, work, offline)
	assert.NotContains(t, stderr(), "building")
	get(t, u+wasmbuild.Core.File, "application/wasm")
	assert.Equal(t, 0, stop(), "%s", stderr())
	entries, err := os.ReadDir(work)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing was written into the working directory")
}

// publish writes a file proxy for ModulePath at version into dir: the
// version list, .info, .mod, and the zip built by golang.org/x/mod/zip as
// the go command builds it (nested modules and vendor folders left out)
// from the files git would commit (tracked, and untracked but not
// ignored), or from every file when root is not a git work tree.
func publish(t *testing.T, root, dir, version string) {
	t.Helper()
	at := filepath.Join(dir, filepath.FromSlash(wasmbuild.ModulePath), "@v")
	require.NoError(t, os.MkdirAll(at, 0o755))
	write := func(name string, data []byte) {
		require.NoError(t, os.WriteFile(filepath.Join(at, name), data, 0o644))
	}
	write("list", []byte(version+"\n"))
	info, err := json.Marshal(struct{ Version, Time string }{version, time.Now().UTC().Format(time.RFC3339)})
	require.NoError(t, err)
	write(version+".info", info)
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	write(version+".mod", gomod)

	f, err := os.Create(filepath.Join(at, version+".zip"))
	require.NoError(t, err)
	defer f.Close()
	m := module.Version{Path: wasmbuild.ModulePath, Version: version}
	if files, ok := gitFiles(root); ok {
		require.NoError(t, modzip.Create(f, m, files))
	} else {
		require.NoError(t, modzip.CreateFromDir(f, m, root))
	}
	require.NoError(t, f.Close())
}

// gitFiles lists the files of the git work tree at root that a commit
// would hold; false when root is not one (or git is missing).
func gitFiles(root string) ([]modzip.File, bool) {
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		return nil, false
	}
	var files []modzip.File
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		p := filepath.Join(root, filepath.FromSlash(name))
		info, err := os.Lstat(p)
		if err != nil {
			continue // tracked but deleted in the work tree
		}
		files = append(files, diskFile{name: name, path: p, info: info})
	}
	return files, true
}

// diskFile is a file of the work tree as golang.org/x/mod/zip reads it.
type diskFile struct {
	name string // slash-separated, relative to the module root
	path string
	info fs.FileInfo
}

func (f diskFile) Path() string                 { return f.name }
func (f diskFile) Lstat() (fs.FileInfo, error)  { return f.info, nil }
func (f diskFile) Open() (io.ReadCloser, error) { return os.Open(f.path) }

// fileURL is the file:// URL of a folder, as GOPROXY takes it.
func fileURL(dir string) string {
	return "file://" + filepath.ToSlash(dir)
}

// goCmdIn is the command name args, run in dir with env added to the
// test's environment.
func goCmdIn(dir string, env []string, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

// goCommand runs name args in dir with env and returns its standard output,
// failing t with its output if it fails.
func goCommand(t *testing.T, dir string, env []string, name string, args ...string) []byte {
	t.Helper()
	cmd := goCmdIn(dir, env, name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "%s %s: %s%s", name, strings.Join(args, " "), out, stderr.String())
	return out
}

// goEnvValue asks the go command, in dir, for one setting.
func goEnvValue(t *testing.T, goCmd, dir, key string) string {
	t.Helper()
	v := strings.TrimSpace(string(goCommand(t, dir, nil, goCmd, "env", key)))
	require.NotEmpty(t, v, "go env %s", key)
	return v
}

// listTree lists the files under dir, slash-separated and sorted.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		names = append(names, filepath.ToSlash(rel))
		return err
	})
	require.NoError(t, err)
	return names
}

// servingLine is the line fp8lab serve prints once it accepts requests.
var servingLine = regexp.MustCompile(`^fp8lab playground: (http://\S+)$`)

// startInstalled starts bin serve on a free loopback port in dir and waits
// for its URL; stop interrupts it (Ctrl+C) and returns its exit status.
func startInstalled(t *testing.T, bin, dir string, env []string) (url string, stop func() int, stderr func() string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, bin, "serve", "--addr", "127.0.0.1:0")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var errBuf syncBuffer
	cmd.Stderr = &errBuf
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	done := make(chan int, 1)
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := servingLine.FindStringSubmatch(sc.Text()); m != nil {
				urls <- m[1]
			}
		}
		_ = cmd.Wait()
		done <- cmd.ProcessState.ExitCode()
	}()
	select {
	case url = <-urls:
	case code := <-done:
		t.Fatalf("the installed fp8lab exited with %d before serving:\n%s", code, errBuf.String())
	case <-ctx.Done():
		t.Fatalf("the installed fp8lab did not serve within 10 minutes:\n%s", errBuf.String())
	}
	stop = func() int {
		require.NoError(t, cmd.Process.Signal(os.Interrupt))
		select {
		case code := <-done:
			return code
		case <-time.After(10 * time.Second):
			t.Fatal("the installed fp8lab did not stop after the signal")
			return -1
		}
	}
	return url, stop, errBuf.String
}

// get fetches url and checks its status and content type.
func get(t *testing.T, url, contentType string) []byte {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, url)
	assert.Equal(t, contentType, resp.Header.Get("Content-Type"), url)
	return body
}
