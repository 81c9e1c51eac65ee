package train

import (
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/fp8lab/fp8lab/internal/cmdline"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var updateCorpus = flag.Bool("update-corpus", false, "rewrite train/corpus from the Go distribution's source (go tool task classroom-corpus)")

// classroomSourceLine describes the embedded corpus: the Go release it was
// cut from and how.
func classroomSourceLine() string {
	return runtime.Version() + " src/**/*.go, sorted, first " + strconv.Itoa(ClassroomCorpusBytes) +
		" bytes; validation: files with fnv32a(path)%10 == 0"
}

// TestClassroomCorpus checks the embedded corpus against the Go source it
// was cut from, when this test runs under the same Go release, and
// regenerates it with -update-corpus.
func TestClassroomCorpus(t *testing.T) {
	goroot := cmdline.GoRoot()
	if *updateCorpus {
		c, err := GoSourceCorpus(goroot, ClassroomCorpusBytes)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join("corpus", "train.txt"), c.Train, 0o644))
		require.NoError(t, os.WriteFile(filepath.Join("corpus", "val.txt"), c.Val, 0o644))
		require.NoError(t, os.WriteFile(filepath.Join("corpus", "SOURCE"), []byte(classroomSourceLine()+"\n"), 0o644))
		lic, err := os.ReadFile(filepath.Join(goroot, "LICENSE"))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join("corpus", "LICENSE"), lic, 0o644))
		t.Logf("wrote corpus/: %d training and %d validation bytes", len(c.Train), len(c.Val))
		return
	}
	c, err := ClassroomCorpus()
	require.NoError(t, err)
	n := len(c.Train) + len(c.Val)
	assert.True(t, n >= ClassroomCorpusBytes && n <= ClassroomCorpusBytes+1, "the parts hold the cap (and the newline after the cut file): %d bytes", n)
	assert.Contains(t, c.Source, "src/**/*.go")
	require.NoError(t, c.check(Classroom().Context))
	if !strings.HasPrefix(string(classroomSource), runtime.Version()+" ") {
		t.Skipf("corpus cut from %q; this is %s: cannot compare with the local Go source", strings.Fields(string(classroomSource))[0], runtime.Version())
	}
	g, err := GoSourceCorpus(goroot, ClassroomCorpusBytes)
	if err != nil {
		t.Skipf("no Go source to compare with: %v", err)
	}
	assert.Equal(t, g.Train, c.Train, "training part differs from %s/src: regenerate with go tool task classroom-corpus", goroot)
	assert.Equal(t, g.Val, c.Val, "validation part differs from %s/src", goroot)
}
