// Package gpu holds the scripts of the GPU run (run.sh, torch_oracle.py);
// its tests run run.sh with stand-in binaries, so that a broken script is
// found here and not on the GPU machine.
package gpu

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRunDryRunFitsEightMinutes(t *testing.T) {
	out, err := exec.Command("bash", "run.sh", "--dry-run", t.TempDir()).CombinedOutput()
	require.NoError(t, err, "%s", out)
	total, steps := 0, []string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		require.GreaterOrEqual(t, len(f), 3, line)
		steps = append(steps, f[0])
		s, err := strconv.Atoi(strings.TrimSuffix(f[1], "s"))
		require.NoError(t, err, line)
		total += s
	}
	assert.Equal(t, []string{"info", "parity", "tests", "dump", "oracle", "accum", "bench", "linear", "ncu"}, steps)
	assert.LessOrEqual(t, total, 450, "the time limits add up to 7.5 minutes: with the machine's start, under 8 (issue 30)")
}

// fakeBundle writes stand-ins for the bundle's binaries into a copy of
// run.sh's folder: parity fails, bench hangs, the rest succeed.
func fakeBundle(t *testing.T) string {
	dir := t.TempDir()
	script, err := os.ReadFile("run.sh")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "run.sh"), script, 0o755))
	gpu := `#!/bin/sh
case $1 in
parity) echo "FAIL  quantize: 1 differs" >&2; exit 1 ;;
bench) sleep 30 ;;
dump) mkdir -p "$2" && echo '{}' > "$2/manifest.json" ;;
*) echo "{\"command\": \"$1\"}" ;;
esac
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "fp8lab-gpu"), []byte(gpu), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "native-cuda.test"), []byte("#!/bin/sh\necho PASS\n"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "python"), []byte("#!/bin/sh\ntest -f \"$2/manifest.json\" && echo 'torch oracle: 1 cases ok'\n"), 0o755))
	return dir
}

func TestRunNeverStopsEarly(t *testing.T) {
	dir := fakeBundle(t)
	out := filepath.Join(t.TempDir(), "results")
	cmd := exec.Command("bash", filepath.Join(dir, "run.sh"), out)
	cmd.Env = append(os.Environ(), "FP8LAB_RUN_SCALE=70", "PYTHON="+filepath.Join(dir, "python"), "PATH=/usr/bin:/bin", "NCU=/nonexistent/ncu")
	log, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "%s", log)
	summary, err := os.ReadFile(filepath.Join(out, "summary.txt"))
	require.NoError(t, err)
	s := string(summary)
	for step, verdict := range map[string]string{"info": "ok", "parity": "FAIL (exit 1)", "tests": "ok", "dump": "ok",
		"oracle": "ok", "accum": "ok", "bench": "TIMEOUT", "linear": "ok", "ncu": "FAIL (exit 3)"} {
		assert.Regexp(t, regexp.MustCompile(`(?m)^`+step+` +`+regexp.QuoteMeta(verdict)), s)
	}
	assert.Equal(t, 3, exit.ExitCode(), "the exit status counts the failed steps")
	assert.Contains(t, s, "3 failed step(s)")
	oracle, err := os.ReadFile(filepath.Join(out, "oracle.out"))
	require.NoError(t, err)
	assert.Contains(t, string(oracle), "torch oracle: 1 cases ok", "the oracle read the dump the step before wrote")
	parity, err := os.ReadFile(filepath.Join(out, "parity.log"))
	require.NoError(t, err)
	assert.Contains(t, string(parity), "1 differs")
}

func TestRunRefusesBadUsage(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(f, nil, 0o644))
	for _, args := range [][]string{{}, {"a", "b"}, {f}} {
		err := exec.Command("bash", append([]string{"run.sh"}, args...)...).Run()
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, "%q", args)
		assert.Equal(t, 2, exit.ExitCode(), "%q", args)
	}
}
