package modgraph

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// maxRootRequirements is the bound on the root go.mod's require lines.
const maxRootRequirements = 20

// maxConsumerModules bounds `go list -m all` of a program that imports only
// fp8lab/fp8: the main module, fp8lab and the root go.mod's requirements.
const maxConsumerModules = maxRootRequirements + 2

// toolOnly are modules that only the developer tools need; none may appear in a
// consumer's module graph.
var toolOnly = []string{
	"github.com/go-task/",
	"github.com/aws/",
	"cloud.google.com/",
	"google.golang.org/grpc",
	"github.com/hashicorp/go-getter",
}

func repoRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	require.NoError(t, err)
	gomod := strings.TrimSpace(string(out))
	require.NotEmpty(t, gomod, "not inside a module")
	return filepath.Dir(gomod)
}

func TestRootGoModIsLean(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "go.mod"))
	require.NoError(t, err)
	n := 0
	inBlock := false
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "require (":
			inBlock = true
		case inBlock && line == ")":
			inBlock = false
		case inBlock && line != "" && !strings.HasPrefix(line, "//"):
			n++
		case strings.HasPrefix(line, "require "):
			n++
		case strings.HasPrefix(line, "tool "):
			t.Errorf("root go.mod has a tool directive %q: tools belong in tools/go.mod", line)
		}
	}
	require.LessOrEqual(t, n, maxRootRequirements, "root go.mod lists %d requirements", n)
	require.Positive(t, n)
}

// TestConsumerModuleGraph builds a throwaway module that imports fp8lab/fp8
// through a replace directive and checks its module graph.
func TestConsumerModuleGraph(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	goMod := "module example.com/consumer\n\ngo 1.26\n\n" +
		"require github.com/fp8lab/fp8lab v0.0.0\n\n" +
		"replace github.com/fp8lab/fp8lab => " + root + "\n"
	main := `package main

import (
	"fmt"

	"github.com/fp8lab/fp8lab/fp8"
)

func main() { fmt.Println(fp8.E4M3FN.Decode(0x7E)) }
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(goMod), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(main), 0o644))
	// The root go.sum already holds every checksum the consumer can need.
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))

	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		require.NoError(t, err, "go %s: %s", strings.Join(args, " "), stderr.String())
		return string(out)
	}
	modules := strings.Fields(run("list", "-m", "-f", "{{.Path}}", "all"))
	t.Logf("consumer module graph: %d modules: %s", len(modules), strings.Join(modules, " "))
	for _, m := range modules {
		for _, bad := range toolOnly {
			require.False(t, strings.HasPrefix(m, bad), "tool-only module %s in a consumer's graph", m)
		}
	}
	require.LessOrEqual(t, len(modules), maxConsumerModules)
	require.Equal(t, "448\n", run("run", "."), "the consumer program must build and run")
}
