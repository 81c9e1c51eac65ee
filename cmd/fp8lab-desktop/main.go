// Command fp8lab-desktop shows the fp8lab visualizations in a resizable
// window: tabs (or the number keys) switch scenes, the panel on the left
// edits the scene's parameters with the mouse or the keyboard, and S saves
// the current picture as a PNG.
//
// Usage:
//
//	fp8lab-desktop [--scene NAME] [--param name=value ...] [--tensor FILE] [--width W --height H] [--hide-panel]
//
// --help, a wrong command line and a missing display are answered before
// ebiten starts (package internal/flags/early), without a stack trace.
//
// It needs cgo and, on Linux, the X11 and OpenGL development packages
// (see scripts/install-deps.sh). The hidden --selftest DIR flag runs every
// scene for a few frames with synthetic input, checks the screen it reads
// back, writes a screenshot per scene into DIR and exits 0 or 1; the tests
// run it under xvfb-run.
package main

import (
	"fmt"
	"os"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fp8lab/fp8lab/cmd/fp8lab-desktop/internal/flags"
	_ "github.com/fp8lab/fp8lab/cmd/fp8lab-desktop/internal/flags/early" // answers --help without a display
	"github.com/fp8lab/fp8lab/tensorio"
	"github.com/fp8lab/fp8lab/viz/app"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	o, code, exit := flags.Parse(args, os.Stdout, os.Stderr)
	if exit { // package early has answered already; kept for clarity
		return code
	}
	start := o.Scene
	if o.Tensor != "" && !o.SceneSet {
		start = "window"
	}
	// The desktop has threads to spare: live training runs on its own
	// goroutine and the window keeps answering.
	g, err := app.NewWithOptions(start, app.Options{HidePanel: o.HidePanel, Background: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, "fp8lab-desktop:", err)
		return 2
	}
	if o.Tensor != "" {
		// The app reads the file; the scene only receives the tensor.
		t, err := tensorio.One(tensorio.ReadFile(o.Tensor, tensorio.Limits{MaxBytes: o.MaxBytes}))
		if err == nil {
			err = g.LoadTensor(t)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "fp8lab-desktop:", err)
			return 2
		}
	}
	for _, k := range o.SortedParams() {
		if err := g.SetParam(k, o.Params[k]); err != nil {
			fmt.Fprintln(os.Stderr, "fp8lab-desktop:", err)
			return 2
		}
	}
	ebiten.SetWindowTitle("fp8lab — FP8 by running it")
	ebiten.SetWindowSize(o.Width, o.Height)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetWindowSizeLimits(app.MinWindowWidth, app.MinWindowHeight, -1, -1)
	if o.Selftest != "" {
		return runSelftest(g, o.Selftest, o.Frames)
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
