package main

import (
	"encoding/json"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeBuildInfo makes fp8lab version read bi for the rest of the test.
func fakeBuildInfo(t *testing.T, bi *debug.BuildInfo) {
	t.Helper()
	old := buildInfo
	buildInfo = func() (*debug.BuildInfo, bool) { return bi, bi != nil }
	t.Cleanup(func() { buildInfo = old })
}

func TestVersionReadsTheBuildInfo(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	platform := runtime.GOOS + "/" + runtime.GOARCH
	for _, c := range []struct {
		name     string
		version  string
		settings []debug.BuildSetting
		want     versionInfo
		revLine  string
	}{
		{name: "go install of a tagged version", version: "v1.2.3",
			want:    versionInfo{Version: "v1.2.3"},
			revLine: "  revision  not recorded in this build\n"},
		{name: "go install of a commit", version: "v0.0.0-20251127004512-0123456789ab",
			want: versionInfo{Version: "v0.0.0-20251127004512-0123456789ab", Revision: "0123456789ab",
				RevisionFrom: "pseudo-version", RevisionTime: "2025-11-27T00:45:12Z"},
			revLine: "  revision  0123456789ab, committed 2025-11-27T00:45:12Z, from the pseudo-version\n"},
		{name: "a build in a modified checkout: the VCS stamps win over the version Go derived from them",
			version: "v0.0.0-20251127004512-0123456789ab+dirty",
			settings: []debug.BuildSetting{{Key: "-trimpath", Value: "true"}, {Key: "vcs", Value: "git"},
				{Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: "2025-11-27T00:45:12Z"}, {Key: "vcs.modified", Value: "true"}},
			want: versionInfo{Version: "v0.0.0-20251127004512-0123456789ab+dirty", Revision: rev, RevisionFrom: "vcs",
				RevisionTime: "2025-11-27T00:45:12Z", Modified: true},
			revLine: "  revision  " + rev + ", committed 2025-11-27T00:45:12Z, with uncommitted changes\n"},
		{name: "go run in a checkout without VCS stamps", version: "(devel)",
			want:    versionInfo{Version: "(devel)"},
			revLine: "  revision  not recorded in this build\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fakeBuildInfo(t, &debug.BuildInfo{GoVersion: "go1.26.8",
				Main: debug.Module{Path: "github.com/fp8lab/fp8lab", Version: c.version}, Settings: c.settings})
			want := c.want
			want.Module, want.Go, want.Platform = "github.com/fp8lab/fp8lab", "go1.26.8", platform

			code, out, errOut := cli(t, "", "version", "--json")
			require.Equal(t, 0, code, errOut)
			var got versionInfo
			require.NoError(t, json.Unmarshal([]byte(out), &got))
			assert.Equal(t, want, got)

			code, out, _ = cli(t, "", "version")
			require.Equal(t, 0, code)
			assert.Equal(t, "fp8lab "+c.version+"\n  module    github.com/fp8lab/fp8lab\n"+c.revLine+
				"  go        go1.26.8 "+platform+"\n", out)
		})
	}
}

func TestVersionOfThisBinary(t *testing.T) {
	code, out, errOut := cli(t, "", "version", "--json")
	require.Equal(t, 0, code, errOut)
	var got versionInfo
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, runtime.Version(), got.Go, "the toolchain that built the test binary")
	assert.NotEmpty(t, got.Version)

	code, plain, _ := cli(t, "", "version")
	require.Equal(t, 0, code)
	for _, flag := range []string{"--version", "-version"} {
		code, out, _ = cli(t, "", flag)
		assert.Equal(t, 0, code, flag)
		assert.Equal(t, plain, out, "%s is fp8lab version", flag)
	}
	code, out, _ = cli(t, "", "formats", "--version")
	assert.Equal(t, 2, code, "only the first argument selects the version command: %s", out)
	code, _, errOut = cli(t, "", "version", "extra")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "extra")

	fakeBuildInfo(t, nil)
	code, _, errOut = cli(t, "", "version")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "no build information")
}
