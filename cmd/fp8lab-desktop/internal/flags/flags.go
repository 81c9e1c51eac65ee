// Package flags reads the command line of fp8lab-desktop without ebiten,
// whose package init opens the display and panics without one (a Go stack
// trace for `fp8lab-desktop --help` over ssh); package early answers the
// command line with it before ebiten's init runs.
package flags

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/fp8lab/fp8lab/tensorio"
	"github.com/fp8lab/fp8lab/viz"
)

// Options is a parsed command line.
type Options struct {
	Scene         string            // scene to start with
	SceneSet      bool              // --scene was given
	Params        map[string]string // --param name=value
	Width, Height int               // window size
	HidePanel     bool              // --hide-panel
	Tensor        string            // --tensor FILE
	MaxBytes      int64             // --max-bytes
	Selftest      string            // hidden --selftest DIR
	Frames        int               // hidden --selftest-frames
}

// SortedParams returns the names of the --param flags, sorted.
func (o Options) SortedParams() []string {
	keys := make([]string, 0, len(o.Params))
	for k := range o.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// params collects repeated --param name=value flags.
type params map[string]string

// String implements flag.Value.
func (p params) String() string {
	var kv []string
	for k, v := range p {
		kv = append(kv, k+"="+v)
	}
	sort.Strings(kv)
	return strings.Join(kv, ",")
}

// Set implements flag.Value.
func (p params) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("want name=value, got %q", s)
	}
	p[k] = v
	return nil
}

// Parse reads args (without the program name). When the program should
// stop at once, exit is true and code its status: 0 after --help (the
// usage on stdout), 2 for a wrong command line (the error and the usage on
// stderr).
func Parse(args []string, stdout, stderr io.Writer) (o Options, code int, exit bool) {
	fs := flag.NewFlagSet("fp8lab-desktop", flag.ContinueOnError)
	fs.SetOutput(stderr)
	names := viz.Names()
	fs.StringVar(&o.Scene, "scene", "explorer", "scene to start with: "+strings.Join(names, ", "))
	ps := params{}
	fs.Var(ps, "param", "set a parameter of the starting scene, name=value (repeatable)")
	fs.IntVar(&o.Width, "width", 1280, "window width")
	fs.IntVar(&o.Height, "height", 800, "window height")
	fs.BoolVar(&o.HidePanel, "hide-panel", false, "start with the tabs and the control panel hidden (H shows them)")
	fs.StringVar(&o.Tensor, "tensor", "", "a .npy, CSV, safetensors or .npz tensor to show (starts on the window scene unless --scene is given)")
	fs.Int64Var(&o.MaxBytes, "max-bytes", tensorio.DefaultMaxBytes, "largest tensor file read, in bytes")
	fs.StringVar(&o.Selftest, "selftest", "", "")
	fs.IntVar(&o.Frames, "selftest-frames", 48, "")
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "Usage: fp8lab-desktop [--scene NAME] [--param name=value ...] [--tensor FILE] [--width W --height H] [--hide-panel]")
		fs.VisitAll(func(f *flag.Flag) {
			if f.Usage != "" {
				fmt.Fprintf(w, "  --%s\t%s\n", f.Name, f.Usage)
			}
		})
		fmt.Fprintf(w, "\nKeys: 1–%d or Tab switch scenes · ↑↓ select a control · ←→ change it · Enter edit text ·\nE or the wheel scroll the explanation · R reset · H hide the panel · S save the picture ·\nP presentation mode · F11 full screen\n", min(len(names), 9))
	}
	fs.Usage = func() {} // printed below, to the right stream
	fail := func(format string, a ...any) (Options, int, bool) {
		fmt.Fprintf(stderr, "fp8lab-desktop: "+format+"\n", a...)
		usage(stderr)
		return o, 2, true
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(stdout)
			return o, 0, true
		}
		return fail("%v", err)
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %q (flags start with --)", fs.Arg(0))
	}
	if _, err := viz.New(o.Scene); err != nil {
		return fail("%v", err)
	}
	if o.Width < 1 || o.Height < 1 {
		return fail("--width and --height must be positive, got %d×%d", o.Width, o.Height)
	}
	fs.Visit(func(f *flag.Flag) { o.SceneSet = o.SceneSet || f.Name == "scene" })
	o.Params = ps
	return o, 0, false
}

// NoDisplay returns why no window can be opened here ("" when one can):
// on X11 systems (ebiten uses X11 on Linux and the BSDs) DISPLAY must be set.
func NoDisplay(goos string, getenv func(string) string) string {
	switch goos {
	case "windows", "darwin", "ios", "android", "js", "wasip1":
		return ""
	}
	if getenv("DISPLAY") == "" {
		return "no display: DISPLAY is not set. Run it in a desktop session, with ssh -X, or under xvfb-run; " +
			"the browser playground (go run ./cmd/fp8lab) needs no display"
	}
	return ""
}
