package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"time"

	"golang.org/x/mod/module"

	"github.com/fp8lab/fp8lab/internal/cmdline"
)

func init() {
	commands["version"] = command{"print fp8lab's module version, VCS revision and Go version (also --version)", runVersion}
}

// buildInfo reads the binary's build information; tests replace it.
var buildInfo = debug.ReadBuildInfo

// versionInfo is what fp8lab version prints, all of it read from the build
// information the go command embeds in the binary.
type versionInfo struct {
	Module  string `json:"module"`
	Version string `json:"version"` // "(devel)" for a build from a checkout
	// Revision is the commit the binary was built from: Go's vcs.revision
	// stamp (a build in a checkout) or the one a pseudo-version names
	// (go install module@commit); "" when the build records neither, as
	// for a tagged module version.
	Revision     string `json:"revision,omitempty"`
	RevisionFrom string `json:"revision_from,omitempty"` // "vcs" or "pseudo-version"
	RevisionTime string `json:"revision_time,omitempty"` // RFC 3339, UTC
	// Modified is Go's vcs.modified stamp: the checkout had uncommitted
	// changes.
	Modified bool   `json:"modified"`
	Go       string `json:"go"`
	Platform string `json:"platform"` // GOOS/GOARCH
}

// readVersion gathers versionInfo from bi.
func readVersion(bi *debug.BuildInfo) versionInfo {
	v := versionInfo{Module: bi.Main.Path, Version: bi.Main.Version, Go: bi.GoVersion,
		Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if v.Version == "" {
		v.Version = "(devel)"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision, v.RevisionFrom = s.Value, "vcs"
		case "vcs.time":
			v.RevisionTime = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	if v.Revision == "" && module.IsPseudoVersion(v.Version) {
		if rev, err := module.PseudoVersionRev(v.Version); err == nil {
			v.Revision, v.RevisionFrom = rev, "pseudo-version"
		}
		if t, err := module.PseudoVersionTime(v.Version); err == nil {
			v.RevisionTime = t.UTC().Format(time.RFC3339)
		}
	}
	return v
}

// text writes v as a few aligned lines.
func (v versionInfo) text(w io.Writer) {
	fmt.Fprintf(w, "fp8lab %s\n", v.Version)
	fmt.Fprintf(w, "  module    %s\n", v.Module)
	if v.Revision == "" {
		fmt.Fprintf(w, "  revision  not recorded in this build\n")
	} else {
		rev := v.Revision
		if v.RevisionTime != "" {
			rev += ", committed " + v.RevisionTime
		}
		if v.RevisionFrom == "pseudo-version" {
			rev += ", from the pseudo-version"
		}
		if v.Modified {
			rev += ", with uncommitted changes"
		}
		fmt.Fprintf(w, "  revision  %s\n", rev)
	}
	fmt.Fprintf(w, "  go        %s %s\n", v.Go, v.Platform)
}

func runVersion(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := prog.Flags("version", "[--json]", stderr)
	asJSON := fs.Bool("json", false, "print the version as a JSON object")
	if err := cmdline.Parse(fs, args); err != nil {
		return err
	}
	bi, ok := buildInfo()
	if !ok {
		return errors.New("this binary carries no build information (it was built without module support)")
	}
	v := readVersion(bi)
	if *asJSON {
		return cmdline.WriteJSON(stdout, v)
	}
	v.text(stdout)
	return nil
}
