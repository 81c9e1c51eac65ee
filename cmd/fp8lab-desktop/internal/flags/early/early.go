// Package early answers fp8lab-desktop's command line in its package init,
// before ebiten's init opens the display (and panics without one): --help
// prints the usage and exits 0, a wrong command line prints the error and
// the usage and exits 2, and a valid one without a display says so and
// exits 1. The desktop's main imports it for that side effect alone.
//
// Its init runs before ebiten's: Go initializes, among the packages whose
// imports are ready, the one first in import-path order, and ebiten's
// window package (github.com/hajimehoshi/ebiten/v2/internal/ui) waits for
// the standard library's vendored net packages, which sort after every
// github.com path. The desktop's flag test checks it on the real binary
// with DISPLAY unset.
package early

import (
	"fmt"
	"os"
	"runtime"

	"github.com/fp8lab/fp8lab/cmd/fp8lab-desktop/internal/flags"
)

func init() {
	_, code, exit := flags.Parse(os.Args[1:], os.Stdout, os.Stderr)
	if exit {
		os.Exit(code)
	}
	if why := flags.NoDisplay(runtime.GOOS, os.Getenv); why != "" {
		fmt.Fprintln(os.Stderr, "fp8lab-desktop:", why)
		os.Exit(1)
	}
}
