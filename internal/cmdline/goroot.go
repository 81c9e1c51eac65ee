package cmdline

import (
	"os/exec"
	"runtime"
	"strings"
)

// GoRoot returns the Go distribution's root: `go env GOROOT`, or the one
// this binary was built with when the go command is not at hand.
func GoRoot() string {
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		if s := strings.TrimSpace(string(out)); s != "" {
			return s
		}
	}
	return runtime.GOROOT()
}
