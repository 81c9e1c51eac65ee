//go:build js && wasm

// Command wasm is fp8lab's playground module: the viz scenes, interactive
// through ebiten, in a canvas, plus the JavaScript API of internal/jsapi
// whose live functions (setParam, currentScene...) drive the scene on
// screen. site/static/canvas.html loads it with the scene's name as its
// argument; the scene pages frame that canvas and build their HTML controls
// from the API.
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
