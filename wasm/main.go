//go:build js && wasm

// Command wasm is fp8lab's playground module: the viz scenes, interactive
// through ebiten, in a canvas, plus the JavaScript API of internal/jsapi
// whose live functions (setParam, currentScene...) drive the scene on
// screen. site/static/canvas.html loads it with the scene's name as its
// argument, and the scene page's link as name=value arguments after it,
// applied before the first frame, so that an animation a link stops
// (dither's animate=false) takes no step first; the scene pages frame that
// canvas, build their HTML controls from the API and apply the link again,
// showing what it refused.
//
// Ebiten fills the whole page with its canvas, which is why each scene page
// hosts it in an iframe. When the page's parameters change (through the API
// or a click in the canvas), the module posts {fp8lab: "change", present}
// to its parent window, which then reads currentScene() again.
//
// The canvas is drawn at its real size in device pixels, and only when
// something changed (ebiten.FPSModeVsyncOffMinimum: an API call, an input
// event, a resize or an animation step schedules a frame). The left
// button's presses and releases are queued from the canvas's pointer
// events, so a click shorter than a frame is not lost.
// globalThis.fp8labSetPresentation(on) turns presentation mode (larger
// type) on or off; the key P in the canvas does too.
package main

import (
	"errors"
	"os"
	"strings"
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fp8lab/fp8lab/internal/jsapi"
	"github.com/fp8lab/fp8lab/viz"
)

func main() {
	name := ""
	if len(os.Args) > 1 {
		name = os.Args[1]
	}
	p, err := start(name)
	if err != nil {
		jsapi.ReadyError(err)
		return
	}
	applyLink(p, os.Args[min(2, len(os.Args)):])
	api := js.Global().Get("Object").New()
	jsapi.Register(api, p)
	api.Set("module", "playground")
	jsapi.Ready(api)
	ebiten.SetWindowTitle("fp8lab: " + p.Scene().Title())
	ebiten.SetFPSMode(ebiten.FPSModeVsyncOffMinimum)
	listen(p)
	if err := ebiten.RunGame(p); err != nil {
		js.Global().Get("console").Call("error", "fp8lab: the playground stopped: "+err.Error())
	}
}

// applyLink sets the link's name=value arguments, in rounds while a round
// applies some that the last refused (a value may need another set first);
// the page applies them again and reports what is still refused.
func applyLink(p *player, args []string) {
	for len(args) > 0 {
		var refused []string
		for _, a := range args {
			k, v, _ := strings.Cut(a, "=")
			if p.SetParam(k, v) != nil {
				refused = append(refused, a)
			}
		}
		if len(refused) == len(args) {
			return
		}
		args = refused
	}
}

// start makes the player for the named scene (the first scene when empty).
func start(name string) (*player, error) {
	if name == "" {
		names := viz.Names()
		if len(names) == 0 {
			return nil, errors.New("this build has no scenes")
		}
		name = names[0]
	}
	g, err := newGame(name)
	if err != nil {
		return nil, err
	}
	return newPlayer(g), nil
}
