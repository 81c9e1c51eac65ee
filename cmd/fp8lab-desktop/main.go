// Command fp8lab-desktop shows the fp8lab visualizations in a resizable
// window: tabs (or the number keys) switch scenes, the panel on the left
// edits the scene's parameters with the mouse or the keyboard, and S saves
// the current picture as a PNG.
//
// Usage:
//
//	fp8lab-desktop [--scene NAME] [--param name=value ...] [--width W --height H] [--hide-panel]
//
// It needs cgo and, on Linux, the X11 and OpenGL development packages
// (see scripts/install-deps.sh). The hidden --selftest DIR flag runs every
// scene for a few frames with synthetic input, checks the screen it reads
// back, writes a screenshot per scene into DIR and exits 0 or 1; the tests
// run it under xvfb-run.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fp8lab/fp8lab/tensorio"
	"github.com/fp8lab/fp8lab/viz"
	"github.com/fp8lab/fp8lab/viz/app"
)

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

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fs := flag.NewFlagSet("fp8lab-desktop", flag.ContinueOnError)
	scene := fs.String("scene", "explorer", "scene to start with: "+strings.Join(viz.Names(), ", "))
	ps := params{}
	fs.Var(ps, "param", "set a parameter of the starting scene, name=value (repeatable)")
	width := fs.Int("width", 1280, "window width")
	height := fs.Int("height", 800, "window height")
	hide := fs.Bool("hide-panel", false, "start with the tabs and the control panel hidden (H shows them)")
	tensorFile := fs.String("tensor", "", "a .npy or CSV tensor to show in the window scene (starts on it)")
	maxBytes := fs.Int64("max-bytes", tensorio.DefaultMaxBytes, "largest tensor file read, in bytes")
	selftest := fs.String("selftest", "", "")
	frames := fs.Int("selftest-frames", 48, "")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: fp8lab-desktop [--scene NAME] [--param name=value ...] [--tensor FILE] [--width W --height H] [--hide-panel]")
		fs.VisitAll(func(f *flag.Flag) {
			if f.Usage != "" {
				fmt.Fprintf(fs.Output(), "  --%s\t%s\n", f.Name, f.Usage)
			}
		})
		fmt.Fprintf(fs.Output(), "\nKeys: 1–%d or Tab switch scenes · ↑↓ select a control · ←→ change it · Enter edit text ·\nR reset · H hide the panel · S save the picture · F11 full screen\n", min(len(viz.Names()), 9))
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	start := *scene
	if *tensorFile != "" && !isSet(fs, "scene") {
		start = "window"
	}
	g, err := app.NewWithOptions(start, app.Options{HidePanel: *hide})
	if err != nil {
		fmt.Fprintln(os.Stderr, "fp8lab-desktop:", err)
		return 2
	}
	if *tensorFile != "" {
		// The app reads the file; the scene only receives the tensor.
		t, err := tensorio.One(tensorio.ReadFile(*tensorFile, tensorio.Limits{MaxBytes: *maxBytes}))
		if err == nil {
			err = g.LoadTensor(t)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "fp8lab-desktop:", err)
			return 2
		}
	}
	for _, k := range sortedKeys(ps) {
		if err := g.SetParam(k, ps[k]); err != nil {
			fmt.Fprintln(os.Stderr, "fp8lab-desktop:", err)
			return 2
		}
	}
	ebiten.SetWindowTitle("fp8lab — FP8 by running it")
	ebiten.SetWindowSize(*width, *height)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetWindowSizeLimits(640, 400, -1, -1)
	if *selftest != "" {
		return runSelftest(g, *selftest, *frames)
	}
	// Draw only when something changed: the Game schedules a frame on
	// every change, input and animation step.
	ebiten.SetFPSMode(ebiten.FPSModeVsyncOffMinimum)
	if err := ebiten.RunGame(g); err != nil {
		fmt.Fprintln(os.Stderr, "fp8lab-desktop:", err)
		return 1
	}
	return 0
}

// isSet reports whether the flag called name was given.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
